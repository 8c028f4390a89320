extension CompiledSchema {
    /// Every field of the schema with what holds for it under a context and tender type, as a form sees it before
    /// anything but `given` is typed: each member of each object, and the fields of the items of every list of
    /// objects under `-` (RFC 6901's "the item after the last"), parents before their members. With `primitiveItems`,
    /// the items of a list of values too (at `path/-`, their parent the list): what a comparison of two schemas reads.
    ///
    /// - Throws: ``ValidatorError`` for an undeclared context or value, or an unknown tender type.
    package func fieldsInForce(
        context: [String: String], tenderType: String?, given: [[String]: String] = [:], primitiveItems: Bool = false
    ) throws(ValidatorError) -> [FieldInForce] {
        let start = try FormScope(
            slots: contextSlots(context, tenderType: tenderType).map(KnownValue.known), tenderType: tenderType)
        // A field's rank is its parent's rank followed by its own (order, position): nested fields stay under their group.
        var fields: [FieldInForce] = []
        func visit(
            _ field: CompiledField, path: String, tokens: [String], inheritedGroup: String?, rank: [Int],
            scope: FormScope
        ) {
            for (position, child) in field.fields.enumerated() {
                guard let key = child.key else { continue }
                let childPath = JSONPointer.appending(key, to: path)
                let childTokens = tokens + [key]
                let scope = scope.bound(by: child, at: childTokens, in: self, given: given)
                let (attributes, conditional) = formAttributes(of: child, scope: scope, at: childTokens, given: given)
                let metadata = child.metadata(for: scope.shownTenderType)
                let group = metadata.dataGroup ?? inheritedGroup
                let childRank = rank + [metadata.order ?? Int.max, position]
                fields.append(
                    FieldInForce(
                        field: child, key: key, path: childPath, tokens: childTokens, rules: attributes,
                        conditional: conditional, metadata: metadata, group: group, rank: childRank, parent: field,
                        place: position, tenderType: scope.shownTenderType))
                if child.dataType == .object {
                    visit(
                        child, path: childPath, tokens: childTokens, inheritedGroup: group, rank: childRank,
                        scope: scope)
                }
                guard child.dataType == .array, let items = child.items else { continue }
                let itemTokens = childTokens + ["-"]
                let itemScope = scope.bound(by: items, at: itemTokens, in: self, given: given)
                if items.dataType == .object {
                    visit(
                        items, path: childPath + "/-", tokens: itemTokens, inheritedGroup: group, rank: childRank,
                        scope: itemScope)
                } else if primitiveItems {
                    let (rules, conditional) = formAttributes(of: items, scope: itemScope, at: itemTokens, given: given)
                    fields.append(
                        FieldInForce(
                            field: items, key: "-", path: childPath + "/-", tokens: itemTokens, rules: rules,
                            conditional: conditional, metadata: items.metadata(for: itemScope.shownTenderType),
                            group: group, rank: childRank + [0], parent: child, place: 0,
                            tenderType: itemScope.shownTenderType))
                }
            }
        }
        visit(root, path: "", tokens: [], inheritedGroup: nil, rank: [], scope: start.derived(in: self, given: given))
        return fields
    }

    /// The attributes in force for a form, and whether a field-dependent override can make the field required.
    ///
    /// A value a field binds from one of its members is, before anything is typed, the value from outside (the
    /// member is empty); that decides the attributes. Once the member is given it may change them: an override that
    /// then depends on it makes the field conditionally required when it could require it, or when the field is
    /// required now and the override could release it.
    func formAttributes(
        of field: CompiledField, scope: FormScope, at tokens: [String] = [], given: [[String]: String] = [:]
    ) -> (Rules, Bool) {
        guard let id = program.id(of: field) else { return (field.base, false) }
        // Relative pointers climb from the objects holding the field, the innermost first.
        let containers = (0..<max(tokens.count, 1)).reversed().map { Array(tokens.prefix($0)) }
        var settled = FormConditionReader(
            schema: self, scope: scope, settled: true, containers: containers, given: given)
        var open = FormConditionReader(schema: self, scope: scope, settled: false, containers: containers, given: given)
        let (rules, undecided) = program.tables.rules(of: id, reading: &settled)
        let undecidedOnceGiven = program.tables.rules(of: id, reading: &open).undecided
        let mayRequire = (undecided + undecidedOnceGiven).contains { field.overrides[$0].patch.presence.mayRequire }
        let conditional = mayRequire || (!undecidedOnceGiven.isEmpty && field.base.presence.mustBePresent)
        return (rules, conditional && !rules.presence.mustBePresent)
    }

}

