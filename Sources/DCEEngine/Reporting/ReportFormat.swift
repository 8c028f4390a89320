/// The formats a ``ValidationRun`` can be rendered in.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// One line per violation (`file:line:column: error: path: message [rule]`), then a summary line.
    case text
    /// One JSON document: `{"schema", "valid", "payloads": [{"file", "valid", "errors": [...]}]}`.
    case json

    /// Renders a run.
    ///
    /// - Parameter run: The run.
    /// - Returns: The report text, ending with a newline.
    public func render(_ run: ValidationRun) -> String {
        switch self {
        case .text: TextRenderer().render(run)
        case .json: JSONRenderer().render(run)
        }
    }
}
