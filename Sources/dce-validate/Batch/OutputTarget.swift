import DCEEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where one report goes: a format and a file, or standard output. Writes are buffered.
final class OutputTarget {
    let format: ReportFormat
    let path: String?
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(format: ReportFormat, path: String?) throws {
        self.format = format
        self.path = path
        if let path {
            switch OutputFile.create(path) {
            case .success(let handle): self.handle = handle
            case .failure(let reason): throw DiagnosticError("cannot write the \(format.rawValue) report to '\(path)': \(reason)")
            }
        } else {
            self.handle = .standardOutput
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Whether this report is text on a terminal, the only place colour belongs.
    var wantsColor: Bool {
        format == .text && path == nil && isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeMutableBytes { bytes in
            // The bytes are written before `buffer` changes again, so Data need not copy them.
            handle.write(Data(bytesNoCopy: bytes.baseAddress!, count: bytes.count, deallocator: .none))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        if path != nil { try? handle.close() }
    }

    /// Pairs `--format` and `--output` options in the order they were written: an `--output` belongs to the
    /// `--format` before it (or, written first, to the next one); a format without an output goes to standard
    /// output, which at most one format may use.
    static func pairs(formats: [ReportFormat], outputs: [String], arguments: [String]) throws -> [(ReportFormat, String?)] {
        if formats.isEmpty {
            guard outputs.count <= 1 else { throw DiagnosticError("several --output files need a --format for each") }
            return [(.text, outputs.first)]
        }
        var order: [Bool] = []  // true for --format, false for --output, in the order written
        for argument in arguments {
            if argument == "--format" || argument.hasPrefix("--format=") { order.append(true) }
            if argument == "--output" || argument.hasPrefix("--output=") { order.append(false) }
        }
        var pairs: [(ReportFormat, String?)] = []
        var formatIterator = formats.makeIterator()
        var outputIterator = outputs.makeIterator()
        var pendingOutput: String?
        for isFormat in order {
            if isFormat {
                guard let format = formatIterator.next() else { break }
                pairs.append((format, pendingOutput))
                pendingOutput = nil
            } else {
                guard let output = outputIterator.next() else { break }
                if let last = pairs.indices.last, pairs[last].1 == nil {
                    pairs[last].1 = output
                } else if pendingOutput == nil {
                    pendingOutput = output
                } else {
                    throw DiagnosticError("--output '\(output)' follows another --output: give each a --format")
                }
            }
        }
        if pendingOutput != nil || pairs.count != formats.count {
            throw DiagnosticError("each --output needs a --format of its own")
        }
        guard pairs.filter({ $0.1 == nil }).count <= 1 else {
            throw DiagnosticError("only one --format can go to standard output; give the others an --output file")
        }
        return pairs
    }
}
