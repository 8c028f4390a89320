public import DCEEngine

/// A free-form JSON value, for members such as a virtual card's `metadata` whose shape the app chooses.
public enum JSONValue: Codable, Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByNilLiteral
{
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Creates a string value.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an object value.
    ///
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }
    /// Creates an array value.
    ///
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Creates a Boolean value.
    ///
    /// - Parameter value: The Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates a number value.
    ///
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// Creates a number value.
    ///
    /// - Parameter value: The number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// Creates `null`.
    ///
    /// - Parameter nilLiteral: Nothing.
    public init(nilLiteral: ()) { self = .null }

    /// Decodes any JSON value.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the input is not JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: DocumentWritable {
    /// Writes the value for the engine (an object's members in the dictionary's order, as `JSONEncoder` does).
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let value): value.write(to: &writer)
        case .object(let value): value.write(to: &writer)
        }
    }
}
