/// One schema compiled into rules: immutable, `Sendable`, and shared by every validation that uses it.
public final class CompiledSchema: Sendable {
    /// The schema id.
    public let id: String
    /// The schema's version.
    public let version: String
    /// The schema's human name.
    public let name: String?
    /// The schema's description.
    public let description: String?
    /// The file the schema was read from.
    public let file: String
    let root: CompiledField
    let contexts: [CompiledContext]
    let contextSlots: [String: Int]
    /// The tender types the schema distinguishes.
    public let tenderTypes: [String]
    /// What compiling noticed without refusing the schema (see ``SchemaProblem/Code/backtrackingRisk``).
    public let warnings: [SchemaProblem]

    init(
        id: String, version: String, name: String?, description: String?, file: String, root: CompiledField,
        contexts: [CompiledContext], tenderTypes: [String], warnings: [SchemaProblem] = []
    ) {
        self.id = id
        self.version = version
        self.name = name
        self.description = description
        self.file = file
        self.root = root
        self.contexts = contexts
        var slots: [String: Int] = [:]
        for (slot, context) in contexts.enumerated() { slots[context.name] = slot }
        self.contextSlots = slots
        self.tenderTypes = tenderTypes
        self.warnings = warnings
    }

    /// The names of the contexts the schema understands, in declaration order.
    public var contextNames: [String] { contexts.map(\.name) }

    /// The values a context may take, or `nil` when any string is accepted.
    ///
    /// - Parameter context: A context name.
    /// - Returns: The allowed values.
    public func allowedValues(of context: String) -> [String]? {
        contextSlots[context].flatMap { contexts[$0].values }
    }
}
