/// The rules in force, worked out once: which contexts the request derives, what the fields on the way bind, which
/// overrides hold at a field, and whether provisioning skips it. Validation's walk (every value of a document known)
/// and the forms (the form description, the as-you-type check, a step's field selection: values given as text known,
/// the rest unknown, ``GivenValuesReader``) all take these steps through here: none of them evaluates a `derive`
/// rule, a binding, a provisioning skip or an override itself.
///
/// The order, at each field on the way down: its own bindings (``RuleProgram/Tables/bind(_:objectPresent:reading:)``),
/// which hold for the field itself and everything inside it; then, under the tender type now in force, whether
/// provisioning skips it, and which of its overrides hold (``RuleProgram/Tables/ruling(of:provisioning:reading:)``).
/// The contexts the caller left empty are derived once, at the root (``RuleProgram/Tables/deriveContexts(reading:)``).
/// A tender type bound from a member is one the schema declares: the compiler gives a member binding the declared
/// values as its `allowed`, and refuses any other fixed or derived value.

/// What is known of a context value or of the tender type at one place of a request.
package enum KnownValue: Equatable, Sendable {
    /// Known: a value, or `nil` when none is supplied, derived or bound.
    case known(String?)
    /// It depends on request values that are not known (a field of a form not filled in yet).
    case unknown

    /// Whether the value passes a test, or `nil` when it is not known.
    package func passes(_ test: CompiledTest) -> Bool? {
        switch self {
        case .known(let value): test.holds(forContext: value)
        case .unknown: nil
        }
    }

    /// The value when it is known (`.some(nil)`: known to be absent); `nil` when it is unknown.
    package var known: String?? {
        switch self {
        case .known(let value): value
        case .unknown: nil
        }
    }
}

/// What a member binding reads of the field's object.
package enum MemberReading {
    /// The member holds one of the allowed values: it is bound.
    case value(String)
    /// The member is missing, or holds no allowed value: the value from outside stays.
    case none
    /// The member is not known yet (a form's field not filled in): the value from outside stays while it is empty,
    /// and may change once it is given.
    case notKnown
}

/// A reader of conditions that also keeps the contexts and tender type in force where it reads: what the resolver's
/// steps read and set.
package protocol ScopeReader: ConditionReader {
    /// Whether context slot `slot` is still empty (neither supplied nor derived), so that a `derive` rule may fill it.
    mutating func isEmpty(slot: Int) -> Bool
    /// Sets context slot `slot`, or the tender type (`nil`), to a derived or bound value.
    mutating func set(_ slot: Int?, to value: KnownValue)
    /// Marks context slot `slot`, or the tender type (`nil`), as bound from a member not known yet.
    mutating func markOpen(_ slot: Int?)
    /// The tender type in force where the reader reads.
    mutating func tenderTypeInForce() -> KnownValue
    /// What member `key` of the object being bound holds, for a member binding that accepts `allowed` (`nil`: any
    /// string). Asked only while the object is present.
    mutating func member(_ key: String, allowed: [String]?) -> MemberReading
}

extension ScopeReader {
    package mutating func markOpen(_ slot: Int?) {}
}

extension RuleProgram.Tables {
    /// Fills each context the caller left empty from the first of its `derive` rules that holds, slot by slot in the
    /// order the schema declares them; a slot stays unknown when a rule before the first that holds cannot be decided.
    package func deriveContexts<Reader: ScopeReader>(reading reader: inout Reader) {
        var index = 0
        while index < derive.count {
            let slot = derive[index].slot
            var end = index + 1
            while end < derive.count && derive[end].slot == slot { end += 1 }
            if reader.isEmpty(slot: slot) {
                switch decidingRule(among: end - index, from: deriveConditions + index, reading: &reader) {
                case .rule(let offset): reader.set(slot, to: .known(derive[index + offset].value))
                case .unknown: reader.set(slot, to: .unknown)
                case .none: break
                }
            }
            index = end
        }
    }

    /// Applies what field `field` binds for its value and everything inside it, in order: a fixed value; a member of
    /// its object (``ScopeReader/member(_:allowed:)``); the first `derive` rule that holds, read from its object (the
    /// last two only when `objectPresent`: a missing or non-object value binds nothing that way). When a binding finds
    /// no value, the value from outside stays.
    package func bind<Reader: ScopeReader>(_ field: Int, objectPresent: Bool, reading reader: inout Reader) {
        var condition = fields[field].bindingConditions
        for binding in fieldObjects[field].bindings {
            switch binding.source {
            case .value(let fixed):
                reader.set(binding.slot, to: .known(fixed))
            case .member(let key, let allowed):
                guard objectPresent else { continue }
                switch reader.member(key, allowed: allowed) {
                case .value(let value): reader.set(binding.slot, to: .known(value))
                case .none: break
                case .notKnown: reader.markOpen(binding.slot)
                }
            case .derive(let rules):
                defer { condition += rules.count }
                guard objectPresent else { continue }
                switch decidingRule(among: rules.count, from: condition, reading: &reader) {
                case .rule(let offset): reader.set(binding.slot, to: .known(rules[offset].value))
                case .unknown: reader.set(binding.slot, to: .unknown)
                case .none: break
                }
            }
        }
    }

