public import DCEEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an NDJSON file, standard input or bytes in memory in blocks of about 1 MiB and hands out pieces of
/// ~32 KiB that end at a line break, each with the number of its first line, so that workers can split, validate
/// and render lines in parallel while memory stays bounded.
///
/// Pieces are slices of the block they were read into: the reader copies no payload byte. A line longer than
/// `maxLineBytes` that has not ended within the bytes read is not buffered further: its first `maxLineBytes + 1`
/// bytes are handed out at once as a record (which the JSON reader rejects as too large), and the rest of the line
/// is skipped while reading on. (A line that ends within a block is handed out whole, the block bounding it.) From a pipe,
/// what has arrived is handed out before the reader waits for more, so a slow writer sees its verdicts as it goes.
///
/// ```swift
/// var reader = try NDJSONReader.open("batch.ndjson")
/// while let item = reader.next() {
///     if case .block(_, let firstLine, let bytes) = item {
///         NDJSONReader.forEachRecord(in: bytes, firstLine: firstLine) { line, record in … }
///     }
/// }
/// ```
public struct NDJSONReader {
    private let file: String
    private let source: ByteSource
    private let limit: Int
    /// Bytes read and not yet handed out; they start at the beginning of a line (or, while `skipping`, inside an
    /// oversized one).
    private var buffer: [UInt8] = []
    /// How many bytes at the start of `buffer` are known to hold no line break.
    private var searched = 0
    /// The number of the first line still in `buffer`.
    private var nextLine = 1
    private var exhausted = false
    /// Whether the last read returned less than asked: what has arrived is worth handing out before waiting.
    private var lastReadWasShort = false
    /// Whether bytes up to the next line break belong to an oversized line already handed out.
    private var skipping = false
    /// A read error, handed out once the lines before it are.
    private var failure: PayloadReadError?
    /// Pieces cut and not yet handed out, the next one last.
    private var pending: [WorkItem] = []
    private static let blockSize = 1 << 20
    private static let pieceSize = 32 << 10
    /// What one read of a pipe asks for: a pipe holds 64 KiB unless told otherwise, so asking for more only costs
    /// the zeroing of room that stays empty.
    private static let pipeReadSize = 64 << 10
    /// Zeros appended to `buffer` as room for a read (copied, which unoptimised builds do far faster than filling).
    private static let room = [UInt8](repeating: 0, count: blockSize)

    /// Opens an NDJSON file, or standard input for `-`.
    ///
    /// - Parameters:
    ///   - path: A regular file, or `-`.
    ///   - maxLineBytes: The longest line handed out whole (default: the JSON reader's document limit).
    /// - Returns: The reader.
    /// - Throws: ``PayloadReadError`` when the path is not a readable regular file.
    public static func open(
        _ path: String, maxLineBytes: Int = JSONLimits.default.maxDocumentBytes
    ) throws(PayloadReadError) -> NDJSONReader {
        if path == "-" {
            return NDJSONReader(
                file: path, source: ByteSource(descriptor: STDIN_FILENO, owned: false), limit: maxLineBytes)
        }
        let descriptor = try PayloadFile.openRegularFile(path).descriptor
        return NDJSONReader(file: path, source: ByteSource(descriptor: descriptor, owned: true), limit: maxLineBytes)
    }

    /// A reader of bytes in memory, as if they were a file named `name`: for tests and fuzzing.
    ///
    /// - Parameters:
    ///   - name: The name the work items carry.
    ///   - bytes: The stream.
    ///   - maxLineBytes: The longest line handed out whole.
    ///   - readSize: The most bytes one read delivers (all that is asked for by default); a small size hands the
    ///     stream over in pieces, as a pipe does.
    public init(
        name: String, bytes: [UInt8], maxLineBytes: Int = JSONLimits.default.maxDocumentBytes,
        readSize: Int = .max
    ) {
        self.init(file: name, source: ByteSource(bytes: bytes, readSize: max(readSize, 1)), limit: maxLineBytes)
    }

    private init(file: String, source: ByteSource, limit: Int) {
        self.file = file
        self.source = source
        self.limit = max(limit, 0)
    }

    /// The next piece of the stream: a block of complete lines, an oversized line's first bytes as a record, or
    /// a read error; `nil` at the end.
    ///
    /// - Parameter whenWaiting: Called before a read that would wait for a writer (a pipe or terminal with
    ///   nothing to read yet), so that the caller can finish and write out what it holds.
    /// - Returns: The next work item.
    public mutating func next(whenWaiting: () -> Void = {}) -> WorkItem? {
        while true {
            if let item = pending.popLast() { return item }
            if skipping {
                dropOversizedLine()
                if skipping {
                    if exhausted { skipping = false } else { fill(whenWaiting) }
                }
                continue
            }
            let lastBreak = lastLineBreak()
            if let lastBreak, exhausted || lastReadWasShort || buffer.count >= Self.blockSize {
                split(buffer[0...lastBreak])
                // The pieces keep this storage alive; the incomplete last line moves to a buffer of its own.
                buffer = Array(buffer[(lastBreak + 1)...])
                searched = buffer.count
                continue
            }
            if exhausted {
                if let failure {
                    // The incomplete line before the error is dropped: half a record would be a wrong verdict.
                    self.failure = nil
                    buffer = []
                    searched = 0
                    return .unreadable(failure)
                }
                guard !buffer.isEmpty else { return nil }
                // The last line has no line break.
                pending.append(.block(file: file, firstLine: nextLine, bytes: buffer[...]))
                buffer = []
                searched = 0
                continue
            }
            if lastBreak == nil && buffer.count > limit {
                // An oversized line: hand out its start now, then skip the rest as it arrives.
                let record = WorkItem.record(file: file, line: nextLine, bytes: Array(buffer[0...limit]))
                nextLine += 1
                buffer.removeFirst(limit + 1)
                searched = 0
                skipping = true
                return record
            }
            fill(whenWaiting)
        }
    }

