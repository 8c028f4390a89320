import DCEEngine

/// Renders GitHub Actions workflow commands, one `::error` per violation, escaped as the runner requires.
package struct GitHubRenderer {
    /// Appends one `::error` per violation of a payload, and a `::notice` for those left out past the limit.
    func append(_ payload: PayloadReport, options: ReportOptions, to output: inout ByteBuilder) {
        if !payload.errors.isEmpty {
            var file = ByteBuilder(capacity: payload.file.utf8.count + 8)
            file.append("file=")
            file.append(payload.file, escaping: .gitHubProperty)
            payload.errors.forEachReported { error in
                output.append("::error ")
                output.append(file.bytes)
                if let line = error.line {
                    output.append(",line=")
                    output.append(line)
                }
                if let column = error.column {
                    output.append(",col=")
                    output.append(column)
                }
                output.append(",title=dce-validate ")
                output.append(error.rule.rawValue, escaping: .gitHubProperty)
                output.append("::")
                error.appendPathAndMessage(to: &output, escaping: .gitHubData)
                output.append(UInt8(ascii: "\n"))
            }
        }
        if payload.omittedErrors > 0 {
            output.append("::notice file=")
            output.append(payload.file, escaping: .gitHubProperty)
            if let line = payload.line {
                output.append(",line=")
                output.append(line)
            }
            output.append(",title=dce-validate::")
            output.append(options.omissionNote(payload.omittedErrors), escaping: .gitHubData)
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// Escapes a command's message: `%`, CR and LF.
    package static func data(_ text: String) -> String { ByteBuilder.escaped(text, .gitHubData) }

    /// Escapes a property value: as `data`, plus `:` and `,`.
    package static func property(_ text: String) -> String { ByteBuilder.escaped(text, .gitHubProperty) }
}
