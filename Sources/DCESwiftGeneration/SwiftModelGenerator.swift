public import DCEEngine

/// Writes the Swift models of a folder of schemas: one type for each schema and each object definition, the
/// objects and options written in place nested in them or, with a `swiftName`, beside them.
///
/// Each type is `Codable`, `Hashable` and `Sendable`, has a memberwise initializer in the schema's field order, and
/// writes itself for the engine member by member (`DocumentWritable`), so that `validate(request)` uses no
/// `Encoder`. A schema's root type is a `ValidatableRequest` naming its schema. `dce-validate generate swift` and
/// the `DCEModelsGenerator` build plugin run it.
///
/// ```swift
/// let generator = SwiftModelGenerator(configuration: .init(schemas: ["loyalty-enrolment"]))
/// for file in try generator.files(from: .directory(URL(fileURLWithPath: "Schemas"))) {
///     print(file.name)  // LoyaltyEnrolment.swift
/// }
/// ```
public struct SwiftModelGenerator: Sendable {
    /// What to generate and how it is declared: the file a build plugin reads (`dce-models.json`).
    public struct Configuration: Codable, Sendable, Hashable {
        /// The ids of the schemas to generate (with every schema their `ref`s reach); `nil` for every schema.
        public var schemas: [String]?
        /// The access level of the declarations.
        public var accessLevel: AccessLevel
        /// The modules the generated code imports: `DCEEngine` (`ValidatableRequest`, `SensitiveString`) and
        /// `DCEModels` (`OpenEnum`, `Patch`, `JSONValue`), unless the code is generated into one of them.
        public var imports: [String]

        /// A configuration.
        ///
        /// - Parameters:
        ///   - schemas: The ids of the schemas to generate; `nil` for every schema of the folder.
        ///   - accessLevel: The access level of the declarations.
        ///   - imports: The modules the generated code imports.
        public init(
            schemas: [String]? = nil, accessLevel: AccessLevel = .public,
            imports: [String] = ["DCEEngine", "DCEModels"]
        ) {
            self.schemas = schemas
            self.accessLevel = accessLevel
            self.imports = imports
        }

        private enum CodingKeys: String, CodingKey {
            case schemas, accessLevel, imports
        }