    /// Calls `body` with each non-blank line of a block and its number, without its line break (LF or CRLF).
    ///
    /// - Parameters:
    ///   - block: Complete lines, as a ``WorkItem/block(file:firstLine:bytes:)`` holds them.
    ///   - firstLine: The number of the block's first line.
    ///   - body: Receives a line's number and bytes.
    public static func forEachRecord(
        in block: ArraySlice<UInt8>, firstLine: Int, _ body: (_ line: Int, _ record: ArraySlice<UInt8>) throws -> Void
    ) rethrows {
        var line = firstLine
        var start = block.startIndex
        while start < block.endIndex {
            let end = block[start...].firstIndex(of: UInt8(ascii: "\n")) ?? block.endIndex
            var recordEnd = end
            if recordEnd > start && block[recordEnd - 1] == UInt8(ascii: "\r") { recordEnd -= 1 }
            if block[start..<recordEnd].contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                try body(line, block[start..<recordEnd])
            }
            line += 1
            start = end + 1
        }
    }

    /// The last line break in `buffer`, searching only bytes not searched before (with memchr, which the C library
    /// vectorises).
    private mutating func lastLineBreak() -> Int? {
        let searched = searched
        let found: Int? = buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var cursor = base + searched
            var last: UnsafeRawPointer?
            while cursor < base + bytes.count, let hit = memchr(cursor, 0x0A, base + bytes.count - cursor) {
                last = UnsafeRawPointer(hit)
                cursor = UnsafeRawPointer(hit) + 1
            }
            return last.map { base.distance(to: $0) }
        }
        if found == nil { self.searched = buffer.count }
        return found
    }

    /// Drops the buffered bytes of an oversized line, up to and including its line break once one has arrived.
    private mutating func dropOversizedLine() {
        let lineBreak: Int? = buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        if let lineBreak {
            buffer.removeFirst(lineBreak + 1)
            skipping = false
        } else {
            buffer.removeAll(keepingCapacity: true)
        }
        searched = 0
    }

    /// Cuts complete lines into pieces at line breaks, counting lines so that each piece knows its first line.
    private mutating func split(_ region: ArraySlice<UInt8>) {
        var pieces: [WorkItem] = []
        var start = region.startIndex
        while start < region.endIndex {
            var end = min(start + Self.pieceSize, region.endIndex) - 1
            while end < region.endIndex - 1 && region[end] != UInt8(ascii: "\n") { end += 1 }
            let piece = region[start...end]
            pieces.append(.block(file: file, firstLine: nextLine, bytes: piece))
            nextLine += Self.countLineBreaks(piece)
            start = end + 1
        }
        pending.append(contentsOf: pieces.reversed())
    }

    /// Line breaks in a piece, found with memchr (vectorised in the C library).
    private static func countLineBreaks(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var cursor = UnsafeRawPointer(buffer.baseAddress) else { return 0 }
            let end = cursor + buffer.count
            var count = 0
            while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
                count += 1
                cursor = UnsafeRawPointer(found) + 1
            }
            return count
        }
    }

    /// Reads up to a block (from a pipe, up to what a pipe holds) onto the end of `buffer`, straight into its
    /// storage. A read error ends the stream; the lines before it are still handed out, then the error.
    private mutating func fill(_ whenWaiting: () -> Void) {
        if source.wouldWait() { whenWaiting() }
        let start = buffer.count
        let wanted = min(source.canWait ? Self.pipeReadSize : Self.blockSize, source.readSize)
        buffer.append(contentsOf: Self.room[0..<wanted])
        let source = source
        let result = buffer.withUnsafeMutableBytes { source.read(into: $0.baseAddress! + start, count: wanted) }
        let count = max(result, 0)
        buffer.removeLast(wanted - count)
        lastReadWasShort = count < wanted
        if result < 0 { failure = .fromErrno(file, line: nextLine, Int32(-result)) }
        if count == 0 { exhausted = true }
    }
}

/// Where an ``NDJSONReader`` reads from: a descriptor (closed with the source when owned) or bytes in memory.
private final class ByteSource {
    private let descriptor: Int32
    private let owned: Bool
    /// Whether reading can wait for a writer: pipes, FIFOs, terminals and sockets, not regular files.
    let canWait: Bool
    private let memory: [UInt8]
    private var offset = 0
    /// The most bytes one read delivers (bytes in memory handed over in pieces); no more room is made for a read.
    let readSize: Int

    init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
        var status = stat()
        canWait = fstat(descriptor, &status) != 0 || status.st_mode & S_IFMT != S_IFREG
        memory = []
        readSize = .max
    }

    init(bytes: [UInt8], readSize: Int) {
        descriptor = -1
        owned = false
        canWait = false
        memory = bytes
        self.readSize = readSize
    }

    deinit {
        if owned { close(descriptor) }
    }

    /// Whether a read now would wait: nothing has arrived and the writer has not closed its end.
    func wouldWait() -> Bool {
        guard canWait else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Reads up to `count` bytes: the count read, 0 at the end, or `-errno`.
    func read(into target: UnsafeMutableRawPointer, count: Int) -> Int {
        guard descriptor >= 0 else {
            let taken = min(count, readSize, memory.count - offset)
            guard taken > 0 else { return 0 }
            memory.withUnsafeBytes { target.copyMemory(from: $0.baseAddress! + offset, byteCount: taken) }
            offset += taken
            return taken
        }
        return readRetrying(descriptor, target, count)
    }
}
