import DCEEngine
import Foundation

/// Reads an NDJSON file or standard input in 1 MiB blocks and yields one work item per non-blank line, so a
/// stream of any length is read with bounded memory. A line longer than the JSON reader's document limit is
/// not buffered: its record is reported as too large and the rest of the line is skipped.
struct NDJSONReader {
    private let file: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var line = 0
    private var exhausted = false
    private let limit = JSONReader.Limits.default.maxDocumentBytes

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
            if let newline = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) {
                line += 1
                var end = newline
                if end > position, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let record = Array(buffer[position..<end])
                position = newline + 1
                if position > 1 << 20 {
                    buffer.removeFirst(position)
                    position = 0
                }
                if record.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return .record(file: file, line: line, bytes: record)
            }
            if buffer.count - position > limit {
                // An oversized line: report it without holding it, then drop bytes up to its end.
                line += 1
                let oversized = WorkItem.record(file: file, line: line, bytes: Array(buffer[position..<(position + limit + 1)]))
                skipRestOfLine()
                return oversized
            }
            guard !exhausted else {
                guard position < buffer.count else { return nil }
                line += 1
                let record = Array(buffer[position...])
                position = buffer.count
                return record.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ? nil : .record(file: file, line: line, bytes: record)
            }
            fill()
        }
    }

    private mutating func fill() {
        let block = handle.readData(ofLength: 1 << 20)
        if block.isEmpty {
            exhausted = true
        } else {
            buffer.append(contentsOf: block)
        }
    }

    private mutating func skipRestOfLine() {
        buffer.removeAll(keepingCapacity: true)
        position = 0
        while true {
            let block = handle.readData(ofLength: 1 << 20)
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
