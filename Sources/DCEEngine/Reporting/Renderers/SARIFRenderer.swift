import Foundation

/// Renders SARIF 2.1.0 as GitHub code scanning reads it: the rule table first, then results streamed.
struct SARIFRenderer {
    /// The document up to its results: the tool with every rule, and (in the run's property bag) the version of
    /// the gateway's catalogue the schemas came from, if they did.
    func header(version: String, catalogue: String? = nil) -> String {
        var rules: [String] = []
        for (code, summary) in ViolationCode.catalogue {
            rules.append(
                "{\"id\":\(q(code.rawValue)),\"name\":\(q(code.rawValue)),\"shortDescription\":{\"text\":\(q(summary))},"
                    + "\"defaultConfiguration\":{\"level\":\"error\"}}")
        }
        rules.append(
            "{\"id\":\(q(Self.omittedRule)),\"name\":\(q(Self.omittedRule)),\"shortDescription\":{\"text\":"
                + "\"More violations than the report keeps: they are counted, not listed.\"},\"defaultConfiguration\":{\"level\":\"note\"}}"
        )
        return "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
            + "\"tool\":{\"driver\":{\"name\":\"dce-validate\",\"version\":\(q(version)),"
            + "\"informationUri\":\"https://github.com/dce-validate/dce-validate\",\"rules\":[\(rules.joined(separator: ","))]}},"
            + (catalogue.map { "\"properties\":{\"catalogue\":\(q($0))}," } ?? "")
            + "\"columnKind\":\"unicodeCodePoints\",\"results\":["
    }

    /// The rule of the note that says how many violations of a payload were left out; listed after the
    /// catalogue's codes.
    static let omittedRule = "omittedErrors"

    /// One violation; the payload's first carries its masked copy, when one is attached, as the property
    /// `maskedPayload` (streamed with the results, where run-level artifacts would have to wait for the end).
    func result(for error: Violation, in payload: PayloadReport, first: Bool = false) -> String {
        let ruleIndex = ViolationCode.catalogue.firstIndex { $0.code == error.rule }
        var region = ""
        if let line = error.line {
            region = ",\"region\":{\"startLine\":\(line)\(error.column.map { ",\"startColumn\":\($0)" } ?? "")}"
        }
        var output = "{\"ruleId\":\(q(error.rule.rawValue)),"
        if let ruleIndex { output += "\"ruleIndex\":\(ruleIndex)," }
        output += "\"level\":\"error\",\"message\":{\"text\":\(q(error.message))},\"locations\":[{"
        output += "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(q(uri(payload)))}\(region)}"
        if !error.path.isEmpty {
            output += ",\"logicalLocations\":[{\"fullyQualifiedName\":\(q(error.path)),\"kind\":\"member\"}]"
        }
        output += "}]"
        if first, let masked = payload.masked { output += ",\"properties\":{\"maskedPayload\":\(q(masked))}" }
        return output + "}"
    }

    /// A note-level result saying how many violations of a payload were left out past the limit.
    func omissionResult(for payload: PayloadReport, options: ReportOptions) -> String {
        let region = payload.line.map { ",\"region\":{\"startLine\":\($0)}" } ?? ""
        return "{\"ruleId\":\(q(Self.omittedRule)),\"ruleIndex\":\(ViolationCode.catalogue.count),\"level\":\"note\","
            + "\"message\":{\"text\":\(q(options.omissionNote(payload.omittedErrors)))},"
            + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(q(uri(payload)))}\(region)}}]}"
    }

    private func uri(_ payload: PayloadReport) -> String {
        payload.file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? payload.file
    }

    func footer() -> String { "]}]}\n" }

    private func q(_ text: String) -> String { SchemaValue.quote(text) }
}
