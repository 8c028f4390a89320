import DCEEngine

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
        var output = ByteBuilder(capacity: 512)
        output.append(
            "  <testsuite name=\"\(name)\" tests=\"\(tests)\" failures=\"\(payload.errors.count)\" errors=\"0\" "
                + "time=\"0\" timestamp=\"\(options.timestamp)\" hostname=\"localhost\" id=\"\(id)\" "
                + "package=\"dce-validate.\(Self.escape(schema))\">\n")
        let catalogue =
            options.catalogueVersion.map { "<property name=\"catalogue\" value=\"\(Self.escape($0))\"/>" } ?? ""
        output.append(
            "    <properties><property name=\"schema\" value=\"\(Self.escape(schema))\"/>\(catalogue)</properties>\n")
        if payload.errors.isEmpty {
            output.append("    <testcase name=\"valid\" classname=\"\(name)\" time=\"0\"/>\n")
        } else {
            appendTestCases(of: payload, classname: name, to: &output)
        }
        // Violations past the limit have no test case of their own; the suite's output says how many there were,
        // then the payload's masked copy when one is attached.
        var notes: [String] = []
        if payload.omittedErrors > 0 { notes.append(options.omissionNote(payload.omittedErrors)) }
        if let masked = payload.masked { notes.append("masked payload:\n" + masked) }
        output.append(
            "    <system-out>\(Self.escape(notes.joined(separator: "\n")))</system-out>\n    <system-err></system-err>\n  </testsuite>\n"
        )
        return output.string
    }

    /// One failing test case per violation, named by its JSON Pointer and rule, written into the report's bytes.
    private func appendTestCases(of payload: PayloadReport, classname: String, to output: inout ByteBuilder) {
        // The failure's location: the file, then the violation's line and column when it has them.
        let file = Self.escape(payload.file)
        payload.errors.forEachReported { error in
            let rule = error.rule.rawValue
            output.append("    <testcase name=\"")
            if error.isAtRoot { output.append("(document)") } else { error.appendPath(to: &output, escaping: .xml) }
            output.append(" ")
            output.append(rule, escaping: .xml)
            output.append("\" classname=\"")
            output.append(classname)
            output.append("\" time=\"0\"><failure message=\"")
            error.appendMessage(to: &output, escaping: .xml)
            output.append("\" type=\"")
            output.append(rule, escaping: .xml)
            output.append("\">")
            output.append(file)
            error.appendLineAndColumn(to: &output, columnAlone: true)
            output.append(": ")
            error.appendPathAndMessage(to: &output, escaping: .xml)
            output.append(" [")
            output.append(rule, escaping: .xml)
            output.append("]</failure></testcase>\n")
        }
    }

    /// Escapes text for XML attributes and content; characters XML 1.0 cannot carry become U+FFFD.
    static func escape(_ text: String) -> String { ByteBuilder.escaped(text, .xml) }
}
