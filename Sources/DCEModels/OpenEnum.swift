public import DCEEngine

/// A set of string values that the service sends and a newer service may extend: an enum of the seeds whose cases
/// are the values these models know, plus `unknown(String)` for any other value, kept as sent.
///
/// Decoding never fails on a value the app does not know: it gives ``unknown(_:)`` with the raw value, and encoding
/// writes that raw value back unchanged, so a response from a newer backend decodes and the app keeps running. The
/// response schema still lists the value as an `enum` violation when the payload is validated, so CI sees it.
///
/// A conforming enum declares its cases, ``allKnownCases`` and ``rawValue``; decoding, encoding, ``init(rawValue:)``,
/// ``isKnown``, equality and hashing come from this protocol:
///
/// ```swift
/// public enum CardScheme: OpenEnum {
///     case mastercard, visa
///     case unknown(String)
///     public static let allKnownCases: [CardScheme] = [.mastercard, .visa]
///     public var rawValue: String {
///         switch self {
///         case .mastercard: "MC"
///         case .visa: "VISA"
///         case .unknown(let rawValue): rawValue
///         }
///     }
/// }
/// ```
///
/// Where the seed itself has an `UNKNOWN` member ("unknown or cannot be determined"), `UNKNOWN` decodes to
/// `.unknown("UNKNOWN")`, like a value newer than these models: in both cases the app cannot tell what the value
/// means, and one `case .unknown` handles both; the raw value still tells them apart.
///
/// Two values are equal, and hash alike, when their raw values are: `.unknown("VISA") == .visa`. Build a value from
/// a string with ``init(rawValue:)``, which gives the known case when there is one.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable, DocumentWritable where RawValue == String {
    /// The cases these models know (every case but ``unknown(_:)``), in the seed's order.
    static var allKnownCases: [Self] { get }

    /// A value these models do not know (or the seed's `UNKNOWN`), with the raw value as sent.
    ///
    /// - Parameter rawValue: The raw value.
    /// - Returns: The value.
    static func unknown(_ rawValue: String) -> Self

    /// The raw value: the seed's for a known case, the one sent for ``unknown(_:)``.
    var rawValue: String { get }

    /// The known case with this raw value, or ``unknown(_:)`` keeping it; never fails.
    ///
    /// - Parameter rawValue: The raw value.
    init(rawValue: String)
}

extension OpenEnum {
    /// The known case with this raw value (compared exactly, case-sensitively), or ``unknown(_:)`` keeping it.
    ///
    /// - Parameter rawValue: The raw value.
    public init(rawValue: String) {
        self = Self.allKnownCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// Whether the raw value is one of ``allKnownCases``: `false` for a value newer than these models, and for the
    /// seed's `UNKNOWN`.
    public var isKnown: Bool { Self.allKnownCases.contains { $0.rawValue == rawValue } }

    /// Decodes a string: a known raw value gives its case, any other string ``unknown(_:)`` with it.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw value, byte for byte as it was decoded.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Writes the raw value for the engine.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.string(rawValue) }

    /// Whether two values have the same raw value.
    ///
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: `true` when the raw values are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the raw value.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
