import DCEEngine

/// A payload replayed against both versions (``SchemaComparison/replay(_:)``).
package struct ReplayPayload: Sendable {
    /// Where it comes from: its file.
    package var file: String
    /// Its line, for a line of an NDJSON file.
    package var line: Int?
    package var schema: String
    package var context: [String: String]
    package var tenderType: String?
    package var bytes: [UInt8]

    package init(
        file: String, line: Int? = nil, schema: String, context: [String: String] = [:], tenderType: String? = nil,
        bytes: [UInt8]
    ) {
        self.file = file
        self.line = line
        self.schema = schema
        self.context = context
        self.tenderType = tenderType
        self.bytes = bytes
    }
}

/// What replaying payloads found: how many were checked, and those whose verdict the change turns.
package struct ReplayResult: Sendable {
    /// A payload whose verdict changed, with the violations of the side that refuses it (rule and pointer, never a
    /// value).
    package struct Turned: Sendable, Hashable {
        package var file: String
        package var line: Int?
        package var schema: String
        package var violations: [(rule: String, path: String)]

        package static func == (lhs: Turned, rhs: Turned) -> Bool {
            lhs.file == rhs.file && lhs.line == rhs.line && lhs.schema == rhs.schema
                && lhs.violations.map(\.rule) == rhs.violations.map(\.rule)
                && lhs.violations.map(\.path) == rhs.violations.map(\.path)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(file)
            hasher.combine(line)
        }
    }

    package var checked = 0
    /// Valid under the old schemas, refused by the new ones (the new side's violations).
    package var newlyInvalid: [Turned] = []
    /// Refused by the old schemas, valid under the new ones (the old side's violations).
    package var newlyValid: [Turned] = []
}

extension SchemaComparison {
    /// Validates each payload against both versions, under its context and tender type. A payload whose schema or
    /// scope one side cannot take counts as refused by that side, with the reason's code as its rule.
    package func replay(_ payloads: [ReplayPayload]) -> ReplayResult {
        var result = ReplayResult()
        for payload in payloads {
            result.checked += 1
            let before = verdict(of: payload, by: old)
            let after = verdict(of: payload, by: new)
            switch (before.valid, after.valid) {
            case (true, false):
                result.newlyInvalid.append(
                    ReplayResult.Turned(
                        file: payload.file, line: payload.line, schema: payload.schema, violations: after.violations))
            case (false, true):
                result.newlyValid.append(
                    ReplayResult.Turned(
                        file: payload.file, line: payload.line, schema: payload.schema, violations: before.violations))
            default:
                break
            }
        }
        return result
    }

    private func verdict(of payload: ReplayPayload, by validator: Validator) -> (
        valid: Bool, violations: [(rule: String, path: String)]
    ) {
        do {
            let report = try validator.prepare(payload.schema, context: payload.context, tenderType: payload.tenderType)
                .validate(json: payload.bytes)
            return (report.valid, report.errors.map { ($0.rule.rawValue, $0.path) })
        } catch {
            return (false, [(error.code.rawValue, "")])
        }
    }
}
