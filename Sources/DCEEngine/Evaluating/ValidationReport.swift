/// The verdict on one request: valid, or every violation found (up to the prepared schema's limit). An app reads it;
/// only the engine sets its fields, so that `valid` always agrees with `errors` and `omittedErrors`.
public struct ValidationReport: Hashable, Sendable, Codable {
    /// The schema the request was checked against.
    public internal(set) var schema: String
    /// That schema's version.
    public internal(set) var schemaVersion: String
    /// Whether the request has no violations.
    public internal(set) var valid: Bool
    /// Every violation, sorted by path and then rule; at most ``PreparedSchema/maxErrors`` of them. Kept as data
    /// when validation found them: each violation's text is written when it is read (see ``ViolationList``).
    public internal(set) var errors: ViolationList
    /// The context values in force: those supplied and those derived from the request.
    public internal(set) var context: [String: String]
    /// The tender type the request was checked for, if any.
    public internal(set) var tenderType: String?
    /// For an update checked against its original: the JSON Pointers of changed fields that require reverification.
    public internal(set) var reverificationRequired: [String] = []
    /// Violations found beyond the limit and not kept (0 when every violation is in `errors`).
    public internal(set) var omittedErrors = 0

    /// Whether the limit was reached.
    public var truncated: Bool { omittedErrors > 0 }

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - schema: The schema id.
    ///   - schemaVersion: The schema's version.
    ///   - errors: The violations.
    ///   - context: The context in force.
    ///   - tenderType: The tender type.
    ///   - omittedErrors: How many more violations were found and not kept.
    public init(
        schema: String, schemaVersion: String, errors: [Violation], context: [String: String], tenderType: String?,
        omittedErrors: Int = 0
    ) {
        self.init(
            schema: schema, schemaVersion: schemaVersion,
            sorted: ViolationList(errors.sorted { ($0.path, $0.rule) < ($1.path, $1.rule) }), context: context,
            tenderType: tenderType, omittedErrors: omittedErrors)
    }

    /// Creates a report of violations already in report order.
    init(
        schema: String, schemaVersion: String, sorted errors: ViolationList, context: [String: String],
        tenderType: String?, omittedErrors: Int
    ) {
        self.schema = schema
        self.schemaVersion = schemaVersion
        self.valid = errors.isEmpty && omittedErrors == 0
        self.errors = errors
        self.context = context
        self.tenderType = tenderType
        self.omittedErrors = omittedErrors
    }

    /// Decodes a report; `reverificationRequired` and `omittedErrors` may be missing (reports of earlier
    /// releases), and then are empty and 0.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When a member is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decode(String.self, forKey: .schema)
        schemaVersion = try container.decode(String.self, forKey: .schemaVersion)
        valid = try container.decode(Bool.self, forKey: .valid)
        errors = try container.decode(ViolationList.self, forKey: .errors)
        context = try container.decode([String: String].self, forKey: .context)
        tenderType = try container.decodeIfPresent(String.self, forKey: .tenderType)
        reverificationRequired = try container.decodeIfPresent([String].self, forKey: .reverificationRequired) ?? []
        omittedErrors = try container.decodeIfPresent(Int.self, forKey: .omittedErrors) ?? 0
    }
}
