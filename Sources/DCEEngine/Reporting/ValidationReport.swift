/// The verdict on one request: valid, or every violation found.
public struct ValidationReport: Hashable, Sendable, Codable {
    /// The schema the request was checked against.
    public var schema: String
    /// That schema's version.
    public var schemaVersion: String
    /// Whether the request has no violations.
    public var valid: Bool
    /// Every violation, sorted by path and then rule.
    public var errors: [Violation]
    /// The context values in force: those supplied and those derived from the request.
    public var context: [String: String]
    /// The tender type the request was checked for, if any.
    public var tenderType: String?
    /// For an update checked against its original: the JSON Pointers of changed fields that require reverification.
    public var reverificationRequired: [String] = []

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - schema: The schema id.
    ///   - schemaVersion: The schema's version.
    ///   - errors: The violations.
    ///   - context: The context in force.
    ///   - tenderType: The tender type.
    public init(schema: String, schemaVersion: String, errors: [Violation], context: [String: String], tenderType: String?) {
        self.schema = schema
        self.schemaVersion = schemaVersion
        self.valid = errors.isEmpty
        self.errors = errors.sorted { ($0.path, $0.rule) < ($1.path, $1.rule) }
        self.context = context
        self.tenderType = tenderType
    }
}
