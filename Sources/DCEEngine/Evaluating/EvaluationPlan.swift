/// What every evaluation of one prepared schema reads and none changes, built once per ``PreparedSchema``.
///
/// An evaluation holds its plan, but reads it only off the hot path (what it needs at every field is copied into
/// the evaluation): when two threads validate at once, every reference count taken on this shared object is an
/// atomic write to a cache line both cores want.
package final class EvaluationPlan: Sendable {
    let schema: CompiledSchema
    /// Context values by slot, as the caller supplied them.
    let context: [String?]
    let tenderType: String?
    /// The language of the messages.
    let messages: MessageCatalogue
    /// Whether the operation is provisioning a new account (context `operation=provision`): fields marked
    /// `ignoreForProvisioning` are not checked.
    let provisioning: Bool
    /// When provisioning: by the program's field, whether the field is marked `ignoreForProvisioning` under the
    /// plan's tender type; empty otherwise.
    let ignoredForProvisioning: [Bool]
    /// When set, only these fields are checked (one step of a form); the objects around them are walked through.
    let subset: FieldSubset?
    /// Names rejected values in violations, when set.
    let fingerprinter: (any ValueFingerprinter)?
    /// Whether `subset` is set, without copying it to find out.
    let hasSubset: Bool
    /// The most violations a report keeps; the rest are only counted (see ``PreparedSchema/maxErrors``).
    let maxErrors: Int
    /// ``PreparedSchema/defaultMaxErrors``: enough for any real payload, while a hostile one (an array of a million
    /// wrong values) cannot make a report, or the memory holding it, grow without bound.
    static let defaultMaxErrors = 1_000

    init(
        schema: CompiledSchema, context: [String?], tenderType: String?, messages: MessageCatalogue = .english,
        provisioning: Bool = false, subset: FieldSubset? = nil, fingerprinter: (any ValueFingerprinter)? = nil,
        maxErrors: Int = EvaluationPlan.defaultMaxErrors
    ) {
        self.schema = schema
        self.context =
            context.count == schema.contexts.count ? context : Array(repeating: nil, count: schema.contexts.count)
        self.tenderType = tenderType
        self.messages = messages
        self.provisioning = provisioning
        ignoredForProvisioning =
            provisioning
            ? schema.program.tables.fieldObjects.map { $0.isIgnoredForProvisioning(under: tenderType) } : []
        self.subset = subset
        self.fingerprinter = fingerprinter
        self.maxErrors = max(maxErrors, 1)
        hasSubset = subset != nil
    }
}

/// A selection resolved against one compiled schema: the fields checked in full, and the objects and arrays that
/// are only walked through to reach them (built from a ``FieldSelection``).
struct FieldSubset: Sendable {
    /// What was asked for: resolved again under another context (``PreparedSchema/preparing(context:tenderType:)``).
    let selection: FieldSelection
    let selected: Set<ObjectIdentifier>
    let enclosing: Set<ObjectIdentifier>
}
