/// Writes a report one payload at a time, so that a run of any size needs memory for one payload only.
///
/// ```swift
/// var writer = ReportWriter(format: .junit, schema: "card-create") { chunk in handle.write(Data(chunk.utf8)) }
/// for payload in payloads { writer.add(payload) }
/// writer.finish()
/// ```
public struct ReportWriter {
    private let format: ReportFormat
    private let schema: String
    private let options: ReportOptions
    private let emit: (String) -> Void
    private var payloadCount = 0
    private var invalidCount = 0
    private var errorCount = 0
    private var started = false

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - format: The report format.
    ///   - schema: The schema id the payloads were checked against.
    ///   - options: Rendering options.
    ///   - emit: Receives the report text in order, chunk by chunk.
    public init(format: ReportFormat, schema: String, options: ReportOptions = ReportOptions(), emit: @escaping (String) -> Void) {
        self.format = format
        self.schema = schema
        self.options = options
        self.emit = emit
    }

    /// Whether every payload added so far is valid.
    public var valid: Bool { invalidCount == 0 }

    /// Adds one payload's verdict to the report.
    ///
    /// - Parameter payload: The payload report.
    public mutating func add(_ payload: PayloadReport) {
        if !started { begin() }
        switch format {
        case .text: emit(TextRenderer(color: options.color).lines(for: payload))
        case .json: emit((payloadCount > 0 ? "," : "") + JSONRenderer().payload(payload))
        case .junit: emit(JUnitRenderer().testsuite(for: payload, id: payloadCount, schema: schema, options: options))
        case .sarif:
            for error in payload.errors {
                emit((errorCount > 0 ? "," : "") + SARIFRenderer().result(for: error, in: payload))
                errorCount += 1
            }
        case .github: emit(GitHubRenderer().commands(for: payload))
        }
        payloadCount += 1
        if !payload.valid { invalidCount += 1 }
        if format != .sarif { errorCount += payload.errors.count }
    }

    /// Closes the report (the summary line, or the closing brackets and tags).
    public mutating func finish() {
        if !started { begin() }
        switch format {
        case .text:
            emit(TextRenderer(color: options.color).summary(schema: schema, payloads: payloadCount, invalid: invalidCount, errors: errorCount))
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
        case .json: emit("{\"schema\":\(SchemaValue.quote(schema)),\"payloads\":[")
        case .junit: emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
        case .sarif: emit(SARIFRenderer().header(version: options.toolVersion))
        }
    }
}
