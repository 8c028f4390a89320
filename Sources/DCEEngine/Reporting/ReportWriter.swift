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
    /// Whether a JSON payload or SARIF result was written, so the next one needs a comma.
    private var emittedFragment = false

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
        add(payload, fragment: Self.fragment(for: payload, format: format, options: options))
    }

    /// Adds a payload whose part of the report was rendered beforehand, perhaps on another thread, by
    /// ``fragment(for:format:options:)``; only the separators and counts are done here, in order.
    ///
    /// - Parameters:
    ///   - payload: The payload report.
    ///   - fragment: Its rendered part of the report; `nil` for JUnit, whose ids follow the order of the run.
    public mutating func add(_ payload: PayloadReport, fragment: String?) {
        if !started { begin() }
        let fragment = fragment ?? JUnitRenderer().testsuite(for: payload, id: payloadCount, schema: schema, options: options)
        switch format {
        case .json, .sarif:
            if !fragment.isEmpty {
                if emittedFragment { emit(",") }
                emit(fragment)
                emittedFragment = true
            }
        case .text, .junit, .github:
            if !fragment.isEmpty { emit(fragment) }
        }
        payloadCount += 1
        if !payload.valid { invalidCount += 1 }
        errorCount += payload.errors.count
    }

    /// One payload's part of a report, independent of the other payloads, so that it can be rendered on any thread.
    ///
    /// - Parameters:
    ///   - payload: The payload report.
    ///   - format: The report format.
    ///   - options: Rendering options.
    /// - Returns: The text to pass to ``add(_:fragment:)``; `nil` for JUnit, which numbers its test suites in order.
    public static func fragment(for payload: PayloadReport, format: ReportFormat, options: ReportOptions) -> String? {
        switch format {
        case .text: TextRenderer(color: options.color).lines(for: payload)
        case .json: JSONRenderer().payload(payload)
        case .junit: nil
        case .sarif: payload.errors.map { SARIFRenderer().result(for: $0, in: payload) }.joined(separator: ",")
        case .github: GitHubRenderer().commands(for: payload)
        }
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