    /// What holds at field `field` where `reader` reads, its bindings already applied: whether provisioning skips it
    /// (under the tender type in force, when `provisioning`), and else which of its overrides hold.
    package func ruling<Reader: ScopeReader>(of field: Int, provisioning: Bool, reading reader: inout Reader)
        -> FieldRuling
    {
        let tenderType = reader.tenderTypeInForce()
        let skipped =
            provisioning ? tenderType.known.map { fieldObjects[field].isIgnoredForProvisioning(under: $0) } : false
        guard skipped != true else { return FieldRuling(tenderType: tenderType, skipped: true, overrides: []) }
        return FieldRuling(tenderType: tenderType, skipped: skipped, overrides: truths(of: field, reading: &reader))
    }

    /// Whether each of a field's overrides holds where `reader` reads (`nil`: it cannot be decided there).
    package func truths<Reader: ConditionReader>(of field: Int, reading reader: inout Reader) -> [Bool?] {
        var truths: [Bool?] = []
        for condition in fields[field].overrides { truths.append(truth(of: condition, reading: &reader)) }
        return truths
    }

    /// Which of a field's overrides hold, as a bitmask (bit *i* for override *i*): the index of its precomputed
    /// attributes (validation's hot path, where every condition is decided).
    @inline(__always)
    func overrideMask<Reader: ConditionReader>(_ overrides: Range<Int>, reading reader: inout Reader) -> Int {
        var mask = 0
        for condition in overrides where truth(of: condition, reading: &reader) == true {
            mask |= 1 << (condition - overrides.lowerBound)
        }
        return mask
    }
}

/// What the resolver decided at one field (``RuleProgram/Tables/ruling(of:provisioning:reading:)``): the answer every
/// consumer of the rules in force gives, and what ``RulesInForceAgreementTests`` holds them to.
package struct FieldRuling: Equatable, Sendable {
    /// The tender type in force at the field, its own bindings applied.
    package var tenderType: KnownValue
    /// Whether provisioning skips the field and everything inside it; `nil` when the tender type that decides it is
    /// not known.
    package var skipped: Bool?
    /// Each of the field's overrides, in order: it holds (`true`), it does not (`false`), or it cannot be decided
    /// (`nil`: it reads a value not known yet). Empty when the field is skipped.
    package var overrides: [Bool?]

    package init(tenderType: KnownValue, skipped: Bool?, overrides: [Bool?]) {
        self.tenderType = tenderType
        self.skipped = skipped
        self.overrides = overrides
    }

    /// The field's rules: its base, then each override that holds.
    package func rules(of field: CompiledField) -> Rules { field.rules(holding: { overrides[$0] == true }) }

    /// The places of the overrides that cannot be decided.
    package var undecided: [Int] { overrides.indices.filter { overrides[$0] == nil } }
}

extension CompiledField {
    /// The field's rules where the overrides `holds` picks (by their place) hold: the base, then each of those in the
    /// order written, a tender type's entries first. Every consumer lays overrides on top of each other here: the
    /// compiler's precomputed sets, the resolver, a default's check and the export's cases.
    static func rules(_ base: Rules, _ overrides: [CompiledOverride], holding holds: (Int) -> Bool) -> Rules {
        overrides.indices.reduce(base) { holds($1) ? $0.overlaid(with: overrides[$1].patch) : $0 }
    }

    /// This field's rules where the overrides `holds` picks hold (``rules(_:_:holding:)``).
    package func rules(holding holds: (Int) -> Bool) -> Rules { Self.rules(base, overrides, holding: holds) }

    /// Whether provisioning skips this field, and everything inside it, under a tender type (`ignoreForProvisioning`).
    package func isIgnoredForProvisioning(under tenderType: String?) -> Bool {
        metadata(for: tenderType).ignoreForProvisioning == true
    }
}

extension CompiledSchema {
    /// The one context the engine itself reads: `operation=provision` says the request provisions a new account,
    /// where the fields marked `ignoreForProvisioning` are neither checked nor sent. The caller gives it: a schema
    /// may not derive or bind it (``RuleCompiler``), since whether a field is checked cannot wait for the payload.
    static let provisioningContext = (name: "operation", value: "provision")

    /// Whether a context says the request provisions a new account (``provisioningContext``).
    static func isProvisioning(_ context: [String: String]) -> Bool {
        context[provisioningContext.name] == provisioningContext.value
    }

