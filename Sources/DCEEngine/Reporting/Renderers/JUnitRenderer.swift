/// Renders JUnit XML valid against the strict JUnit XSD (windyroad/JUnit-Schema).
///
/// That XSD allows one `failure` per `testcase`, so each payload is a `testsuite` named after its file: a valid
/// payload holds one passing `testcase` named `valid`; an invalid one holds one failing `testcase` per violation,
/// named by its JSON Pointer and rule, which also keeps names unique for GitLab (it keeps only the first of
/// duplicate names).
struct JUnitRenderer {
    func testsuite(for payload: PayloadReport, id: Int, schema: String, options: ReportOptions) -> String {
        let name = Self.escape(payload.name)
        let tests = max(payload.errors.count, 1)
        var output =
            "  <testsuite name=\"\(name)\" tests=\"\(tests)\" failures=\"\(payload.errors.count)\" errors=\"0\" "
        output +=
            "time=\"0\" timestamp=\"\(options.timestamp)\" hostname=\"localhost\" id=\"\(id)\" package=\"dce-validate.\(Self.escape(schema))\">\n"
        let catalogue =
            options.catalogueVersion.map { "<property name=\"catalogue\" value=\"\(Self.escape($0))\"/>" } ?? ""
        output +=
            "    <properties><property name=\"schema\" value=\"\(Self.escape(schema))\"/>\(catalogue)</properties>\n"
        if payload.errors.isEmpty {
            output += "    <testcase name=\"valid\" classname=\"\(name)\" time=\"0\"/>\n"
        }
        for error in payload.errors {
            let pointer = error.path.isEmpty ? "(document)" : error.path
            let location = [payload.file, error.line.map(String.init), error.column.map(String.init)].compactMap { $0 }
                .joined(separator: ":")
            output +=
                "    <testcase name=\"\(Self.escape("\(pointer) \(error.rule)"))\" classname=\"\(name)\" time=\"0\">"
            output += "<failure message=\"\(Self.escape(error.message))\" type=\"\(Self.escape(error.rule.rawValue))\">"
            output += Self.escape(
                "\(location): \(error.path.isEmpty ? "" : "\(error.path): ")\(error.message) [\(error.rule)]")
            output += "</failure></testcase>\n"
        }
        // Violations past the limit have no test case of their own; the suite's output says how many there were,
        // then the payload's masked copy when one is attached.
        var notes: [String] = []
        if payload.omittedErrors > 0 { notes.append(options.omissionNote(payload.omittedErrors)) }
        if let masked = payload.masked { notes.append("masked payload:\n" + masked) }
        output +=
            "    <system-out>\(Self.escape(notes.joined(separator: "\n")))</system-out>\n    <system-err></system-err>\n  </testsuite>\n"
        return output
    }

    /// Escapes text for XML attributes and content; characters XML 1.0 cannot carry become U+FFFD.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case "\t": output += "&#9;"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
