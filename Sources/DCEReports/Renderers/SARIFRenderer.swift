import DCEEngine
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

    /// One violation, written into the report's bytes; the payload's first carries its masked copy, when one is
    /// attached, as the property `maskedPayload` (streamed with the results, where run-level artifacts would have to
    /// wait for the end). `uri` is the payload's file as a JSON string literal, the same for all its results.
    func appendResult(
        for error: ReportedViolation, in payload: PayloadReport, uri: String, first: Bool, to output: inout ByteBuilder
    ) {
        output.append("{\"ruleId\":")
        output.appendJSONString(error.rule.rawValue)
        output.append(",")
        if let ruleIndex = ViolationCode.catalogue.firstIndex(where: { $0.code == error.rule }) {
            output.append("\"ruleIndex\":")
            output.append(ruleIndex)
            output.append(",")
        }
        output.append("\"level\":\"error\",\"message\":{\"text\":")
        error.appendMessage(to: &output, escaping: .jsonLiteral)
        output.append("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
        output.append(uri)
        output.append("}")
        if let line = error.line {
            output.append(",\"region\":{\"startLine\":")
            output.append(line)
            if let column = error.column {
                output.append(",\"startColumn\":")
                output.append(column)
            }
            output.append("}")
        }
        output.append("}")
        if !error.isAtRoot {
            output.append(",\"logicalLocations\":[{\"fullyQualifiedName\":")
            error.appendPath(to: &output, escaping: .jsonLiteral)
            output.append(",\"kind\":\"member\"}]")
        }
        output.append("}]")
        if first, let masked = payload.masked {
            output.append(",\"properties\":{\"maskedPayload\":")
            output.appendJSONString(masked)
            output.append("}")
        }
        output.append("}")
    }

    /// The payload's file as a SARIF artifact location, a JSON string literal.
    func uriLiteral(_ payload: PayloadReport) -> String { q(uri(payload)) }

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
