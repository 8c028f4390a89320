public import DCEEngine

/// A field of an update request: left out (no change), `null` (remove the value), or a value (set it) — the three
/// states that seed 003's `UpdateVirtualCardInput` gives `undefined`, `null` and a defined value.
///
/// In a `Codable` type, `Patch` members encode and decode as those three JSON states:
///
/// ```swift
/// let update = UpdateVirtualCardInput(id: "card-id-1", billingAddress: .remove, metadata: .set(["alias": "Banking"]))
/// // {"id":"card-id-1","billingAddress":null,"metadata":{"alias":"Banking"}}
/// ```
public enum Patch<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// Not sent: the value stays as it is.
    case absent
    /// Sent as `null`: the value is removed.
    case remove
    /// Sent as a value: the value is replaced.
    case set(Value)

    /// Decodes `null` as ``remove`` and anything else as ``set(_:)``; a missing key is handled by the container.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the value has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .remove : .set(try container.decode(Value.self))
    }

    /// Encodes ``remove`` as `null` and ``set(_:)`` as the value (``absent`` is never encoded by a keyed container).
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .absent, .remove: try container.encodeNil()
        case .set(let value): try container.encode(value)
        }
    }
}

/// Encoding a ``Patch``: three states for one member.
extension KeyedEncodingContainer {
    /// Leaves an absent patch out, writes `null` for a removal and the value for a replacement.
    ///
    /// - Parameters:
    ///   - value: The patch.
    ///   - key: Its key.
    /// - Throws: When the encoder fails.
    public mutating func encode<Value>(_ value: Patch<Value>, forKey key: Key) throws {
        switch value {
        case .absent: break
        case .remove: try encodeNil(forKey: key)
        case .set(let wrapped): try encode(wrapped, forKey: key)
        }
    }
}

/// Decoding a ``Patch``: a missing key, `null` and a value are three different things.
extension KeyedDecodingContainer {
    /// Reads a missing key as ``Patch/absent``, `null` as ``Patch/remove`` and a value as ``Patch/set(_:)``.
    ///
    /// - Parameters:
    ///   - type: The patch type.
    ///   - key: Its key.
    /// - Returns: The patch.
    /// - Throws: When the value has the wrong type.
    public func decode<Value>(_ type: Patch<Value>.Type, forKey key: Key) throws -> Patch<Value> {
        guard contains(key) else { return .absent }
        return try decodeNil(forKey: key) ? .remove : .set(decode(Value.self, forKey: key))
    }
}

/// Writing a ``Patch`` for the engine: three states for one member.
extension DocumentWriter {
    /// Leaves an absent patch out, writes `null` for a removal and the value for a replacement.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - patch: The patch.
    public mutating func member<Value: DocumentWritable>(_ key: StaticString, _ patch: Patch<Value>) {
        switch patch {
        case .absent: break
        case .remove:
            self.key(key)
            null()
        case .set(let value): member(key, value)
        }
    }
}
