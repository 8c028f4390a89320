public import DCEEngine

/// An envelope the gateway's side cannot take: not an envelope, naming what this validator does not have, or
/// carrying sealed values that do not open. A request that is an envelope but breaks the schema's rules is not an
/// error: it gets a ``/DCEEngine/ValidationReport``.
///
/// The codes are stable across releases; the gateway answers with them as rule codes.
public struct EnvelopeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's identifier.
        public let rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The body is not an envelope: not well-formed JSON, not an object, or a member missing or of the wrong type.
        public static let encoding = Code(rawValue: "encoding")
        /// The header names a schema this validator does not have.
        public static let unknownSchema = Code(rawValue: "unknownSchema")
        /// The header names a context the schema does not declare.
        public static let unknownContext = Code(rawValue: "unknownContext")
        /// The header gives a context a value the context does not allow.
        public static let invalidContextValue = Code(rawValue: "invalidContextValue")
        /// The header names a tender type the schema does not declare.
        public static let unknownTenderType = Code(rawValue: "unknownTenderType")
        /// A sealed value's place is not an empty field marked `pciEncryptionRequired`.
        public static let unknownField = Code(rawValue: "unknownField")
        /// The schema is not a request (a response or a component): a gateway accepts only requests.
        public static let notARequest = Code(rawValue: "notARequest")
        /// The request was validated against a schema version this validator does not have.
        public static let versionMismatch = Code(rawValue: "versionMismatch")
        /// The value of a field marked `pciEncryptionRequired` arrived in clear instead of sealed.
        public static let notEncrypted = Code(rawValue: "notEncrypted")
        /// A sealed value does not open: changed, moved to another field or request, or sealed to another key.
        public static let tampered = Code(rawValue: "tampered")
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong, for people; never a value of the request.
    public var message: String
    /// The mistake of the call behind it, when the header names what the validator does not have.
    public var cause: ValidatorError?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: The explanation.
    ///   - cause: The call error behind it, if any.
    public init(code: Code, message: String, cause: ValidatorError? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// An envelope error for a call error: same code and message, with the call error as its cause.
    init(_ cause: ValidatorError) {
        self.init(code: Code(rawValue: cause.code.rawValue), message: cause.message, cause: cause)
    }

    /// The message.
    public var description: String { message }
}
