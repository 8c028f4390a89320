/// A stable identifier for a kind of violation; appears verbatim as `rule` in every report.
public struct ViolationCode: RawRepresentable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The code's identifier.
    public let rawValue: String
    /// The code's place in ``catalogue``, or -1 for a code the engine does not define: messages for the engine's
    /// own codes are found by it, without hashing the identifier for every violation.
    let ordinal: Int

    /// Creates a code.
    ///
    /// - Parameter rawValue: The identifier.
    public init(rawValue: String) {
        self.rawValue = rawValue
        self.ordinal = Self.ordinals[rawValue] ?? -1
    }

    private init(_ rawValue: String, _ ordinal: Int) {
        self.rawValue = rawValue
        self.ordinal = ordinal
    }

    private static let ordinals: [String: Int] = Dictionary(
        uniqueKeysWithValues: catalogue.enumerated().map { ($0.element.code.rawValue, $0.offset) })

    /// Whether two codes have the same identifier.
    public static func == (lhs: ViolationCode, rhs: ViolationCode) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the identifier.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Decodes the code from its identifier.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the code as its identifier.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders codes by identifier.
    public static func < (lhs: ViolationCode, rhs: ViolationCode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The payload is not well-formed JSON: its syntax, or its encoding (invalid UTF-8, lone surrogates, a byte
    /// order mark, UTF-16).
    public static let json = ViolationCode("json", 0)
    /// The payload nests arrays and objects deeper than ``JSONLimits/maxDepth``.
    public static let tooDeep = ViolationCode("tooDeep", 1)
    /// The payload is larger than ``JSONLimits/maxDocumentBytes``.
    public static let tooLarge = ViolationCode("tooLarge", 2)
    /// A string in the payload is longer than ``JSONLimits/maxStringBytes``.
    public static let stringTooLong = ViolationCode("stringTooLong", 3)
    /// A required field is missing, or `null`.
    public static let required = ViolationCode("required", 4)
    /// A field that must be absent is present.
    public static let forbidden = ViolationCode("forbidden", 5)
    /// A field that is not `nullable` is `null`.
    public static let null = ViolationCode("null", 6)
    /// A value of the wrong JSON type for the field's `dataType`.
    public static let type = ViolationCode("type", 7)
    /// A string shorter than `minLength` code points.
    public static let minLength = ViolationCode("minLength", 8)
    /// A string longer than `maxLength` code points.
    public static let maxLength = ViolationCode("maxLength", 9)
    /// A number below `minimum`.
    public static let minimum = ViolationCode("minimum", 10)
    /// A number above `maximum`.
    public static let maximum = ViolationCode("maximum", 11)
    /// An array with fewer than `minItems` elements.
    public static let minItems = ViolationCode("minItems", 12)
    /// An array with more than `maxItems` elements.
    public static let maxItems = ViolationCode("maxItems", 13)
    /// A value that is not one of the field's `enum` values.
    public static let `enum` = ViolationCode("enum", 14)
    /// A string that does not have the field's `format`.
    public static let format = ViolationCode("format", 15)
    /// A string that does not match a `regex` of `additionalDataValidations`.
    public static let regex = ViolationCode("regex", 16)
    /// A regex match gave up at its match, depth or heap limit: the value could not be checked and is rejected.
    public static let regexLimit = ViolationCode("regexLimit", 17)
    /// A member that the object's schema does not define.
    public static let unknownField = ViolationCode("unknownField", 18)
    /// A member name that appears more than once in one object.
    public static let duplicateKey = ViolationCode("duplicateKey", 19)
    /// An update changes a field whose `updatesAllowed` is false.
    public static let updateNotAllowed = ViolationCode("updateNotAllowed", 20)
    /// The payload could not be read at all (no such file, not a regular file, a read error); the message gives
    /// the path's reason, never any of its content.
    public static let unreadable = ViolationCode("unreadable", 21)
    /// A value a field's `existsIn` says another document holds is not in it (checked when that document is given).
    public static let existsIn = ViolationCode("existsIn", 22)

    /// Every code the engine reports, with a one-line summary: the rule table of SARIF reports and the docs.
    public static let catalogue: [(code: ViolationCode, summary: String)] = [
        (.json, "The payload is not well-formed JSON."),
        (.tooDeep, "The payload nests deeper than the reader's depth limit."),
        (.tooLarge, "The payload is larger than the reader's size limit."),
        (.stringTooLong, "A string is longer than the reader's string limit."),
        (.required, "A required field is missing or null."),
        (.forbidden, "A field that must be absent is present."),
        (.null, "A field that is not nullable is null."),
        (.type, "A value has the wrong JSON type for its field."),
        (.minLength, "A string is shorter than its minimum length (in code points)."),
        (.maxLength, "A string is longer than its maximum length (in code points)."),
        (.minimum, "A number is below its minimum."),
        (.maximum, "A number is above its maximum."),
        (.minItems, "An array has fewer items than its minimum."),
        (.maxItems, "An array has more items than its maximum."),
        (.enum, "A value is not one of the allowed values."),
        (.format, "A string does not have the field's format."),
        (.regex, "A string does not match the field's regular expression."),
        (.regexLimit, "A regular expression match exceeded its limits; the value is rejected."),
        (.unknownField, "A member that the schema does not define."),
        (.duplicateKey, "A member name appears more than once in one object."),
        (.updateNotAllowed, "An update changes a field that updates may not change."),
        (.unreadable, "The payload could not be read: no such file, not a regular file, or a read error."),
        (.existsIn, "A value is not found in the other document it must be found in."),
    ]
}
