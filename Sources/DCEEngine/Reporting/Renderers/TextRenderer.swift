/// Renders compiler-style lines that editors and terminals can jump to, in colour only for a terminal.
struct TextRenderer {
    var color = false

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func lines(for payload: PayloadReport) -> String {
        var output = ""
        for error in payload.errors {
            let location = [payload.file, error.line.map(String.init), error.column.map(String.init)]
                .compactMap { $0 }.joined(separator: ":")
            let path = error.path.isEmpty ? "" : "\(error.path): "
            output += "\(paint(location, "1")): \(paint("error", "1;31")): \(path)\(error.message) \(paint("[\(error.rule)]", "2"))\n"
        }
        return output
    }

    func summary(schema: String, payloads: Int, invalid: Int, errors: Int) -> String {
        let verdict = invalid == 0 ? paint("valid", "1;32") : paint("invalid", "1;31")
        return "\(verdict): \(payloads) payload\(payloads == 1 ? "" : "s") checked against \(schema), "
            + "\(payloads - invalid) valid, \(invalid) invalid, \(errors) error\(errors == 1 ? "" : "s")\n"
    }

    func render(_ run: ValidationRun) -> String {
        run.payloads.map(lines(for:)).joined()
            + summary(schema: run.schema, payloads: run.payloads.count, invalid: run.payloads.filter { !$0.valid }.count, errors: run.errorCount)
    }
}
