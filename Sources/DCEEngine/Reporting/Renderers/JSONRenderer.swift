/// Renders the JSON document of the `dce-validate --format json` contract, one payload at a time.
struct JSONRenderer {
    func payload(_ payload: PayloadReport) -> String {
        var output = "{\"file\":\(SchemaValue.quote(payload.file)),"
        if let line = payload.line { output += "\"line\":\(line)," }
        output += "\"valid\":\(payload.valid),\"errors\":["
        for (index, error) in payload.errors.enumerated() {
            if index > 0 { output += "," }
            output += "{\"path\":\(SchemaValue.quote(error.path)),\"key\":\(SchemaValue.quote(error.key))"
            output += ",\"rule\":\(SchemaValue.quote(error.rule.rawValue)),\"message\":\(SchemaValue.quote(error.message))"
            if let line = error.line, let column = error.column { output += ",\"line\":\(line),\"column\":\(column)" }
            output += "}"
        }
        return output + "]}"
    }
}