/// The contexts and tender type a form knows at one field: the caller's, with what the schema derives and the fields
/// above bind (``RuleProgram/Tables/bind(_:objectPresent:member:reading:)``). A fixed binding is known; one read
/// from a member is the value from outside while the member is empty, and open once it is given (unless it is given);
/// one a `derive` rule reads from the request is known only when the values it reads are given.
struct FormScope {
    var slots: [KnownValue]
    var tenderType: KnownValue
    /// The last tender type known on the way down, whose metadata (`dataGroup`, `order`, …) the form shows.
    var shownTenderType: String?
    /// Slots (and the tender type, `nil`) bound from a member not given yet.
    var open: Set<Int?> = []

    init(slots: [KnownValue], tenderType: String?) {
        self.slots = slots
        self.tenderType = .known(tenderType)
        self.shownTenderType = tenderType
    }

    /// The scope with the contexts the caller left out derived, as validation derives them from the request.
    func derived(in schema: CompiledSchema, given: [[String]: String]) -> FormScope {
        var reader = FormConditionReader(schema: schema, scope: self, settled: true, containers: [[]], given: given)
        schema.program.tables.deriveContexts(reading: &reader)
        return reader.scope
    }

    /// The scope inside a field's value, at `tokens`.
    func bound(by field: CompiledField, at tokens: [String], in schema: CompiledSchema, given: [[String]: String])
        -> FormScope
    {
        guard !field.bindings.isEmpty, let id = schema.program.id(of: field) else { return self }
        var reader = FormConditionReader(schema: schema, scope: self, settled: true, containers: [tokens], given: given)
        schema.program.tables.bind(
            id, objectPresent: true,
            member: { key, allowed in
                guard let value = given[tokens + [key]] else { return .notKnown }
                return allowed?.contains(value) ?? true ? .value(value) : .none
            }, reading: &reader)
        return reader.scope
    }
}

/// Conditions as a form sees them before anything is typed: the context and tender type are known; a request value
/// is known when it is given, and a context derived or bound from request values only when those are.
private struct FormConditionReader: ScopeReader {
    let schema: CompiledSchema
    var scope: FormScope
    /// Whether values bound from members are read as they stand while the members are empty (the value from
    /// outside), or as open (unknown).
    let settled: Bool
    /// The objects holding the field, by their tokens from the root, the innermost first (relative pointers climb
    /// from them), and the values given for fields.
    let containers: [[String]]
    let given: [[String]: String]

    func isEmpty(slot: Int) -> Bool { scope.slots[slot] == .known(nil) }

    mutating func set(_ slot: Int?, to value: KnownValue) {
        if let slot {
            scope.slots[slot] = value
        } else {
            if case .known(let known?) = value {
                guard schema.tenderTypes.contains(known) else { return }  // as validation: the outside one stays
                scope.shownTenderType = known
            }
            scope.tenderType = value
        }
        scope.open.remove(slot)
    }

    mutating func markOpen(_ slot: Int?) { scope.open.insert(slot) }

    func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool? {
        if !settled && scope.open.contains(slot) { return nil }
        return scope.slots[slot].passes(program.testObjects[test])
    }

    func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? {
        if !settled && scope.open.contains(nil) { return nil }
        return scope.tenderType.passes(program.testObjects[test])
    }

    /// A test on another field's value: known only when the value is given.
    func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool? {
        guard up < containers.count else { return nil }
        let target = (up < 0 ? [] : containers[up]) + Array(program.tokenTexts[tokens])
        return given[target].flatMap { program.testObjects[test].holds(forGivenText: $0) }
    }
}

/// One field of a schema and what holds for it under a context and tender type (``CompiledSchema/fieldsInForce``).
package struct FieldInForce {
    package let field: CompiledField
    /// The member name (`-` for the items of a list of values).
    package let key: String
    /// The JSON Pointer in a payload, list items as `-`.
    package let path: String
    package let tokens: [String]
    /// The rules in force: the base, the tender type's entries and the overrides that hold.
    package let rules: Rules
    /// Whether an override reading another field's value can make it required.
    package let conditional: Bool
    package let metadata: FieldMetadata
    /// The `dataGroup`, its own or its parent's.
    package let group: String?
    /// Where a form puts it: its parent's rank, then its `order` and place.
    package let rank: [Int]
    /// The object (or list) holding it, and its place among that object's fields.
    package let parent: CompiledField
    package let place: Int
    /// The tender type in force there, when one is known.
    let tenderType: String?
}
