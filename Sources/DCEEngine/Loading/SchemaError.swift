/// One thing wrong with a schema: what, and exactly where.
public struct SchemaProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The kind of problem, stable across releases.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's identifier.
        public let rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// No schema with the requested id exists in the source.
        public static let unknownSchema = Code(rawValue: "unknownSchema")
        /// The schema file could not be read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The schema file is not well-formed JSON.
        public static let json = Code(rawValue: "json")
        /// An attribute the schema language does not have.
        public static let unknownAttribute = Code(rawValue: "unknownAttribute")
        /// A required attribute is missing.
        public static let missingAttribute = Code(rawValue: "missingAttribute")
        /// An attribute has the wrong JSON type or an invalid value.
        public static let invalidAttribute = Code(rawValue: "invalidAttribute")
        /// A `ref` that names no definition or schema.
        public static let unknownReference = Code(rawValue: "unknownReference")
        /// References that lead back to themselves.
        public static let referenceCycle = Code(rawValue: "referenceCycle")
        /// A regular expression PCRE2 cannot compile.
        public static let invalidRegex = Code(rawValue: "invalidRegex")
        /// Contradictory bounds, such as `minLength` greater than `maxLength`.
        public static let invalidRange = Code(rawValue: "invalidRange")
        /// A `defaultValue` that breaks its own field's rules.
        public static let invalidDefault = Code(rawValue: "invalidDefault")
        /// Two fields of one object with the same `key` or the same `order`.
        public static let duplicate = Code(rawValue: "duplicate")
        /// A condition names a context the schema does not declare, or a value it does not allow.
        public static let unknownContext = Code(rawValue: "unknownContext")
        /// A condition's JSON Pointer leads to no field of the schema.
        public static let unknownField = Code(rawValue: "unknownField")
        /// A `format` the engine does not know.
        public static let unknownFormat = Code(rawValue: "unknownFormat")
        /// A regex construct that can backtrack without bound (backreference, lookaround, recursion, callout,
        /// nested unbounded repeat), refused unless the schema sets `trustedPatterns`.
        public static let unsafeRegex = Code(rawValue: "unsafeRegex")
        /// A regex shaped for catastrophic backtracking (nested unbounded repeats, backreferences); a warning when
        /// compiling, an error for `dce-validate lint`.
        public static let backtrackingRisk = Code(rawValue: "backtrackingRisk")
        /// An example payload whose verdict is not the one its file name promises (`dce-validate lint`).
        public static let example = Code(rawValue: "example")
        /// An attribute that does not apply to the field's `dataType`.
        public static let inapplicableAttribute = Code(rawValue: "inapplicableAttribute")
    }

    /// The kind of problem.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Where it is.
    public var location: SchemaLocation
    /// The error behind the problem, when there is one: the file system's error for a file or directory that cannot
    /// be read (the ``message`` ends with its reason, such as `Permission denied`), the JSON reader's for a file that
    /// is not JSON, PCRE2's for a regex that does not compile; `nil` for a problem found in the schema itself.
    ///
    /// It is for programs that look deeper, and is left out of `==`, `hash(into:)` and coding: two problems with
    /// the same code, message and location are the same problem, and a decoded problem has no cause.
    public var cause: (any Error)?

    /// Creates a problem.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: The explanation.
    ///   - location: Where it is.
    ///   - cause: The error behind the problem, if any.
    public init(code: Code, message: String, location: SchemaLocation, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause
    }

    /// The members that are coded: all but the cause, which need not be codable.
    private enum CodingKeys: String, CodingKey {
        case code, message, location
    }

    /// Whether two problems are the same: the same code, message and location; their causes are not compared.
    ///
    /// - Parameters:
    ///   - lhs: A problem.
    ///   - rhs: Another problem.
    /// - Returns: `true` when the code, message and location are equal.
    public static func == (lhs: SchemaProblem, rhs: SchemaProblem) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
    }

    /// Hashes the code, message and location, the members `==` compares (not the cause).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
    }

    /// `file:line:column: error: pointer: message [code]`, as compilers print diagnostics; `message [code]` for a
    /// problem of no file (a schema id that names none), which a tool prints after its own name.
    public var description: String {
        let pointer = location.pointer.isEmpty ? "" : "\(location.pointer): "
        guard !location.file.isEmpty else { return "\(pointer)\(message) [\(code)]" }
        return "\(location): error: \(pointer)\(message) [\(code)]"
    }
}

/// A schema could not be loaded or compiled; every problem found is listed, not only the first.
public struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in the order found.
    public var problems: [SchemaProblem]

    /// Creates an error.
    ///
    /// - Parameter problems: The problems found; at least one.
    public init(problems: [SchemaProblem]) {
        self.problems = problems
    }

    /// One diagnostic line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
