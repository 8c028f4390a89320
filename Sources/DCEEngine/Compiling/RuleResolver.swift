/// The rules in force, worked out once: which contexts the request derives, what the fields on the way bind, which
/// overrides hold at a field, and whether provisioning skips it. Validation's walk (every value known), the form
/// description and the as-you-type check (given values known, the rest unknown) all take these steps through here,
/// each with its own ``ScopeReader``: none of them evaluates a `derive` rule, a binding or an override itself.

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
    /// its object (`member` reads it); the first `derive` rule that holds, read from its object (only when
    /// `objectPresent`: a missing or non-object value binds nothing that way). When a binding finds no value, the value
    /// from outside stays.
    package func bind<Reader: ScopeReader>(
        _ field: Int, objectPresent: Bool, member: (_ key: String, _ allowed: [String]?) -> MemberReading,
        reading reader: inout Reader
    ) {
        var condition = fields[field].bindingConditions
        for binding in fieldObjects[field].bindings {
            switch binding.source {
            case .value(let fixed):
                reader.set(binding.slot, to: .known(fixed))
            case .member(let key, let allowed):
                switch member(key, allowed) {
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

    /// A field's rules where `reader` reads: the base, then each override whose condition holds, in order; with the
    /// overrides whose condition cannot be decided (never any for a whole payload).
    package func rules<Reader: ConditionReader>(of field: Int, reading reader: inout Reader) -> (
        rules: Rules, undecided: [Int]
    ) {
        var truths: [Bool?] = []
        for condition in fields[field].overrides { truths.append(truth(of: condition, reading: &reader)) }
        return (fieldObjects[field].rules(holding: { truths[$0] == true }), truths.indices.filter { truths[$0] == nil })
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
    /// The tender type inside a field whose value is missing: what it binds without reading a value (a fixed tender
    /// type), as validation's walk binds it for a missing field; else the one from outside.
    func tenderType(bindingMissing field: CompiledField, outside: String?) -> String? {
        guard !field.bindings.isEmpty, let id = program.id(of: field) else { return outside }
        var reader = NothingKnownReader(tenderTypes: tenderTypes, tenderType: outside)
        program.tables.bind(id, objectPresent: false, member: { _, _ in .none }, reading: &reader)
        return reader.tenderType
    }
}

/// A reader with no value to read: every test is unknown; it keeps the tender type a binding sets.
private struct NothingKnownReader: ScopeReader {
    let tenderTypes: [String]
    var tenderType: String?

    func isEmpty(slot: Int) -> Bool { false }

    mutating func set(_ slot: Int?, to value: KnownValue) {
        if slot == nil, case .known(let known?) = value, tenderTypes.contains(known) { tenderType = known }
    }

    func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool? { nil }
    func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? { nil }
    func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool? { nil }
}

/// How a context, or the tender type, gets its value at one place of a request, as a structure instead of a value:
/// what the JSON Schema export translates, since it sees no request. The steps are those validation, forms and typing
/// take (``RuleProgram/Tables/bind(_:objectPresent:member:reading:)``, ``RuleProgram/Tables/deriveContexts(reading:)``):
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