    /// Whether context values by slot say the request provisions a new account (``isProvisioning(_:)``).
    package func isProvisioning(slots: [String?]) -> Bool {
        guard let slot = contextSlots[Self.provisioningContext.name], slots.indices.contains(slot) else { return false }
        return slots[slot] == Self.provisioningContext.value
    }
}

extension CompiledSchema {
    /// The tender type inside a field's value (what its own metadata, defaults and provisioning skip follow, as its
    /// rules do): validation's walk's for a value it reached (`bound`, ``EvaluationPlan/tenderTypesInForce(in:)``),
    /// else what the field binds for a missing value; the one from outside for a field that binds none.
    func tenderType(
        inside field: CompiledField, value: JSONDocument.Index?, outside: String?,
        bound: [JSONDocument.Index: String?]
    ) -> String? {
        guard !field.bindings.isEmpty else { return outside }
        if let value, let found = bound[value] { return found }
        return tenderType(bindingMissing: field, outside: outside)
    }

    /// The tender type inside a field whose value is missing: what it binds without reading a value (a fixed tender
    /// type), as validation's walk binds it for a missing field; else the one from outside.
    func tenderType(bindingMissing field: CompiledField, outside: String?) -> String? {
        guard !field.bindings.isEmpty, let id = program.id(of: field) else { return outside }
        var reader = GivenValuesReader(
            schema: self, scope: KnownScope(slots: contexts.map { _ in .unknown }, tenderType: outside))
        program.tables.bind(id, objectPresent: false, reading: &reader)
        return reader.scope.tenderType.known ?? outside
    }
}

/// How a context, or the tender type, gets its value at one place of a request, as a structure instead of a value:
/// what the JSON Schema export translates, since it sees no request. The steps are those validation, forms and typing
/// take (``RuleProgram/Tables/bind(_:objectPresent:reading:)``, ``RuleProgram/Tables/deriveContexts(reading:)``):
/// the innermost binding of the slot on the way decides, and when it finds no value the one outside it stays; outside
/// every binding, the caller's value, else the first of the schema's `derive` rules that holds.
package indirect enum ValueSource {
    /// A value decided without reading the request: given by the caller, fixed by a binding, or none (`nil`).
    case value(String?)
    /// The first rule whose condition holds gives the value, read from the object at `anchor` (the keys from the
    /// root, `*` for an item; `nil`: the root, for a context's own rules); `otherwise` when none holds.
    case firstHolding([(condition: CompiledCondition, value: String)], anchor: [String]?, otherwise: ValueSource)
    /// The member `key` of the object at `anchor` gives the value when it holds a string among `allowed` (`nil`: any
    /// string); `otherwise` when it does not.
    case member(String, allowed: [String]?, anchor: [String], otherwise: ValueSource)
}

/// The bindings of the fields on the way to the place being looked at, innermost last, with the path of each bound
/// field's object: where a member or a `derive` rule reads (``ValueSource``).
package struct BindingScopes {
    private var entries: [(slot: Int?, source: CompiledBinding.Source, anchor: [String])] = []

    /// No bindings yet: the outermost object's scope.
    package init() {}

    /// Enters a field's value: its bindings hold inside it, read from the object at `anchor`.
    package mutating func enter(_ field: CompiledField, anchor: [String]) {
        entries.append(contentsOf: field.bindings.map { ($0.slot, $0.source, anchor) })
    }

    /// Leaves the field entered last.
    package mutating func leave(_ field: CompiledField) {
        entries.removeLast(field.bindings.count)
    }

    /// How context slot `slot`, or the tender type (`nil`), gets its value here, given the caller's context values
    /// by slot and tender type.
    package func source(of slot: Int?, in schema: CompiledSchema, context: [String?], tenderType: String?)
        -> ValueSource
    {
        source(of: slot, below: entries.count, in: schema, context: context, tenderType: tenderType)
    }

    private func source(
        of slot: Int?, below limit: Int, in schema: CompiledSchema, context: [String?], tenderType: String?
    ) -> ValueSource {
        guard let index = entries[..<limit].lastIndex(where: { $0.slot == slot }) else {
            guard let slot else { return .value(tenderType) }
            if let value = context[slot] { return .value(value) }
            return .firstHolding(schema.contexts[slot].derive, anchor: nil, otherwise: .value(nil))
        }
        let entry = entries[index]
        let outer = { source(of: slot, below: index, in: schema, context: context, tenderType: tenderType) }
        switch entry.source {
        case .value(let value): return .value(value)
        case .member(let key, let allowed):
            return .member(key, allowed: allowed, anchor: entry.anchor, otherwise: outer())
        case .derive(let rules): return .firstHolding(rules, anchor: entry.anchor, otherwise: outer())
        }
    }
}
