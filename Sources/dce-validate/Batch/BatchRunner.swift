import DCEBatchInput
import DCECommandLine
import DCEEngine
import DCEReports
import DCEWorkers
import Foundation

/// Validates payloads on every core and hands the verdicts, in input order, to each report writer: memory holds a
/// few work items, however long the run.
struct BatchRunner {
    let prepared: PreparedSchema
    /// How many payloads are validated at once; 1 validates on the calling thread only.
    let jobs: Int
    /// The stored record each payload updates (`--original`), or `nil` to validate payloads on their own.
    var original: [UInt8]?
    /// Whether each payload is the whole new record (`--replace`) rather than a merge patch onto ``original``.
    var replacing = false
    /// Whether a failing payload's report carries its masked copy (`--attach-masked`).
    var attachMasked = false
    var schema: String { prepared.schema.id }

    /// The payloads of one work item: their part of each report and what the summary needs of them.
    struct Piece: Sendable {
        /// One batch per report target, in the order of the targets.
        var batches: [ReportBatch]
        var payloads = 0
        var invalid = 0
        var errors = 0
        var omittedErrors = 0
        /// Inputs that could not be read, for the diagnostics on standard error.
        var unreadable: [PayloadReadError] = []
        /// The item's first violations, as many as the summary may still need.
        var firstErrors = FirstErrors()

        init(rendering: Rendering) {
            batches = zip(rendering.formats, rendering.options).map { ReportBatch(format: $0, options: $1) }
        }

        mutating func add(_ payload: PayloadReport) {
            payloads += 1
            errors += payload.errors.count
            omittedErrors += payload.omittedErrors
            if !payload.valid { invalid += 1 }
            firstErrors.add(payload.errors[...], file: payload.name)
            for index in batches.indices { batches[index].add(payload) }
        }
    }

    /// What a worker needs to render payloads' parts of each report.
    struct Rendering: Sendable {
        var formats: [ReportFormat]
        var options: [ReportOptions]
        var schema: String
    }

    /// The first violations of a run, as many as a GitHub step summary lists, kept as their reports keep them: their
    /// text is written only if a step summary is (a run without one wrote the first 50 messages of every work item).
    struct FirstErrors: Sendable {
        /// How many violations the step summary lists.
        static let limit = 50
        /// The violations, by payload name.
        private(set) var lists: [(file: String, violations: Slice<ViolationList>)] = []
        /// How many violations ``lists`` holds.
        private(set) var count = 0

        /// Keeps as many of a payload's violations as there is room for.
        mutating func add(_ violations: Slice<ViolationList>, file: @autoclosure () -> String) {
            guard count < Self.limit, !violations.isEmpty else { return }
            let kept = violations.prefix(Self.limit - count)
            lists.append((file(), kept))
            count += kept.count
        }

        /// Keeps as many of another's violations as there is room for.
        mutating func add(_ other: FirstErrors) {
            for (file, violations) in other.lists { add(violations, file: file) }
        }
    }

    struct Summary {
        var payloads = 0
        var invalid = 0
        var errors = 0
        var omittedErrors = 0
        var unreadable = 0
        /// The first violations, for a GitHub step summary.
        var firstErrors = FirstErrors()
        /// Why a report could not be written, when one could not: the run stopped there.
        var writeFailure: String?
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

        func emit(_ piece: Piece) {
            for error in piece.unreadable { Diagnostics.error("\(error)") }
            summary.unreadable += piece.unreadable.count
            summary.payloads += piece.payloads
            summary.errors += piece.errors
            summary.omittedErrors += piece.omittedErrors
            summary.invalid += piece.invalid
            summary.firstErrors.add(piece.firstErrors)
            for index in writers.indices { writers[index].add(piece.batches[index]) }
            progress.update(payloads: summary.payloads, invalid: summary.invalid)
        }
        func writeFailure() -> String? { targets.lazy.compactMap(\.failure).first }

        var items = inputs.makeIterator()
        if jobs == 1 {
            // Before waiting for a slow writer, what is done so far is written out.
            while writeFailure() == nil, let item = items.next(whenWaiting: { targets.forEach { $0.flush() } }) {
                emit(piece(for: item, rendering: rendering))
            }
        } else {
            // Workers take items as they come and the outcomes are written in input order as soon as each is
            // ready: no pause between chunks, and reading and writing overlap validation.
            let pipeline = Pipeline(workers: jobs, window: jobs * 16) { self.piece(for: $0, rendering: rendering) }
            let drain = {
                while let ready = pipeline.nextOutcome(waiting: true) { emit(ready) }
                targets.forEach { $0.flush() }
            }
            while writeFailure() == nil, let item = items.next(whenWaiting: drain) {
                while let ready = pipeline.submit(item) { emit(ready) }
                while let ready = pipeline.nextOutcome(waiting: false) { emit(ready) }
            }
            while let ready = pipeline.nextOutcome(waiting: true) { emit(ready) }
        }
        progress.finish()
        for index in writers.indices { writers[index].finish() }
        // Every report is complete before any replaces its previous version; after a write error, none does.
        for target in targets { target.finishWriting() }
        if writeFailure() == nil { for target in targets { target.install() } }
        summary.writeFailure = writeFailure()
        if summary.writeFailure != nil { for target in targets { target.discard() } }
        return summary
    }

