import DCEEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an NDJSON file or standard input in blocks of about 1 MiB and hands out pieces of ~64 KiB that end at a
/// line break, each with the number of its first line, so that workers can split, validate and render lines in
/// parallel while memory stays bounded. A line longer than the JSON reader's document limit is not buffered: its
/// record is reported as too large and the rest of the line is skipped.
struct NDJSONReader {
    private let file: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// The number of the first line still in `buffer`.
    private var nextLine = 1
    private var exhausted = false
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
            if !pending.isEmpty { return pending.removeFirst() }
            while !exhausted && buffer.count < Self.blockSize { fill() }
            guard !buffer.isEmpty else { return nil }
            guard let lastBreak = buffer.lastIndex(of: UInt8(ascii: "\n")) else {
                if exhausted {
                    // The last line has no line break.
                    pending.append(.block(file: file, firstLine: nextLine, bytes: buffer))
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
            buffer.removeFirst(lastBreak + 1)
        }
    }

    /// Cuts complete lines into pieces at line breaks, counting lines so that each piece knows its first line.
    private mutating func split(_ region: ArraySlice<UInt8>) {
        var start = region.startIndex
        while start < region.endIndex {
            var end = min(start + Self.pieceSize, region.endIndex) - 1
            while end < region.endIndex - 1 && region[end] != UInt8(ascii: "\n") { end += 1 }
            let piece = Array(region[start...end])
            pending.append(.block(file: file, firstLine: nextLine, bytes: piece))
            nextLine += Self.countLineBreaks(piece)
            start = end + 1
        }
    }

    /// Line breaks in a piece, found with memchr (vectorised in the C library).
    private static func countLineBreaks(_ bytes: [UInt8]) -> Int {
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

    private mutating func fill() {
        let block = handle.readData(ofLength: Self.blockSize)
        if block.isEmpty {
            exhausted = true
        } else {
            buffer.append(contentsOf: block)
        }
    }

    private mutating func skipRestOfLine() {
        buffer.removeAll(keepingCapacity: true)
        while true {
            let block = handle.readData(ofLength: Self.blockSize)
            if block.isEmpty {
                exhausted = true
                return
            }
            if let newline = block.firstIndex(of: UInt8(ascii: "\n")) {
                buffer.append(contentsOf: block[(newline + 1)...])
                return
            }
        }
    }
}
