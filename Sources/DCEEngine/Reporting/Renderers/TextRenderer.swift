/// Renders a run as compiler-style lines that editors and terminals can jump to.
struct TextRenderer {
    func render(_ run: ValidationRun) -> String {
        var output = ""
        for payload in run.payloads {
            for error in payload.errors {
                let location = [payload.file, error.line.map(String.init), error.column.map(String.init)]
                    .compactMap { $0 }.joined(separator: ":")
                let path = error.path.isEmpty ? "" : "\(error.path): "
                output += "\(location): error: \(path)\(error.message) [\(error.rule)]\n"
            }
        }
        let invalid = run.payloads.filter { !$0.valid }.count
        let count = run.payloads.count
        let errors = run.errorCount
        output += "\(run.valid ? "valid" : "invalid"): \(count) payload\(count == 1 ? "" : "s") checked against \(run.schema), "
        output += "\(count - invalid) valid, \(invalid) invalid, \(errors) error\(errors == 1 ? "" : "s")\n"
        return output
    }
}
