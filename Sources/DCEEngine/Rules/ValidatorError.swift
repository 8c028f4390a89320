/// A validation call that cannot be answered: the caller named something the schemas do not have.
///
/// An invalid request is not an error (it gets a ``ValidationReport``); these are mistakes in the call itself.
public struct ValidatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of mistake, stable across releases.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's identifier.
        public let rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// No compiled schema has the requested id.
        public static let unknownSchema = Code(rawValue: "unknownSchema")
        /// The schema declares no context of that name.
        public static let unknownContext = Code(rawValue: "unknownContext")
        /// The context does not allow that value.
        public static let invalidContextValue = Code(rawValue: "invalidContextValue")
        /// The schema declares no such tender type.
        public static let unknownTenderType = Code(rawValue: "unknownTenderType")
        /// A JSON Pointer names no field of the schema.
        public static let unknownField = Code(rawValue: "unknownField")
        /// A typed request could not be encoded to JSON.
        public static let encoding = Code(rawValue: "encoding")
        /// A message catalogue is not a catalogue, or a template names an unknown placeholder.
        public static let invalidCatalogue = Code(rawValue: "invalidCatalogue")
        /// The package ships no message catalogue for that language.
        public static let unknownLanguage = Code(rawValue: "unknownLanguage")
        /// A form's draft cannot hold a value at the pointer typed into: a value on the way is not the object or array
        /// the schema describes there, or an index lies past the end of a list.
        public static let invalidDraft = Code(rawValue: "invalidDraft")
        /// A document was given for a schema id that no `existsIn` of the schema names.
        public static let unknownDocument = Code(rawValue: "unknownDocument")
    }

    /// The kind of mistake.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// The error behind this one, when it was made from another: the encoder's for a typed request that cannot be
    /// encoded (without the value it could not encode, which may be a secret of the request), the JSON reader's for a
    /// catalogue or draft that is not JSON; `nil` for a mistake found in the call itself.
    ///
    /// It is for programs that look deeper, and is left out of `==` and `hash(into:)`: two errors with the same code
    /// and message are the same error.
    public var cause: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of mistake.
    ///   - message: The explanation.
    ///   - cause: The error behind this one, if any.
    public init(code: Code, message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// Whether two errors are the same: the same code and message; their causes are not compared.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another error.
    /// - Returns: `true` when the code and message are equal.
    public static func == (lhs: ValidatorError, rhs: ValidatorError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// Hashes the code and message, the members `==` compares (not the cause).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    /// The message.
    public var description: String { message }
}
