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
        /// The verdicts of one work item, rendered by the worker that validated them.
        case rendered(Piece)
        case unreadable(String)
    }

    /// The payloads of one work item: their part of each report and what the summary needs of them.
    struct Piece: Sendable {
        /// One batch per report target, in the order of the targets.
        var batches: [ReportBatch]
        var payloads = 0
        var invalid = 0
        var errors = 0
        /// The item's first violations, as many as the summary may still need.
        var firstErrors: [(file: String, violation: Violation)] = []

        init(rendering: Rendering) {
            batches = zip(rendering.formats, rendering.options).map { ReportBatch(format: $0, options: $1) }
        }

        mutating func add(_ payload: PayloadReport) {
            payloads += 1
            errors += payload.errors.count
            if !payload.valid { invalid += 1 }
            for violation in payload.errors.prefix(Summary.firstErrorLimit - firstErrors.count) {
                firstErrors.append((payload.name, violation))
            }
            for index in batches.indices { batches[index].add(payload) }
        }
    }

    /// What a worker needs to render payloads' parts of each report.
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
        /// How many violations the step summary lists.
        static let firstErrorLimit = 50
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

        func emit(_ results: [Outcome]) {
            for outcome in results {
                switch outcome {
                case .unreadable(let message):
                    summary.unreadable += 1
                    Diagnostics.error(message)
                case .rendered(let piece):
                    summary.payloads += piece.payloads
                    summary.errors += piece.errors
                    summary.invalid += piece.invalid
                    summary.firstErrors += piece.firstErrors.prefix(Summary.firstErrorLimit - summary.firstErrors.count)
                    for index in writers.indices { writers[index].add(piece.batches[index]) }
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

    /// The outcome of each item, in order.
    private func validate(_ items: [WorkItem], rendering: Rendering) -> [Outcome] {
        guard !items.isEmpty else { return [] }
        if jobs == 1 { return items.map { outcome(for: $0, rendering: rendering) } }
        return [Outcome](unsafeUninitializedCapacity: items.count) { buffer, initialized in
            let slots = ResultSlots(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                (slots.base + index).initialize(to: self.outcome(for: items[index], rendering: rendering))
            }
            initialized = items.count
        }
    }

    /// Validates and renders the payloads of one item: one for a file or a record, every non-blank line for a block.
    private func outcome(for item: WorkItem, rendering: Rendering) -> Outcome {
        var piece = Piece(rendering: rendering)
        switch item {
        case .unreadable(let message):
            return .unreadable(message)
        case .file(let path):
            do {
                piece.add(PayloadReport(file: path, report: validate(try PayloadFile.read(path))))
            } catch {
                return .unreadable("\(error)")
            }
        case .record(let file, let line, let bytes):
            piece.add(PayloadReport(file: file, line: line, report: validate(bytes)))
        case .block(let file, var line, let bytes):
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                var recordEnd = end
                if recordEnd > start && bytes[recordEnd - 1] == UInt8(ascii: "\r") { recordEnd -= 1 }
                if bytes[start..<recordEnd].contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                    piece.add(PayloadReport(file: file, line: line, report: validate(Array(bytes[start..<recordEnd]))))
                }
                line += 1
                start = end + 1
            }
        }
        return .rendered(piece)
    }

    private func validate(_ bytes: [UInt8]) -> ValidationReport {
        original.map { prepared.validate(json: bytes, original: $0) } ?? prepared.validate(json: bytes)
    }
}

/// The result buffer of one chunk, shared by the workers of `concurrentPerform`.
///
/// `@unchecked Sendable`: each iteration initializes only its own slot, the buffer outlives the call, and
/// `concurrentPerform` returns only after every iteration has finished, so no slot is read while it is written.
private struct ResultSlots: @unchecked Sendable {
    let base: UnsafeMutablePointer<BatchRunner.Outcome>
}
