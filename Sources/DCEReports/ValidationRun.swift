package import DCEEngine

/// The verdict on one payload of a run: where it came from and its report.
package struct PayloadReport: Hashable, Sendable, Codable {
    /// The payload's file path as given (`-` for standard input).
    package var file: String
    /// For a payload read from an NDJSON stream, its 1-based line in the file; `nil` for a whole file.
    package var line: Int?
    /// Whether the payload is valid.
    package var valid: Bool
    /// The payload's violations.
    package var errors: ViolationList
    /// Changed fields that require reverification (updates checked against an original).
    package var reverificationRequired: [String] = []
    /// Violations found beyond the prepared schema's limit and not kept (see ``ValidationReport/omittedErrors``).
    package var omittedErrors = 0
    /// The payload's masked copy (``PreparedSchema/masked(json:limits:)``), attached to a failing case when asked
    /// for; never the payload itself.
    package var masked: String?

    /// Creates a payload report.
    ///
    /// - Parameters:
    ///   - file: The payload's path.
    ///   - line: The payload's line in an NDJSON file; the violations' lines are moved onto it.
    ///   - report: The validation report.
    package init(file: String, line: Int? = nil, report: ValidationReport) {
        self.file = file
        self.line = line
        self.valid = report.valid
        // A record's positions are relative to the record, which is one line of the file.
        self.errors = line.map { report.errors.placed(onLine: $0) } ?? report.errors
        self.reverificationRequired = report.reverificationRequired
        self.omittedErrors = report.omittedErrors
    }

    /// Decodes a payload report; `reverificationRequired` and `omittedErrors` may be missing (reports of earlier
    /// releases), and then are empty and 0.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When a member is missing or has the wrong type.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        line = try container.decodeIfPresent(Int.self, forKey: .line)
        valid = try container.decode(Bool.self, forKey: .valid)
        errors = try container.decode(ViolationList.self, forKey: .errors)
        reverificationRequired = try container.decodeIfPresent([String].self, forKey: .reverificationRequired) ?? []
        omittedErrors = try container.decodeIfPresent(Int.self, forKey: .omittedErrors) ?? 0
        masked = try container.decodeIfPresent(String.self, forKey: .masked)
    }

    /// `file` or `file:line` for NDJSON records: how reports name the payload.
    package var name: String { line.map { "\(file):\($0)" } ?? file }
}

/// Several payloads checked against one schema: what `dce-validate` reports.
package struct ValidationRun: Hashable, Sendable, Codable {
    /// The schema id.
    package var schema: String
    /// Whether every payload is valid.
    package var valid: Bool
    /// One entry per payload, in the order given.
    package var payloads: [PayloadReport]

    /// Creates a run.
    ///
    /// - Parameters:
    ///   - schema: The schema id.
    ///   - payloads: The payload reports.
    package init(schema: String, payloads: [PayloadReport]) {
        self.schema = schema
        self.payloads = payloads
        self.valid = payloads.allSatisfy(\.valid)
    }

    /// The number of violations across all payloads.
    package var errorCount: Int { payloads.reduce(0) { $0 + $1.errors.count } }
}
