/// Why a regular expression could not be compiled.
public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// PCRE2's error code (`pcre2_compile` `errorcode`).
    public var code: Int32
    /// PCRE2's explanation of the error.
    public var reason: String
    /// The offset, in UTF-8 code units, in the pattern where PCRE2 detected the error.
    public var offset: Int

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: PCRE2's error code.
    ///   - reason: A human explanation.
    ///   - offset: The byte offset in the pattern.
    public init(code: Int32, reason: String, offset: Int) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// The reason followed by the offset, as a compiler would print it.
    public var description: String { "\(reason) at offset \(offset)" }
}