        /// Reads a configuration; members left out take their defaults.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` when a member has the wrong type or an unknown access level.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                schemas: try container.decodeIfPresent([String].self, forKey: .schemas),
                accessLevel: try container.decodeIfPresent(AccessLevel.self, forKey: .accessLevel) ?? .public,
                imports: try container.decodeIfPresent([String].self, forKey: .imports) ?? ["DCEEngine", "DCEModels"])
        }
    }

    /// The access level of generated declarations.
    public enum AccessLevel: String, Codable, Sendable, Hashable, CaseIterable {
        /// For a library's models.
        case `public`
        /// For models shared by the targets of one package.
        case `package`
        /// For an app's own models.
        case `internal`
    }

    /// One generated Swift file.
    public struct File: Sendable, Hashable {
        /// The file's name: its schema's root type, `.swift`.
        public var name: String
        /// The Swift source.
        public var contents: String
        /// The ids of the schemas whose types it holds.
        public var schemaIDs: [String]
    }

    /// Why models could not be generated: the schemas' problems, or names the generator cannot give.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// Each problem, with the file and JSON Pointer where it is.
        public var problems: [String]
        /// The problems, one a line.
        public var description: String { problems.joined(separator: "\n") }
    }

    /// What is generated.
    public let configuration: Configuration

    /// A generator.
    ///
    /// - Parameter configuration: What to generate.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The models, a file for each schema (named after its root type) holding its types.
    ///
    /// - Parameter source: The schemas.
    /// - Returns: The files, in the order of their schemas' ids.
    /// - Throws: ``Failure`` when a schema cannot be read or a name cannot be given.
    public func files(from source: SchemaSource) throws(Failure) -> [File] {
        try build(source).map { id, declarations in
            let root = declarations.first { declaration in
                if case .structure(let structure) = declaration { structure.schemaID == id } else { false }
            }
            let name = root?.name ?? SwiftNames.typeName(id)
            return File(name: name + ".swift", contents: text(of: declarations, from: [id]), schemaIDs: [id])
        }
    }

    /// The models in one file, as a build plugin writes them.
    ///
    /// - Parameters:
    ///   - name: The file's name.
    ///   - source: The schemas.
    /// - Returns: The file.
    /// - Throws: ``Failure`` when a schema cannot be read or a name cannot be given.
    public func file(named name: String, from source: SchemaSource) throws(Failure) -> File {
        let built = try build(source)
        return File(
            name: name, contents: text(of: built.flatMap(\.declarations), from: built.map(\.id)),
            schemaIDs: built.map(\.id))
    }

    /// The stored members every generated struct has, by the type's name: each member's name and its type as Swift
    /// prints it (`Optional<String>`, `Array<CardStatus>`, `Patch<JSONValue>`), for a test to hold compiled models
    /// to the schemas they came from.
    package func members(from source: SchemaSource) throws(Failure) -> [String: [(name: String, type: String)]] {
        var result: [String: [(name: String, type: String)]] = [:]
        func collect(_ declaration: Declaration) {
            guard case .structure(let structure) = declaration else { return }
            if let element = structure.elementType {
                result[structure.name] = [("elements", Self.printed("[\(element)]"))]
            } else {
                result[structure.name] = structure.members.map {
                    (SwiftNames.bare($0.name), Self.printed($0.declaredType))
                }
            }
            structure.nested.forEach(collect)
        }
        try build(source).flatMap(\.declarations).forEach(collect)
        return result
    }

    /// How generated code uses DCEModels.
    enum SupportUse: Comparable {
        case none
        /// In conformances (`OpenEnum`) and bodies (`decodeNumericBoolean`).
        case inBodies
        /// In members' types (`Patch`, `JSONValue`).
        case inSignatures
    }

    static func supportUse(of declarations: [Declaration]) -> SupportUse {
        declarations.map { declaration -> SupportUse in
            switch declaration {
            case .openEnum: return .inBodies
            case .structure(let structure):
                let own: SupportUse =
                    structure.members.contains { $0.presence == .patch || $0.type.contains("JSONValue") }
                        || (structure.elementType ?? "").contains("JSONValue")
                    ? .inSignatures : structure.members.contains(where: \.numericBoolean) ? .inBodies : .none
                return max(own, supportUse(of: structure.nested))
            }
        }.max() ?? .none
    }

    /// A type written as Swift declares it (`[String]?`), as `String(describing:)` prints it (`Optional<Array<String>>`).
    static func printed(_ type: String) -> String {
        if type.hasSuffix("?") { return "Optional<\(printed(String(type.dropLast())))>" }
        if type.hasPrefix("["), type.hasSuffix("]") { return "Array<\(printed(String(type.dropFirst().dropLast())))>" }
        if type.hasPrefix("Patch<"), type.hasSuffix(">") {
            return "Patch<\(printed(String(type.dropFirst(6).dropLast())))>"
        }
        return type
    }

    private func build(_ source: SchemaSource) throws(Failure) -> [(id: String, declarations: [Declaration])] {
        var builder = ModelBuilder(source: source)
        let built: [(id: String, declarations: [Declaration])]
        do throws(SchemaError) {
            var ids = configuration.schemas ?? []
            if configuration.schemas == nil { ids = try source.schemaIDs() }
            built = try builder.build(ids)
        } catch {
            throw Failure(problems: error.problems.map { $0.description })
        }
        guard builder.problems.isEmpty else { throw Failure(problems: builder.problems) }
        return built
    }

    private func text(of declarations: [Declaration], from ids: [String]) -> String {
        var writer = SwiftWriter(access: configuration.accessLevel.rawValue)
        let files = ids.map { $0 + ".json" }.joined(separator: ", ")
        writer.documentation(
            [
                "Generated by `dce-validate generate swift` from \(files): do not edit. Change the schema and "
                    + "generate again."
            ], marker: "//")
        writer.line()
        let importKeyword =
            switch configuration.accessLevel {
            case .public: "public import"
            case .package: "package import"
            case .internal: "import"
            }
        let support = Self.supportUse(of: declarations)
        for module in configuration.imports.sorted() {
            guard module == "DCEModels" else {
                writer.line("\(importKeyword) \(module)")
                continue
            }
            // DCEModels (OpenEnum, Patch, JSONValue) only where the code uses it, and with the access the use needs:
            // a public type's conformance needs a public import, a package type's only a member's type does.
            switch (support, configuration.accessLevel) {
            case (.none, _): continue
            case (_, .public), (.inSignatures, .package): writer.line("\(importKeyword) \(module)")
            default: writer.line("import \(module)")
            }
        }
        for declaration in declarations {
            writer.line()
            writer.write(declaration)
        }
        return writer.text
    }
}
