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
        payload.errors.appendJSON(to: &output)
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
