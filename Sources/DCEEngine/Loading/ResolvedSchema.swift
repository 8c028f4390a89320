/// A schema with every `ref` replaced by the definition it names: the input of the compiler.
struct ResolvedSchema: Sendable {
    var id: String
    var version: String
    var name: String?
    var description: String?
    var file: String
    /// The root schema's contexts, then any context that only referenced schemas declare.
    var contexts: [ContextDefinition]
    var tenderTypes: [String]
    var root: ResolvedField
    /// Whether the validated schema trusts its regexes (and those of the definitions it references).
    var trustedPatterns: Bool
    /// Whether `Boolean` fields also accept 0 and 1 (the validated schema's setting, for every field it compiles).
    var numericBooleans: Bool
    /// The schema of the gateway's answer.
    var responseSchema: String?
    /// What the schema describes.
    var kind: SchemaKind
    /// Where each of the schema's own members is written.
    var locations: [String: SchemaLocation]
}

/// A field whose reference, if any, has been replaced by the definition's shape and rules.
final class ResolvedField: Sendable {
    let location: SchemaLocation
    let key: String?
    let rules: Rules
    let metadata: FieldMetadata
    let fields: [ResolvedField]?
    let additionalFields: Bool
    let items: ResolvedField?
    /// Tender type overrides first, then conditional overrides, each in the order written.
    let overrides: [FieldOverride]
    /// The contexts bound for this field and below: a definition's, then the using field's (applied in order, so
    /// the using field's win).
    let bindings: [ContextBinding]
    /// The rules over an object's members (`postalAddress`; its definition's when it comes by `ref`).
    let objectRules: [ObjectRuleDefinition]
    /// Another document the value must be found in (the field's own, else its definition's).
    let existsIn: DocumentReference?

    init(
        location: SchemaLocation, key: String?, rules: Rules, metadata: FieldMetadata,
        fields: [ResolvedField]?, additionalFields: Bool, items: ResolvedField?, overrides: [FieldOverride],
        bindings: [ContextBinding], objectRules: [ObjectRuleDefinition] = [], existsIn: DocumentReference? = nil
    ) {
        self.objectRules = objectRules
        self.existsIn = existsIn
        self.location = location
        self.key = key
        self.rules = rules
        self.metadata = metadata
        self.fields = fields
        self.additionalFields = additionalFields
        self.items = items
        self.overrides = overrides
        self.bindings = bindings
    }
}
