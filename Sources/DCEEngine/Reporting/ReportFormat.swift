/// The formats a run can be reported in.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// One line per violation (`file:line:column: error: path: message [rule]`), then a summary line.
    case text
    /// One JSON document: `{"schema", "payloads": [{"file", "line"?, "valid", "errors": [...]}], "valid"}`.
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
    public func render(_ run: ValidationRun, options: ReportOptions = ReportOptions()) -> String {
        var output = ""
        var writer = ReportWriter(format: self, schema: run.schema, options: options) { output += $0 }
        for payload in run.payloads { writer.add(payload) }
        writer.finish()
        return output
    }
}

/// How a report is rendered.
public struct ReportOptions: Sendable {
    /// Whether the text format uses ANSI colour (only for a terminal).
    public var color: Bool
    /// When the run started, for JUnit's `timestamp` (UTC, `YYYY-MM-DDThh:mm:ss`).
    public var timestamp: String
    /// The tool's version, for SARIF's driver.
    public var toolVersion: String

    /// Creates options.
    ///
    /// - Parameters:
    ///   - color: Whether to use ANSI colour in text.
    ///   - timestamp: The run's start, as JUnit wants it.
    ///   - toolVersion: The tool's version.
    public init(color: Bool = false, timestamp: String = "1970-01-01T00:00:00", toolVersion: String = DCEVersion.current) {
        self.color = color
        self.timestamp = timestamp
        self.toolVersion = toolVersion
    }
}

/// The package's version.
public enum DCEVersion {
    /// The version reports and `--version` print.
    public static let current = "0.1.0"
}
