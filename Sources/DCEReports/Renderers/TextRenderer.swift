import DCEEngine

/// Renders compiler-style lines that editors and terminals can jump to, in colour only for a terminal.
struct TextRenderer {
    var color = false

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func lines(for payload: PayloadReport, options: ReportOptions) -> String {
        guard !payload.errors.isEmpty || !payload.reverificationRequired.isEmpty || payload.omittedErrors > 0 else {
            return ""
        }
        var output = ByteBuilder(capacity: payload.errors.count * 160)
        payload.errors.forEachReported { error in
            if color { output.append("\u{1B}[1m") }
            output.append(payload.file)
            error.appendLineAndColumn(to: &output, columnAlone: false)
            output.append(color ? "\u{1B}[0m: \u{1B}[1;31merror\u{1B}[0m: " : ": error: ")
            error.appendPathAndMessage(to: &output, escaping: .none)
            if let fingerprint = error.fingerprint {
                output.append(" (")
                output.append(fingerprint)
                output.append(")")
            }
            output.append(color ? " \u{1B}[2m[" : " [")
            output.append(error.rule.rawValue)
            output.append(color ? "]\u{1B}[0m\n" : "]\n")
        }
        if payload.omittedErrors > 0 {
            output.append(payload.name)
            output.append(": note: ")
            output.append(options.omissionNote(payload.omittedErrors))
            output.append("\n")
        }
        for path in payload.reverificationRequired {
            output.append(payload.name)
            output.append(": note: ")
            output.append(options.messages.phrase("report.reverify", ["path": path]))
            output.append("\n")
        }
        return output.string
    }

    /// The last line, in the run's language: payloads, the schema (and the gateway's catalogue it came from),
    /// verdicts, and the errors listed, then those left out past the limit, if any.
    func summary(
        schema: String, catalogue: String? = nil, payloads: Int, invalid: Int, errors: Int, omitted: Int,
        messages: MessageCatalogue
    ) -> String {
        let verdict =
            invalid == 0
            ? paint(messages.phrase("summary.valid"), "1;32") : paint(messages.phrase("summary.invalid"), "1;31")
        let counts = messages.runCounts(
            schema: schema, catalogue: catalogue, payloads: payloads, invalid: invalid, errors: errors, omitted: omitted
        )
        return "\(verdict): \(counts)\n"
    }
}
