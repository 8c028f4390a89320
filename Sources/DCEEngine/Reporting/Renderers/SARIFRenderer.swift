import Foundation

/// Renders SARIF 2.1.0 as GitHub code scanning reads it: the rule table first, then results streamed.
struct SARIFRenderer {
    func header(version: String) -> String {
        var rules: [String] = []
        for (code, summary) in ViolationCode.catalogue {
            rules.append(
                "{\"id\":\(q(code.rawValue)),\"name\":\(q(code.rawValue)),\"shortDescription\":{\"text\":\(q(summary))},"
                    + "\"defaultConfiguration\":{\"level\":\"error\"}}")
        }
        return "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
            + "\"tool\":{\"driver\":{\"name\":\"dce-validate\",\"version\":\(q(version)),"
            + "\"informationUri\":\"https://github.com/dce-validate/dce-validate\",\"rules\":[\(rules.joined(separator: ","))]}},"
            + "\"columnKind\":\"unicodeCodePoints\",\"results\":["
    }

    func result(for error: Violation, in payload: PayloadReport) -> String {
        let ruleIndex = ViolationCode.catalogue.firstIndex { $0.code == error.rule }
        var region = ""
        if let line = error.line {
            region = ",\"region\":{\"startLine\":\(line)\(error.column.map { ",\"startColumn\":\($0)" } ?? "")}"
        }
        let uri = payload.file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? payload.file
        var output = "{\"ruleId\":\(q(error.rule.rawValue)),"
        if let ruleIndex { output += "\"ruleIndex\":\(ruleIndex)," }
        output += "\"level\":\"error\",\"message\":{\"text\":\(q(error.message))},\"locations\":[{"
        output += "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(q(uri))}\(region)}"
        if !error.path.isEmpty {
            output += ",\"logicalLocations\":[{\"fullyQualifiedName\":\(q(error.path)),\"kind\":\"member\"}]"
        }
        return output + "}]}"
    }

    func footer() -> String { "]}]}\n" }

    private func q(_ text: String) -> String { SchemaValue.quote(text) }
}
