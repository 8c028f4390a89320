/// Why bytes could not be read as JSON.
///
/// The message names what was expected and where, and never repeats the input: a malformed payload can hold a
/// card number or a PIN.
public struct JSONReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's identifier.
        public let rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The bytes break JSON's grammar.
        public static let syntax = Code(rawValue: "syntax")
        /// The bytes are not valid UTF-8, or a `\u` escape is a lone surrogate.
        public static let encoding = Code(rawValue: "encoding")
        /// The document nests deeper than ``JSONLimits/maxDepth``.
        public static let tooDeep = Code(rawValue: "tooDeep")
        /// The document is larger than ``JSONLimits/maxDocumentBytes``.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// A string is longer than ``JSONLimits/maxStringBytes``.
        public static let stringTooLong = Code(rawValue: "stringTooLong")
    }

    /// The kind of failure.
    public var code: Code
    /// What is wrong, for people; never contains input bytes.
    public var message: String
    /// Where the failure was detected.
    public var position: SourcePosition

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: The explanation.
    ///   - position: Where it was detected.
    public init(code: Code, message: String, position: SourcePosition) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// `line:column: message`.
    public var description: String { "\(position): \(message)" }
}
