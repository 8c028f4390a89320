/// Part of a schema's fields, for validating one step of a form: whole `dataGroup`s, or fields by the JSON
/// Pointer of their place in the request (`/deliveryAddress/postalCode`; an array's items are inside the array).
///
/// ```swift
/// let cardStep = try prepared.restricted(to: .dataGroups(["CARD_INFORMATION"]))
/// let report = cardStep.validate(json: draft)   // only those fields; cross-field conditions still read the whole draft
/// ```
public struct FieldSelection: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case dataGroups(Set<String>)
        case pointers(Set<String>)
    }

    let kind: Kind

    /// The fields of these data groups. A field without its own `dataGroup` belongs to its parent's.
    ///
    /// - Parameter groups: The `dataGroup` names.
    /// - Returns: The selection.
    public static func dataGroups(_ groups: [String]) -> FieldSelection {
        FieldSelection(kind: .dataGroups(Set(groups)))
    }

    /// These fields, with everything inside them.
    ///
    /// - Parameter pointers: Each field's place in the request, as a JSON Pointer without array indexes.
    /// - Returns: The selection.
    public static func fields(_ pointers: [String]) -> FieldSelection { FieldSelection(kind: .pointers(Set(pointers))) }
}

extension FieldSubset {
    /// Resolves a selection; a group or pointer that names nothing is a mistake in the call.
    ///
    /// A field's group is the one its form shows (``CompiledSchema/fieldsInForce(context:tenderType:given:primitiveItems:)``):
    /// its tender type's entry under the tender type in force there (a field above may bind it), else its own,
    /// else its parent's; so a step of a form validates what the form description puts in that step.
    init(_ selection: FieldSelection, in schema: CompiledSchema, context: [String: String], tenderType: String?)
        throws(ValidatorError)
    {
        var selected: Set<ObjectIdentifier> = []
        var enclosing: Set<ObjectIdentifier> = []
        var matched: Set<String> = []
        var groups: Set<String> = []
        var pointers: Set<String> = []
        // Parents come before their members: a field inside a selected one is checked with it.
        for entry in try schema.fieldsInForce(context: context, tenderType: tenderType, primitiveItems: true) {
            let pointer = entry.tokens.filter { $0 != "-" }.reduce("") { JSONPointer.appending($1, to: $0) }
            if let group = entry.group { groups.insert(group) }
            if entry.key != "-" { pointers.insert(pointer) }
            let hit: String? =
                switch selection.kind {
                case .dataGroups(let names): entry.group.flatMap { names.contains($0) ? $0 : nil }
                case .pointers(let names): entry.key != "-" && names.contains(pointer) ? pointer : nil
                }
            guard let hit else { continue }
            matched.insert(hit)
            let above = schema.fields(along: entry.tokens).dropLast().map(ObjectIdentifier.init)
            guard !above.contains(where: selected.contains) else { continue }
            selected.insert(ObjectIdentifier(entry.field))
            enclosing.formUnion(above)
        }

        let (asked, known, what) =
            switch selection.kind {
            case .dataGroups(let names): (names, groups, "data group")
            case .pointers(let names): (names, pointers, "field")
            }
        if let missing = asked.subtracting(matched).sorted().first {
            throw ValidatorError(
                code: .unknownField,
                message:
                    "schema '\(schema.id)' has no \(what) '\(missing)'\(Suggestion.hint(for: missing, in: known.sorted()))"
            )
        }
        self.selection = selection
        self.selected = selected
        self.enclosing = enclosing
    }
}
