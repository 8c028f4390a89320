package import DCEEngine

/// The formats a run can be reported in.
package enum ReportFormat: String, Sendable, CaseIterable {
    /// One line per violation (`file:line:column: error: path: message [rule]`), then a summary line.
    case text
    /// One JSON document: `{"schema", "payloads": [{"file", "line"?, "valid", "errors": [...], "omittedErrors"?}], "valid"}`;
    /// `omittedErrors` appears on a payload only when violations were left out.
    case json
    /// JUnit XML valid against the strict JUnit XSD: one `testsuite` per payload, one `testcase` per violation.
    case junit
    /// SARIF 2.1.0: one rule per rule code, one result per violation with file, line, column and JSON Pointer.
    case sarif
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::…`, one per violation.
    case github

    /// Renders a whole run at once.
    ///
    /// - Parameters:
    ///   - run: The run.
    ///   - options: Rendering options.
    /// - Returns: The report text.
    package func render(_ run: ValidationRun, options: ReportOptions = ReportOptions()) -> String {
        var output = ""
        var writer = ReportWriter(format: self, schema: run.schema, options: options) { output += $0 }
        for payload in run.payloads { writer.add(payload) }
        writer.finish()
        return output
    }
}

/// How a report is rendered.
package struct ReportOptions: Sendable {
    /// Whether the text format uses ANSI colour (only for a terminal).
    package var color: Bool
    /// When the run started, for JUnit's `timestamp` (UTC, `YYYY-MM-DDThh:mm:ss`).
    package var timestamp: String
    /// The tool's version, for SARIF's driver.
    package var toolVersion: String
    /// The violation limit the run used (``PreparedSchema/maxErrors``), named where a report says how many
    /// violations of a payload it left out (`--max-errors 200`); `nil` names none.
    package var maxErrors: Int?
    /// The language of the words around messages (the summary line, the note on errors left out).
    package var messages: MessageCatalogue
    /// The version of the gateway's schema catalogue the payloads were checked against (`--catalogue`), named by
    /// every report; `nil` for schemas from a directory or the bundled ones.
    package var catalogueVersion: String?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - color: Whether to use ANSI colour in text.
    ///   - timestamp: The run's start, as JUnit wants it.
    ///   - toolVersion: The tool's version.
    ///   - maxErrors: The violation limit the run used, if it is to be named.
    ///   - messages: The catalogue of the run's language.
    ///   - catalogueVersion: The version of the gateway's catalogue the schemas came from, if they did.
    package init(
        color: Bool = false, timestamp: String = "1970-01-01T00:00:00", toolVersion: String = DCEVersion.current,
        maxErrors: Int? = nil,
        messages: MessageCatalogue = .english, catalogueVersion: String? = nil
    ) {
        self.messages = messages.adding(.reports)
        self.catalogueVersion = catalogueVersion
        self.color = color
        self.timestamp = timestamp
        self.toolVersion = toolVersion
        self.maxErrors = maxErrors
    }

    /// What every format says about a payload's violations past the limit: `7 more errors not shown (--max-errors 200)`.
    func omissionNote(_ omitted: Int) -> String {
        messages.phrase("report.omitted", count: omitted) + (maxErrors.map { " (--max-errors \($0))" } ?? "")
    }
}
