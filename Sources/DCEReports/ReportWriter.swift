import DCEEngine

/// Writes a report one payload at a time, so that a run of any size needs memory for one payload only.
///
/// ```swift
/// var writer = ReportWriter(format: .junit, schema: "card-create") { chunk in handle.write(Data(chunk.utf8)) }
/// for payload in payloads { writer.add(payload) }
/// writer.finish()
/// ```
package struct ReportWriter {
    private let format: ReportFormat
    private let schema: String
    private let options: ReportOptions
    private let emit: (String) -> Void
    private var payloadCount = 0
    private var invalidCount = 0
    private var errorCount = 0
    private var omittedCount = 0
    private var started = false
    /// Whether a JSON payload or SARIF result was written, so the next one needs a comma.
    private var emittedFragment = false

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - format: The report format.
    ///   - schema: The schema id the payloads were checked against.
    ///   - options: Rendering options.
    ///   - emit: Receives the report text in order, chunk by chunk.
    package init(
        format: ReportFormat, schema: String, options: ReportOptions = ReportOptions(), emit: @escaping (String) -> Void
    ) {
        self.format = format
        self.schema = schema
        self.options = options
        self.emit = emit
    }

    /// Whether every payload added so far is valid.
    package var valid: Bool { invalidCount == 0 }

    /// Adds one payload's verdict to the report.
    ///
    /// - Parameter payload: The payload report.
    package mutating func add(_ payload: PayloadReport) {
        var batch = ReportBatch(format: format, options: options)
        batch.add(payload)
        add(batch)
    }

    /// Adds payloads rendered beforehand, perhaps on another thread; only the separators, the JUnit test suites
    /// (numbered in the order of the run) and the counts are done here.
    ///
    /// - Parameter batch: Payloads rendered with this writer's format and options; a batch of another format traps.
    package mutating func add(_ batch: ReportBatch) {
        precondition(batch.format == format, "a \(batch.format) batch added to a \(format) report")
        if !started { begin() }
        switch format {
        case .json, .sarif:
            if batch.hasFragment {
                if emittedFragment { emit(",") }
                emit(batch.rendered)
                emittedFragment = true
            }
        case .text, .github:
            if batch.payloads > 0 {
                let text = batch.rendered
                if !text.isEmpty { emit(text) }
            }
        case .junit:
            for (offset, payload) in batch.ordered.enumerated() {
                emit(
                    JUnitRenderer().testsuite(for: payload, id: payloadCount + offset, schema: schema, options: options)
                )
            }
        }
        payloadCount += batch.payloads
        invalidCount += batch.invalid
        errorCount += batch.errors
        omittedCount += batch.omittedErrors
    }

    /// Closes the report (the summary line, or the closing brackets and tags).
    package mutating func finish() {
        if !started { begin() }
        switch format {
        case .text:
            emit(
                TextRenderer(color: options.color).summary(
                    schema: schema, catalogue: options.catalogueVersion, payloads: payloadCount, invalid: invalidCount,
                    errors: errorCount, omitted: omittedCount, messages: options.messages))
        case .json: emit("],\"valid\":\(valid)}\n")
        case .junit: emit("</testsuites>\n")
        case .sarif: emit(SARIFRenderer().footer())
        case .github: break
        }
    }

    private mutating func begin() {
        started = true
        switch format {
        case .text, .github: break
        case .json:
            let catalogue = options.catalogueVersion.map { ",\"catalogue\":\(SchemaValue.quote($0))" } ?? ""
            emit("{\"schema\":\(SchemaValue.quote(schema))\(catalogue),\"payloads\":[")
        case .junit: emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
        case .sarif: emit(SARIFRenderer().header(version: options.toolVersion, catalogue: options.catalogueVersion))
        }
    }
}
