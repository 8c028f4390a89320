/// One way a request breaks its schema.
///
/// The message names the field by its `name` and says what is expected; it never contains the value, so a
/// violation may be logged or reported whatever the field holds.
public struct Violation: Hashable, Sendable, Codable {
    /// The JSON Pointer of the offending value in the request (for a missing field, where it belongs).
    public var path: String
    /// The field's `key` (for an array element, the array's key; for an unknown member, its name).
    public var key: String
    /// What kind of rule was broken.
    public var rule: ViolationCode
    /// What is wrong, for people.
    public var message: String
    /// The 1-based line of the offending value in the payload (of the enclosing object for a missing field),
    /// when the payload was read from text.
    public var line: Int?
    /// The 1-based column, in code points, matching ``line``.
    public var column: Int?
    /// The rejected value's keyed fingerprint, when the schema was prepared with a ``ValueFingerprinter``.
    public var fingerprint: String?

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - path: The JSON Pointer of the value.
    ///   - key: The field's key.
    ///   - rule: The broken rule.
    ///   - message: The explanation.
    ///   - position: Where the value is in the payload text.
    public init(path: String, key: String, rule: ViolationCode, message: String, position: SourcePosition? = nil) {
        self.path = path
        self.key = key
        self.rule = rule
        self.message = message
        self.line = position?.line
        self.column = position?.column
    }
}
