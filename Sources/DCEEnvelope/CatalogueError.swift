import DCEEngine
public import Foundation

/// A schema catalogue that cannot be signed, served or taken: its version, its expiry or its shape.
public struct CatalogueError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The kind of problem, stable across releases.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's identifier.
        public let rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// The version is not decimal numbers separated by dots, such as `2026.11.1`.
        public static let invalidVersion = Code(rawValue: "invalidVersion")
        /// The version is not newer than the one already served.
        public static let notNewer = Code(rawValue: "notNewer")
        /// The expiry is missing, not `YYYY-MM-DDThh:mm:ssZ`, or cannot be written that way.
        public static let invalidExpiry = Code(rawValue: "invalidExpiry")
        /// The body is not `{"version": …, "expires": …, "schemas": {…}}`, or a schema in it is not JSON.
        public static let malformed = Code(rawValue: "malformed")
        /// The catalogue's request schemas refuse requests the one served accepts (a new required field, a shorter
        /// maximum, a removed option, ...), and the publisher did not allow breaking changes. The message lists them.
        public static let breaking = Code(rawValue: "breaking")
        /// The schema folder's `compat-severity.txt` has a line that is not `CHANGE-ID SEVERITY`.
        public static let invalidSeverities = Code(rawValue: "invalidSeverities")
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong, for people.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: The explanation.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The message.
    public var errorDescription: String? { message }
}
