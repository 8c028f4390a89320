import DCECommandLine
import DCEEngine
import DCEReports
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one report goes: a format and a file, or standard output. Writes are buffered; the first write error is
/// kept, later writes are dropped, and the run ends with it (see ``BatchRunner``).
final class OutputTarget {
    let format: ReportFormat
    let path: String?
    /// `nil` for standard output.
    private let file: OutputFile?
    private var buffer: [UInt8] = []
    /// Why the report could not be written, as a diagnostic; `nil` while all is well.
    private(set) var failure: String?

    init(format: ReportFormat, path: String?) throws {
        self.format = format
        self.path = path
        if let path {
            switch OutputFile.create(path) {
            case .success(let file): self.file = file
            case .failure(let reason):
                throw DiagnosticError("cannot write the \(format.rawValue) report to '\(path)': \(reason)")
            }
        } else {
            self.file = nil
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Whether this report is text on a terminal, the only place colour belongs.
    var wantsColor: Bool {
        format == .text && path == nil && isatty(STDOUT_FILENO) == 1
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func write(_ text: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty, failure == nil else { return }
        let error = buffer.withUnsafeBytes { bytes in
            file.map { $0.write(bytes) } ?? Descriptor.writeAll(STDOUT_FILENO, bytes)
        }
        buffer.removeAll(keepingCapacity: true)
        if let error { fail(error) }
    }

    /// Writes what is buffered and flushes a report file to disk; it is renamed into place by ``install()``.
    func finishWriting() {
        flush()
        if failure == nil, let error = file?.finishWriting() { fail(error) }
    }

    /// Puts a finished report file in place of the previous one.
    func install() {
        if failure == nil, let error = file?.install() { fail(error) }
    }

    /// Removes an unfinished report file: the previous one stays.
    func discard() { file?.discard() }

    private func fail(_ error: Int32) {
        failure =
            "cannot write the \(format.rawValue) report to \(path.map { "'\($0)'" } ?? "standard output"): \(Descriptor.reason(error))"
    }

    /// Pairs `--format` and `--output` options in the order they were written: an `--output` belongs to the
    /// `--format` before it (or, written first, to the next one); a format without an output goes to standard
    /// output, which at most one format may use.
    static func pairs(formats: [ReportFormat], outputs: [String], arguments: [String]) throws -> [(
        ReportFormat, String?
    )] {
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
