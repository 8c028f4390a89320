extension CompiledSchema {
    /// Every field of the schema with what holds for it under a context and tender type, as a form sees it before
    /// anything but `given` is typed: each member of each object, and the fields of the items of every list of
    /// objects under `-` (RFC 6901's "the item after the last"), parents before their members. With `primitiveItems`,
    /// the items of a list of values too (at `path/-`, their parent the list): what a comparison of two schemas reads.
    ///
    /// With `reads`, the given values read are recorded, but for those the contexts are derived from: what the
    /// fields depend on is those values and the derived scope (``formScope(context:tenderType:given:)``).
    ///
    /// - Throws: ``ValidatorError`` for an undeclared context or value, or an unknown tender type.
    package func fieldsInForce(
        context: [String: String], tenderType: String?, given: [[String]: String] = [:], primitiveItems: Bool = false,
        reads: GivenReads? = nil
    ) throws(ValidatorError) -> [FieldInForce] {
        let start = try formScope(context: context, tenderType: tenderType, given: given)
        // A field's rank is its parent's rank followed by its own (order, position): nested fields stay under their group.
        var fields: [FieldInForce] = []
        func visit(
            _ field: CompiledField, path: String, tokens: [String], inheritedGroup: String?, rank: [Int],
            scope: KnownScope
        ) {
            for (position, child) in field.fields.enumerated() {
                guard let key = child.key else { continue }
                let childPath = JSONPointer.appending(key, to: path)
                let childTokens = tokens + [key]
                let scope = self.scope(scope, boundBy: child, at: childTokens, given: given, reads: reads)
                let (attributes, conditional, ruling) = formAttributes(
                    of: child, scope: scope, at: childTokens, given: given, reads: reads)
                let metadata = child.metadata(for: scope.shownTenderType)
                let group = metadata.dataGroup ?? inheritedGroup
                let childRank = rank + [metadata.order ?? Int.max, position]
                fields.append(
                    FieldInForce(
                        field: child, key: key, path: childPath, tokens: childTokens, rules: attributes,
                        conditional: conditional, metadata: metadata, group: group, rank: childRank, parent: field,
                        place: position, tenderType: scope.shownTenderType, ruling: ruling))
                if child.dataType == .object {
                    visit(
                        child, path: childPath, tokens: childTokens, inheritedGroup: group, rank: childRank,
                        scope: scope)
                }
                guard child.dataType == .array, let items = child.items else { continue }
                let itemTokens = childTokens + ["-"]
                let itemScope = self.scope(scope, boundBy: items, at: itemTokens, given: given, reads: reads)
                if items.dataType == .object {
                    visit(
                        items, path: childPath + "/-", tokens: itemTokens, inheritedGroup: group, rank: childRank,
                        scope: itemScope)
                } else if primitiveItems {
                    let (rules, conditional, ruling) = formAttributes(
                        of: items, scope: itemScope, at: itemTokens, given: given, reads: reads)
                    fields.append(
                        FieldInForce(
                            field: items, key: "-", path: childPath + "/-", tokens: itemTokens, rules: rules,
                            conditional: conditional, metadata: items.metadata(for: itemScope.shownTenderType),
                            group: group, rank: childRank + [0], parent: child, place: 0,
                            tenderType: itemScope.shownTenderType, ruling: ruling))
                }
            }
        }
        visit(root, path: "", tokens: [], inheritedGroup: nil, rank: [], scope: start)
        return fields
    }

    /// The contexts and tender type a form starts from: the caller's, with what the schema derives from the values
    /// given.
    ///
    /// - Throws: ``ValidatorError`` for an undeclared context or value, or an unknown tender type.
    package func formScope(context: [String: String], tenderType: String?, given: [[String]: String])
        throws(ValidatorError) -> KnownScope
    {
        let start = try KnownScope(
            slots: contextSlots(context, tenderType: tenderType).map(KnownValue.known), tenderType: tenderType)
        return derived(start, given: given)
    }

    /// The attributes in force for a form, and whether a field-dependent override can make the field required.
    ///
    /// A value a field binds from one of its members is, before anything is typed, the value from outside (the
    /// member is empty); that decides the attributes. Once the member is given it may change them: an override that
    /// then depends on it makes the field conditionally required when it could require it, or when the field is
    /// required now and the override could release it.
    func formAttributes(
        of field: CompiledField, scope: KnownScope, at tokens: [String] = [], given: [[String]: String] = [:],
        reads: GivenReads? = nil
    ) -> (rules: Rules, conditional: Bool, ruling: FieldRuling) {
        guard let id = program.id(of: field) else {
            return (field.base, false, FieldRuling(tenderType: scope.tenderType, skipped: false, overrides: []))
        }
        let containers = GivenValuesReader.holders(of: tokens)
        var settled = GivenValuesReader(
            schema: self, scope: scope, containers: containers, given: given, reads: reads)
        var open = GivenValuesReader(
            schema: self, scope: scope, settled: false, containers: containers, given: given, reads: reads)
        let ruling = program.tables.ruling(of: id, provisioning: false, reading: &settled)
        let rules = ruling.rules(of: field)
        let undecidedOnceGiven = program.tables.ruling(of: id, provisioning: false, reading: &open).undecided
        let mayRequire = (ruling.undecided + undecidedOnceGiven).contains {
            field.overrides[$0].patch.presence.mayRequire
        }
        let conditional = mayRequire || (!undecidedOnceGiven.isEmpty && field.base.presence.mustBePresent)
        return (rules, conditional && !rules.presence.mustBePresent, ruling)
    }

    /// The scope with the contexts the caller left out derived, as validation derives them from the request.
    func derived(_ scope: KnownScope, given: [[String]: String]) -> KnownScope {
        var reader = GivenValuesReader(schema: self, scope: scope, given: given)
        program.tables.deriveContexts(reading: &reader)
        return reader.scope
    }

    /// The scope inside a field's value, at `tokens`: what it binds applied.
    func scope(
        _ scope: KnownScope, boundBy field: CompiledField, at tokens: [String], given: [[String]: String],
        reads: GivenReads? = nil
    ) -> KnownScope {
        guard !field.bindings.isEmpty, let id = program.id(of: field) else { return scope }
        var reader = GivenValuesReader(schema: self, scope: scope, containers: [tokens], given: given, reads: reads)
        program.tables.bind(id, objectPresent: true, reading: &reader)
        return reader.scope
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
    /// What the resolver decided there (a form's reading: no provisioning skip, members not given read as empty).
    package let ruling: FieldRuling
}
