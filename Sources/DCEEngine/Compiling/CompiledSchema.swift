internal import DCEPattern

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
    package let root: CompiledField
    package let contexts: [CompiledContext]
    package let contextSlots: [String: Int]
    /// The tender types the schema distinguishes.
    public let tenderTypes: [String]
    /// Whether any context has derive rules (so evaluation can skip deriving when none does).
    let hasDeriveRules: Bool
    /// Whether any field binds contexts or the tender type for its value (`context`).
    let hasBindings: Bool
    /// The fields and conditions lowered for evaluation (every context's `derive` rules in order, slot by slot).
    package let program: RuleProgram
    /// Whether a format depends on the date (so evaluation reads the clock only then).
    let usesDate: Bool
    /// Whether a `pciEncryptionRequired` field holds card numbers (so ``cardNumbers(in:)`` walks a payload only then).
    let holdsCardNumbers: Bool
    /// Whether `Boolean` fields also accept the numbers 0 and 1 (converted to `false` / `true` in what is sent).
    package let numericBooleans: Bool
    /// The schema a gateway's answer to this request follows, when the schema names one.
    public let responseSchema: String?
    /// What the schema describes: only a ``SchemaKind/request`` is accepted by a gateway.
    public let kind: SchemaKind
    /// What compiling noticed without refusing the schema (see ``SchemaProblem/Code/backtrackingRisk``).
    public let warnings: [SchemaProblem]
    /// Every regex the schema uses, compiled once, by ``Validation/patternKey``.
    package let patterns: [String: CompiledPattern]
    /// The reference data its formats and conditions read (code lists, card brands).
    package let reference: ReferenceData
    /// Where each of the schema's own members (`contexts`, `tenderTypes`, `additionalFields`, …) is written.
    package let locations: [String: SchemaLocation]

    init(
        id: String, version: String, name: String?, description: String?, file: String, root: CompiledField,
        contexts: [CompiledContext], tenderTypes: [String], numericBooleans: Bool = false,
        responseSchema: String? = nil,
        kind: SchemaKind = .request, warnings: [SchemaProblem] = [], patterns: [String: CompiledPattern] = [:],
        reference: ReferenceData = .bundled, locations: [String: SchemaLocation] = [:]
    ) {
        self.locations = locations
        self.patterns = patterns
        self.reference = reference
        self.responseSchema = responseSchema
        self.kind = kind
        self.numericBooleans = numericBooleans
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
        self.hasDeriveRules = contexts.contains { !$0.derive.isEmpty }
        self.program = RuleProgram(root: root, contexts: contexts)
        self.usesDate = Self.usesDate(root)
        self.hasBindings = Self.hasBindings(root)
        self.holdsCardNumbers = Self.holdsCardNumbers(root)
        self.warnings = warnings
    }

    private static func hasBindings(_ field: CompiledField) -> Bool {
        !field.bindings.isEmpty || field.fields.contains(where: hasBindings) || field.items.map(hasBindings) == true
    }

    private static func holdsCardNumbers(_ field: CompiledField) -> Bool {
        (field.sensitivity.contains(.pciEncryptionRequired) && field.isCardNumber)
            || field.fields.contains(where: holdsCardNumbers) || (field.items.map(holdsCardNumbers) ?? false)
    }

    private static func usesDate(_ field: CompiledField) -> Bool {
        let rules = [field.base] + field.overrides.map(\.patch)
        if rules.contains(where: { $0.formatList.contains(.cardExpiry) }) { return true }
        return field.fields.contains(where: usesDate) || (field.items.map(usesDate) ?? false)
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

    /// The context values by slot, after checking that the schema declares each one and allows its value.
    package func contextSlots(_ context: [String: String], tenderType: String?) throws(ValidatorError) -> [String?] {
        let schema = self
        var slots = [String?](repeating: nil, count: schema.contexts.count)
        for (name, value) in context.sorted(by: { $0.key < $1.key }) {
            guard let slot = schema.contextSlots[name] else {
                let declared = schema.contextNames.isEmpty ? "none" : schema.contextNames.joined(separator: ", ")
                throw ValidatorError(
                    code: .unknownContext,
                    message:
                        "schema '\(schema.id)' has no context '\(name)'\(Suggestion.hint(for: name, in: schema.contextNames)) (declared: \(declared))"
                )
            }
            if let values = schema.contexts[slot].values, !values.contains(value) {
                throw ValidatorError(
                    code: .invalidContextValue,
                    message:
                        "context '\(name)' of schema '\(schema.id)' takes one of \(values.joined(separator: ", ")), not '\(value)'"
                )
            }
            slots[slot] = value
        }
        if let tenderType, !schema.tenderTypes.contains(tenderType) {
            let declared = schema.tenderTypes.isEmpty ? "none" : schema.tenderTypes.joined(separator: ", ")
            throw ValidatorError(
                code: .unknownTenderType,
                message: "schema '\(schema.id)' has no tender type '\(tenderType)' (declared: \(declared))")
        }
        return slots
    }
}
