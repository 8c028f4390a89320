/// A string that must never be printed, logged or dumped: a PIN, a CVV, a card number.
///
/// It encodes to JSON as the plain string (so the request can be validated and sent), but its `description`,
/// `debugDescription` and reflection show only that a value is there, so `print(request)`, string
/// interpolation, `dump(request)` and the debugger cannot leak it.
public struct SensitiveString: Codable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The secret itself; read it only to send or encrypt it.
    public let revealed: String

    /// Wraps a secret.
    ///
    /// - Parameter value: The secret.
    public init(_ value: String) { revealed = value }

    /// Wraps a literal secret.
    ///
    /// - Parameter value: The secret.
    public init(stringLiteral value: String) { revealed = value }

    /// Decodes the secret from a JSON string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the value is not a string.
    public init(from decoder: any Decoder) throws {
        revealed = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the secret as a JSON string.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(revealed)
    }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `SensitiveString(<redacted>)`.
    public var debugDescription: String { "SensitiveString(<redacted>)" }
    /// A mirror with no children, so `dump` shows nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension SensitiveString: DocumentWritable {
    /// Writes the value itself: the engine must see it to check it, and every output masks it.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.string(revealed) }
}

extension DocumentWriter {
    /// Writes a sensitive member: its value itself, which the engine must see to check it.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member(_ key: StaticString, _ value: SensitiveString) {
        self.key(key)
        string(value.revealed)
    }

    /// Writes a sensitive member, left out when it is `nil`.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member(_ key: StaticString, _ value: SensitiveString?) {
        guard let value else { return }
        self.key(key)
        string(value.revealed)
    }
}
