import DCEEngine
import Foundation

/// Validates payloads in chunks on every core, then hands the verdicts, in input order, to each report writer:
/// memory holds one chunk, however long the run.
struct BatchRunner {
    let prepared: PreparedSchema
    /// How many payloads are validated at once; 1 validates on the calling thread only.
    let jobs: Int
    /// The stored record each payload updates (`--original`), or `nil` to validate payloads on their own.
    var original: [UInt8]?
    var schema: String { prepared.schema.id }

    enum Outcome: Sendable {
        /// A verdict and its part of each report, rendered by the worker that validated it (`nil` for the formats
        /// that are rendered in order, by the writer).
        case report(PayloadReport, [String?])
        case unreadable(String)
    }

    /// What a worker needs to render a payload's part of each report.
    struct Rendering: Sendable {
        var formats: [ReportFormat]
        var options: [ReportOptions]
        var schema: String
    }

    struct Summary {
        var payloads = 0
        var invalid = 0
        var errors = 0
        var unreadable = 0
        /// The first violations, for a GitHub step summary.
        var firstErrors: [(file: String, violation: Violation)] = []
    }

    func run(_ inputs: PayloadInputs, targets: [OutputTarget], options: ReportOptions) -> Summary {
        let targetOptions = targets.map { target in
            var targetOptions = options
            targetOptions.color = target.wantsColor
            return targetOptions
        }
        var writers = zip(targets, targetOptions).map { target, options in
            ReportWriter(format: target.format, schema: schema, options: options) { target.write($0) }
        }
        let rendering = Rendering(formats: targets.map(\.format), options: targetOptions, schema: schema)
        var summary = Summary()
        var progress = Progress()
        let chunkSize = jobs * 2_048  // in payloads: enough pieces per phase for the workers to balance
        var chunk: [WorkItem] = []
        var weight = 0
        chunk.reserveCapacity(chunkSize)

        func emit(_ results: [[Outcome]]) {
            for outcome in results.joined() {
                switch outcome {
                case .unreadable(let message):
                    summary.unreadable += 1
                    Diagnostics.error(message)
                case .report(let payload, let fragments):
                    summary.payloads += 1
                    summary.errors += payload.errors.count
                    if !payload.valid { summary.invalid += 1 }
                    for violation in payload.errors where summary.firstErrors.count < 50 {
                        summary.firstErrors.append((payload.name, violation))
                    }
                    for index in writers.indices { writers[index].add(payload, fragment: fragments[index]) }
                }
            }
            progress.update(payloads: summary.payloads, invalid: summary.invalid)
        }

        func dispatch() {
            guard !chunk.isEmpty else { return }
            emit(validate(chunk, rendering: rendering))
            chunk.removeAll(keepingCapacity: true)
            weight = 0
        }

        for item in inputs {
            chunk.append(item)
            weight += item.weight
            if weight >= chunkSize { dispatch() }
        }
        dispatch()
        progress.finish()
        for index in writers.indices { writers[index].finish() }
        for target in targets { target.close() }
        return summary
    }

    /// The outcomes of each item, in order.
    private func validate(_ items: [WorkItem], rendering: Rendering) -> [[Outcome]] {
        guard !items.isEmpty else { return [] }
        if jobs == 1 { return items.map { outcomes(for: $0, rendering: rendering) } }
        var results = [[Outcome]](repeating: [], count: items.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = ResultSlots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                (slots.base + index).pointee = self.outcomes(for: items[index], rendering: rendering)
            }
        }
        return results
    }

    /// Validates and renders the payloads of one item: one for a file or a record, every non-blank line for a block.
    private func outcomes(for item: WorkItem, rendering: Rendering) -> [Outcome] {
        guard case .block(let file, let firstLine, let bytes) = item else { return [outcome(for: item, rendering: rendering)] }
        var results: [Outcome] = []
        var line = firstLine
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var recordEnd = end
            if recordEnd > start && bytes[recordEnd - 1] == UInt8(ascii: "\r") { recordEnd -= 1 }
            if bytes[start..<recordEnd].contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                let record = WorkItem.record(file: file, line: line, bytes: Array(bytes[start..<recordEnd]))
                results.append(outcome(for: record, rendering: rendering))
            }
            line += 1
            start = end + 1
        }
        return results
    }

    private func outcome(for item: WorkItem, rendering: Rendering) -> Outcome {
        let file: String
        let line: Int?
        let bytes: [UInt8]
        switch item {
        case .unreadable(let message): return .unreadable(message)
        case .block: return .unreadable("internal error: a block reached outcome(for:)")
        case .file(let path):
            do {
                bytes = try PayloadFile.read(path)
            } catch {
                return .unreadable("\(error)")
            }
            file = path
            line = nil
        case .record(let path, let recordLine, let recordBytes):
            file = path
            line = recordLine
            bytes = recordBytes
        }
        let report = original.map { prepared.validate(json: bytes, original: $0) } ?? prepared.validate(json: bytes)
        let payload = PayloadReport(file: file, line: line, report: report)
        let fragments = rendering.formats.indices.map { target in
            ReportWriter.fragment(for: payload, format: rendering.formats[target], options: rendering.options[target])
        }
        return .report(payload, fragments)
    }
}

/// The result buffer of one chunk, shared by the workers of `concurrentPerform`.
///
/// `@unchecked Sendable`: each iteration writes only its own slot, the buffer outlives the call, and
/// `concurrentPerform` returns only after every iteration has finished, so no slot is read while it is written.
private struct ResultSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<[BatchRunner.Outcome]>
}
