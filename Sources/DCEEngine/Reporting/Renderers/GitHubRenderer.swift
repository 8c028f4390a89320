/// Renders GitHub Actions workflow commands, one `::error` per violation, escaped as the runner requires.
package struct GitHubRenderer {
    func commands(for payload: PayloadReport, options: ReportOptions) -> String {
        var output = ""
        for error in payload.errors {
            var properties = ["file=\(Self.property(payload.file))"]
            if let line = error.line { properties.append("line=\(line)") }
            if let column = error.column { properties.append("col=\(column)") }
            properties.append("title=\(Self.property("dce-validate \(error.rule)"))")
            let path = error.path.isEmpty ? "" : "\(error.path): "
            output += "::error \(properties.joined(separator: ","))::\(Self.data("\(path)\(error.message)"))\n"
        }
        if payload.omittedErrors > 0 {
            var properties = ["file=\(Self.property(payload.file))"]
            if let line = payload.line { properties.append("line=\(line)") }
            properties.append("title=dce-validate")
            output +=
                "::notice \(properties.joined(separator: ","))::\(Self.data(options.omissionNote(payload.omittedErrors)))\n"
        }
        return output
    }

    /// Escapes a command's message: `%`, CR and LF.
    package static func data(_ text: String) -> String {
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    /// Escapes a property value: as `data`, plus `:` and `,`.
    package static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        var output = ""
        for character in self { if character == target { output += replacement } else { output.append(character) } }
        return output
    }
}
