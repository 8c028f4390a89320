import DCEEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an NDJSON file or standard input in blocks of about 1 MiB and hands out pieces of ~32 KiB that end at a
/// line break, each with the number of its first line, so that workers can split, validate and render lines in
/// parallel while memory stays bounded. Pieces are slices of the block they were read into: the reader's thread
/// copies no payload byte. A line longer than the JSON reader's document limit is not buffered: its record is
/// reported as too large and the rest of the line is skipped.
struct NDJSONReader {
    private let file: String
    private let handle: FileHandle
    /// Bytes read and not yet handed out; they start at the beginning of a line.
    private var buffer: [UInt8] = []
    /// The number of the first line still in `buffer`.
    private var nextLine = 1
    private var exhausted = false
    /// Pieces cut and not yet handed out, the next one last.
    private var pending: [WorkItem] = []
    private let limit = JSONReader.Limits.default.maxDocumentBytes
    private static let blockSize = 1 << 20
    private static let pieceSize = 32 << 10

    static func open(_ file: String) -> Result<NDJSONReader, PayloadInputs.ExpansionError> {
        if file == "-" { return .success(NDJSONReader(file: file, handle: .standardInput)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return .failure(PayloadInputs.ExpansionError("\(file): cannot read the payload stream: no such file"))
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            return .failure(PayloadInputs.ExpansionError("\(file): cannot read the payload stream: permission denied"))
        }
        return .success(NDJSONReader(file: file, handle: handle))
    }

    private init(file: String, handle: FileHandle) {
        self.file = file
        self.handle = handle
    }

    mutating func next() -> WorkItem? {
        while true {
            if let item = pending.popLast() { return item }
            while !exhausted && buffer.count < Self.blockSize { fill() }
            guard !buffer.isEmpty else { return nil }
            guard let lastBreak = buffer.lastIndex(of: UInt8(ascii: "\n")) else {
                if exhausted {
                    // The last line has no line break.
                    pending.append(.block(file: file, firstLine: nextLine, bytes: buffer[...]))
                    buffer = []
                    continue
                }
                guard buffer.count > limit else {
                    fill()
                    continue
                }
                // An oversized line: report it without holding it, then drop bytes up to its end.
                pending.append(.record(file: file, line: nextLine, bytes: Array(buffer[0..<(limit + 1)])))
                nextLine += 1
                skipRestOfLine()
                continue
            }
            split(buffer[0...lastBreak])
            // The pieces keep this storage alive; the incomplete last line moves to a buffer of its own.
            buffer = Array(buffer[(lastBreak + 1)...])
        }
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

    /// Reads up to a block onto the end of `buffer`, straight into its storage.
    private mutating func fill() {
        let start = buffer.count
        let source = (handle.fileDescriptor, file)
        buffer.append(contentsOf: repeatElement(0, count: Self.blockSize))
        let count = buffer.withUnsafeMutableBytes { Self.readBytes(from: source, into: $0.baseAddress! + start, count: Self.blockSize) }
        buffer.removeLast(Self.blockSize - count)
        if count == 0 { exhausted = true }
    }

    /// Drops bytes up to and including the next line break, reading as needed.
    private mutating func skipRestOfLine() {
        buffer.removeAll(keepingCapacity: true)
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        let source = (handle.fileDescriptor, file)
        while true {
            let count = block.withUnsafeMutableBytes { Self.readBytes(from: source, into: $0.baseAddress!, count: Self.blockSize) }
            if count == 0 {
                exhausted = true
                return
            }
            if let newline = block[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                buffer.append(contentsOf: block[(newline + 1)..<count])
                return
            }
        }
    }

    /// `read(2)`, retried when interrupted; 0 at the end of the stream. A read error ends the stream too, and is
    /// reported: what was read before it is still checked.
    private static func readBytes(from source: (descriptor: Int32, file: String), into target: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let result = read(source.descriptor, target, count)
            if result >= 0 { return result }
            if errno == EINTR { continue }
            Diagnostics.error("\(source.file): cannot read the payload stream: \(String(cString: strerror(errno)))")
            return 0
        }
    }
}
