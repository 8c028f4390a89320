import DCEEngine

/// Renders the JSON document of the `dce-validate --format json` contract, one payload at a time.
struct JSONRenderer {
    func append(_ payload: PayloadReport, to output: inout ByteBuilder) {
        output.append("{\"file\":")
        output.appendJSONString(payload.file)
        if let line = payload.line {
            output.append(",\"line\":")
            output.append(line)
        }
        output.append(payload.valid ? ",\"valid\":true,\"errors\":[" : ",\"valid\":false,\"errors\":[")
        var first = true
        payload.errors.forEachReported { error in
            output.append(first ? "{\"path\":" : ",{\"path\":")
            first = false
            error.appendPath(to: &output, escaping: .jsonLiteral)
            output.append(",\"key\":")
            error.appendKey(to: &output, escaping: .jsonLiteral)
            output.append(",\"rule\":")
            output.appendJSONString(error.rule.rawValue)
            output.append(",\"message\":")
            error.appendMessage(to: &output, escaping: .jsonLiteral)
            if let line = error.line, let column = error.column {
                output.append(",\"line\":")
                output.append(line)
                output.append(",\"column\":")
                output.append(column)
            }
            if let fingerprint = error.fingerprint {
                output.append(",\"fingerprint\":")
                output.appendJSONString(fingerprint)
            }
            output.append("}")
        }
        output.append("]")
        if !payload.reverificationRequired.isEmpty {
            output.append(",\"reverificationRequired\":[")
            for (index, path) in payload.reverificationRequired.enumerated() {
                if index > 0 { output.append(",") }
                output.appendJSONString(path)
            }
            output.append("]")
        }
        if payload.omittedErrors > 0 {
            output.append(",\"omittedErrors\":")
            output.append(payload.omittedErrors)
        }
        output.append("}")
    }
}
