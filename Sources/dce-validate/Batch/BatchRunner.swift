import DCEEngine
import Foundation

/// Validates payloads in chunks on every core, then hands the verdicts, in input order, to each report writer:
/// memory holds one chunk, however long the run.
struct BatchRunner {
    let prepared: PreparedSchema
    /// How many payloads are validated at once; 1 validates on the calling thread only.
    let jobs: Int
    var schema: String { prepared.schema.id }

    enum Outcome: Sendable {
        /// A verdict and its part of each report, rendered by the worker that validated it.
        case report(PayloadReport, [String])
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
        var position = 0
        var summary = Summary()
        var progress = Progress()
        let chunkSize = jobs * 256
        var chunk: [WorkItem] = []
        chunk.reserveCapacity(chunkSize)

        func drain() {
            for outcome in validate(chunk, firstIndex: position, rendering: rendering) {
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
            position += chunk.count
            chunk.removeAll(keepingCapacity: true)
            progress.update(payloads: summary.payloads, invalid: summary.invalid)
        }

        for item in inputs {
            chunk.append(item)
            if chunk.count == chunkSize { drain() }
        }
        drain()
        progress.finish()
        for index in writers.indices { writers[index].finish() }
        for target in targets { target.close() }
        return summary
    }

    private func validate(_ items: [WorkItem], firstIndex: Int, rendering: Rendering) -> [Outcome] {
        guard !items.isEmpty else { return [] }
        if jobs == 1 { return items.indices.map { outcome(for: items[$0], index: firstIndex + $0, rendering: rendering) } }
        var outcomes = [Outcome](repeating: .unreadable(""), count: items.count)
        outcomes.withUnsafeMutableBufferPointer { results in
            let slots = ResultSlots(base: results.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                (slots.base + index).pointee = outcome(for: items[index], index: firstIndex + index, rendering: rendering)
            }
        }
        return outcomes
    }

    private func outcome(for item: WorkItem, index: Int, rendering: Rendering) -> Outcome {
        let file: String
        let line: Int?
        let bytes: [UInt8]
        switch item {
        case .unreadable(let message): return .unreadable(message)
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
        let payload = PayloadReport(file: file, line: line, report: prepared.validate(json: bytes))
        let fragments = rendering.formats.indices.map { target in
            ReportWriter.fragment(
                for: payload, format: rendering.formats[target], index: index, schema: rendering.schema, options: rendering.options[target])
        }
        return .report(payload, fragments)
    }
}

/// The result buffer of one chunk, shared by the workers of `concurrentPerform`.
///
/// `@unchecked Sendable`: each iteration writes only its own slot, the buffer outlives the call, and
/// `concurrentPerform` returns only after every iteration has finished, so no slot is read while it is written.
private struct ResultSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<BatchRunner.Outcome>
}
