/// Decoding a Boolean that an older client may send as 0 or 1 (seed 004: it wraps a Boolean in `NSNumber`), as a
/// schema with `numericBooleans` accepts it; generated models call these for such a schema's Booleans.
extension KeyedDecodingContainer {
    /// A Boolean sent as `true`/`false`, or as 0/1.
    ///
    /// - Parameter key: Its key.
    /// - Returns: The Boolean.
    /// - Throws: `DecodingError` when the member is missing or is neither a Boolean nor 0 or 1.
    public func decodeNumericBoolean(forKey key: Key) throws -> Bool {
        guard let value = try decodeNumericBooleanIfPresent(forKey: key) else {
            throw DecodingError.valueNotFound(
                Bool.self, .init(codingPath: codingPath + [key], debugDescription: "a Boolean is required"))
        }
        return value
    }

    /// A Boolean sent as `true`/`false`, or as 0/1; `nil` when it is missing or `null`.
    ///
    /// - Parameter key: Its key.
    /// - Returns: The Boolean, or `nil`.
    /// - Throws: `DecodingError` when the member is neither a Boolean nor 0 or 1.
    public func decodeNumericBooleanIfPresent(forKey key: Key) throws -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        switch try decodeIfPresent(Int.self, forKey: key) {
        case nil: return nil
        case 0: return false
        case 1: return true
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "a Boolean is true, false, 0 or 1")
        }
    }
}
