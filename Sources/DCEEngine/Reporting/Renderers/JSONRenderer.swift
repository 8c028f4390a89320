/// Renders a run as the JSON document of the `dce-validate --format json` contract, members in a fixed order.
struct JSONRenderer {
    func render(_ run: ValidationRun) -> String {
        var output = "{\"schema\":\(SchemaValue.quote(run.schema)),\"valid\":\(run.valid),\"payloads\":["
        for (offset, payload) in run.payloads.enumerated() {
            if offset > 0 { output += "," }
            output += "{\"file\":\(SchemaValue.quote(payload.file)),\"valid\":\(payload.valid),\"errors\":["
            for (index, error) in payload.errors.enumerated() {
                if index > 0 { output += "," }
                output += "{\"path\":\(SchemaValue.quote(error.path)),\"key\":\(SchemaValue.quote(error.key))"
                output += ",\"rule\":\(SchemaValue.quote(error.rule.rawValue)),\"message\":\(SchemaValue.quote(error.message))"
                if let line = error.line, let column = error.column { output += ",\"line\":\(line),\"column\":\(column)" }
                output += "}"
            }
            output += "]}"
        }
        return output + "]}\n"
    }
}