    /// Validates and renders the payloads of one item: one for a file or a record, every non-blank line for a
    /// block, a failed entry for an input that could not be read.
    private func piece(for item: WorkItem, rendering: Rendering) -> Piece {
        var piece = Piece(rendering: rendering)
        switch item {
        case .unreadable(let error):
            piece.addUnreadable(error, prepared: prepared)
        case .file(let path):
            do {
                piece.add(report(file: path, line: nil, bytes: try PayloadFile.read(path)))
            } catch {
                piece.addUnreadable(error, prepared: prepared)
            }
        case .record(let file, let line, let bytes):
            piece.add(report(file: file, line: line, bytes: bytes))
        case .block(let file, let firstLine, let bytes):
            NDJSONReader.forEachRecord(in: bytes, firstLine: firstLine) { line, record in
                piece.add(report(file: file, line: line, bytes: Array(record)))
            }
        }
        return piece
    }

    /// A payload's verdict, with its masked copy when it fails and one is asked for (none for a payload that is not
    /// well-formed JSON: nothing in it can be told apart).
    private func report(file: String, line: Int?, bytes: [UInt8]) -> PayloadReport {
        let verdict =
            original.map { prepared.validate(json: bytes, original: $0, replacing: replacing) }
            ?? prepared.validate(json: bytes)
        var report = PayloadReport(file: file, line: line, report: verdict)
        if attachMasked, !verdict.valid, let copy = try? prepared.masked(json: bytes) {
            report.masked = String(decoding: copy, as: UTF8.self)
        }
        return report
    }
}

extension BatchRunner.Piece {
    /// An input that could not be read: a diagnostic, and a failed entry with rule `unreadable` in every report.
    mutating func addUnreadable(_ error: PayloadReadError, prepared: PreparedSchema) {
        unreadable.append(error)
        add(PayloadReport(file: error.path, line: error.line, report: prepared.unreadableReport(reason: error.reason)))
    }
}

/// Work items handed to a ``WorkerPool``, with their outcomes given back in the order the items came in.
///
/// At most `window` items are in flight (queued, being validated, or done and not yet taken), so memory holds a
/// few blocks of payloads however long the run. The pool's threads validate; the submitting thread waits here, on
/// `condition`, for room or for the next outcome in order.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only while `condition` is
/// locked.
private final class Pipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private let work: @Sendable (WorkItem) -> BatchRunner.Piece
    private let pool: WorkerPool
    /// Item `n`'s outcome lives in slot `n % window`.
    private var outcomes: [BatchRunner.Piece?]
    private var submitted = 0
    private var taken = 0

    init(workers: Int, window: Int, work: @escaping @Sendable (WorkItem) -> BatchRunner.Piece) {
        self.window = window
        self.work = work
        outcomes = Array(repeating: nil, count: window)
        pool = WorkerPool(name: "dce-validate batch", threads: workers) {
            TemporaryFiles.blockSignalsInThisThread()
        }
    }

    /// Queues an item. When the window is full, first waits for the oldest outcome and returns it (the item is
    /// queued then); call again with the same item until it returns `nil`.
    func submit(_ item: WorkItem) -> BatchRunner.Piece? {
        let sequence: Int? = condition.withLock {
            guard submitted - taken < window else { return nil }
            submitted += 1
            return submitted - 1
        }
        guard let sequence else { return nextOutcome(waiting: true) }
        // The pool's queue has no bound: the window bounds what is in it.
        _ = pool.submit { [self] in finish(sequence, work(item)) }
        return nil
    }

    /// The next outcome in input order: waits for it when `waiting`, else `nil` when it is not ready yet; `nil`
    /// when every submitted item's outcome has been taken.
    func nextOutcome(waiting: Bool) -> BatchRunner.Piece? {
        condition.lock()
        defer { condition.unlock() }
        while taken < submitted {
            if let outcome = outcomes[taken % window] {
                outcomes[taken % window] = nil
                taken += 1
                return outcome
            }
            guard waiting else { return nil }
            condition.wait()
        }
        return nil
    }

    private func finish(_ sequence: Int, _ outcome: BatchRunner.Piece) {
        condition.withLock {
            outcomes[sequence % window] = outcome
            condition.broadcast()
        }
    }
}
