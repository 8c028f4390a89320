/// What every evaluation of one prepared schema reads and none changes, built once per ``PreparedSchema``.
///
/// An evaluation points at its plan (and the plan's schema) `unowned(unsafe)`, so validating a payload takes no
/// reference count on these shared objects: when two threads validate at once, every such count is an atomic
/// write to a cache line both cores want, which made each thread about 30 % slower than alone.
///
/// `@unchecked Sendable`: the buffers are written only by `init`.
final class EvaluationPlan: @unchecked Sendable {
    let schema: CompiledSchema
    /// Context values by slot, as the caller supplied them.
    let context: [String?]
    let tenderType: String?
    /// The language of the messages.
    let messages: MessageCatalogue
    /// Whether the operation is provisioning a new account (context `operation=provision`): fields marked
    /// `ignoreForProvisioning` are not checked.
    let provisioning: Bool
    /// When set, only these fields are checked (one step of a form); the objects around them are walked through.
    let subset: FieldSubset?
    /// Names rejected values in violations, when set.
    let fingerprinter: (any ValueFingerprinter)?
    /// Whether `subset` is set, without copying it to find out.
    let hasSubset: Bool
    /// The schema's root field, unmanaged (the schema keeps it alive).
    let root: Unmanaged<CompiledField>
    /// Every context's `derive` rules in order (the numbering of ``deriveProgram``): the slot each fills, and
    /// with what.
    let derive: UnsafeMutableBufferPointer<(slot: Int, value: String)>
    let deriveProgram: Unmanaged<ConditionProgram>
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
        self.context = context.count == schema.contexts.count ? context : Array(repeating: nil, count: schema.contexts.count)
        self.tenderType = tenderType
        self.messages = messages
        self.provisioning = provisioning
        self.subset = subset
        self.fingerprinter = fingerprinter
        self.maxErrors = max(maxErrors, 1)
        hasSubset = subset != nil
        root = Unmanaged.passUnretained(schema.root)
        let rules = schema.contexts.enumerated().flatMap { slot, definition in definition.derive.map { (slot: slot, value: $0.value) } }
        derive = .allocate(capacity: rules.count)
        _ = derive.initialize(from: rules)
        deriveProgram = Unmanaged.passUnretained(schema.deriveProgram)
    }

    deinit {
        derive.deinitialize()
        derive.deallocate()
    }
}

/// A selection resolved against one compiled schema: the fields checked in full, and the objects and arrays that
/// are only walked through to reach them (built from a ``FieldSelection``).
struct FieldSubset: Sendable {
    let selected: Set<ObjectIdentifier>
    let enclosing: Set<ObjectIdentifier>
}
