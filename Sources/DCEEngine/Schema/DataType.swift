/// The `dataType` of a field, as the metadata names it.
public enum DataType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A JSON string.
    case string = "String"
    /// A JSON number with an integral value (`3`, `3.0` and `3e0` are integers, as in JSON Schema).
    case integer = "Integer"
    /// Any JSON number.
    case number = "Number"
    /// `true` or `false`.
    case boolean = "Boolean"
    /// A string holding an ISO 8601 calendar date, `YYYY-MM-DD`.
    case date = "Date"
    /// A string holding an ISO 8601 / RFC 3339 date and time with an offset.
    case dateTime = "DateTime"
    /// A JSON object whose members are the field's `fields`.
    case object = "Object"
    /// A JSON array whose elements follow the field's `items`.
    case array = "Array"

    /// How messages name the type.
    var article: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        case .date: "a date (YYYY-MM-DD)"
        case .dateTime: "a date-time (ISO 8601)"
        case .object: "an object"
        case .array: "an array"
        }
    }

    /// Whether a JSON value has this type (the `type` rule): an integer may be written `3`, `3.0` or `3e0`, and with
    /// `numericBooleans` a Boolean may be 0 or 1 in any spelling (a boolean wrapped in `NSNumber` by an older client).
    func accepts(
        _ kind: JSONDocument.Kind, at value: JSONDocument.Index, in document: JSONDocument, numericBooleans: Bool
    ) -> Bool {
        switch self {
        case .string, .date, .dateTime: return kind == .string
        case .integer:
            return kind == .number
                && (document.isIntegerLiteral(at: value)
                    || DecimalNumber(lexeme: document.numberLexeme(at: value)).isIntegral)
        case .number: return kind == .number
        case .boolean:
            guard kind == .number, numericBooleans else { return kind == .boolean }
            return Self.numericBoolean(at: value, in: document) != nil
        case .object: return kind == .object
        case .array: return kind == .array
        }
    }

    /// The boolean a number stands for under `numericBooleans`: 1 is true and 0 false, in any spelling (`1.0`,
    /// `1e0`); any other number stands for none.
    static func numericBoolean(at value: JSONDocument.Index, in document: JSONDocument) -> Bool? {
        let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
        if number == DecimalNumber(lexeme: "1") { return true }
        return number == DecimalNumber(lexeme: "0") ? false : nil
    }

    /// The format the type itself requires of its text: an ISO 8601 date for `Date`, a date-time for `DateTime`.
    /// Validation, partial input and export check it beside a field's own formats (which are alternatives to each
    /// other, not to this one).
    package var impliedFormat: Format? {
        switch self {
        case .date: .date
        case .dateTime: .dateTime
        default: nil
        }
    }

    /// The JSON Schema `type` of a value of this type.
    package var jsonSchemaType: String {
        switch self {
        case .string, .date, .dateTime: "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .object: "object"
        case .array: "array"
        }
    }

    /// Whether lengths and string formats apply.
    package var isString: Bool { self == .string || self == .date || self == .dateTime }
    /// Whether `minimum` and `maximum` apply.
    var isNumeric: Bool { self == .integer || self == .number }
}
