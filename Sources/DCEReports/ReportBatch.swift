import DCEEngine

/// Several payloads' parts of one report, rendered together on any thread and handed to a ``ReportWriter`` in one
/// step, so that a run on many cores does only the ordering on the writer's thread.
///
/// ```swift
/// var batch = ReportBatch(format: .json)
/// for payload in payloads { batch.add(payload) }  // on a worker
/// writer.add(batch)                               // in input order, on the writer's thread
/// ```
package struct ReportBatch: Sendable {
    /// The format the payloads are rendered in.
    package let format: ReportFormat
    private let options: ReportOptions
    /// The rendered parts, separated as the format requires.
    private var text = ByteBuilder(capacity: 0)
    /// Whether `text` holds at least one JSON payload or SARIF result (the writer puts a comma before the batch).
    private(set) var hasFragment = false
    /// JUnit numbers its test suites in the order of the whole run, so its payloads are rendered by the writer.
    private(set) var ordered: [PayloadReport] = []
    /// How many payloads the batch holds.
    package private(set) var payloads = 0
    /// How many of them are invalid.
    package private(set) var invalid = 0
    /// How many violations they have in all.
    package private(set) var errors = 0
    /// How many more violations they had past the limit, left out.
    package private(set) var omittedErrors = 0

    /// Creates an empty batch.
    ///
    /// - Parameters:
    ///   - format: The report format.
    ///   - options: Rendering options: those of the writer the batch is added to.
    package init(format: ReportFormat, options: ReportOptions = ReportOptions()) {
        self.format = format
        self.options = options
    }

    /// Renders one payload's part of the report at the end of the batch.
    ///
    /// - Parameter payload: The payload report.
    package mutating func add(_ payload: PayloadReport) {
        payloads += 1
        if !payload.valid { invalid += 1 }
        errors += payload.errors.count
        omittedErrors += payload.omittedErrors
        switch format {
        case .json:
            if hasFragment { text.append(",") }
            JSONRenderer().append(payload, to: &text)
            hasFragment = true
        case .sarif:
            let renderer = SARIFRenderer()
            var first = true
            if !payload.errors.isEmpty {
                let uri = renderer.uriLiteral(payload)
                payload.errors.forEachReported { error in
                    if hasFragment { text.append(",") }
                    renderer.appendResult(for: error, in: payload, uri: uri, first: first, to: &text)
                    first = false
                    hasFragment = true
                }
            }
            if payload.omittedErrors > 0 {
                if hasFragment { text.append(",") }
                text.append(SARIFRenderer().omissionResult(for: payload, options: options))
                hasFragment = true
            }
        case .text:
            text.append(TextRenderer(color: options.color).lines(for: payload, options: options))
        case .github:
            GitHubRenderer().append(payload, options: options, to: &text)
        case .junit:
            ordered.append(payload)
        }
    }

    /// The rendered text; empty for JUnit.
    var rendered: String { text.string }
}
