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
    init(_ selection: FieldSelection, in schema: CompiledSchema, tenderType: String?) throws(ValidatorError) {
        var selected: Set<ObjectIdentifier> = []
        var enclosing: Set<ObjectIdentifier> = []
        var matched: Set<String> = []
        var groups: Set<String> = []
        var pointers: Set<String> = []

        /// Visits a field's descendants; returns whether any of them is selected.
        func visit(_ field: CompiledField, pointer: String, group: String?) -> Bool {
            var below = false
            let children = field.fields + (field.items.map { [$0] } ?? [])
            for child in children {
                let childPointer = child.key.map { JSONPointer.appending($0, to: pointer) } ?? pointer
                let childGroup = child.metadata(for: tenderType).dataGroup ?? group
                if let childGroup { groups.insert(childGroup) }
                if child.key != nil { pointers.insert(childPointer) }
                let hit: String? =
                    switch selection.kind {
                    case .dataGroups(let names): childGroup.flatMap { names.contains($0) ? $0 : nil }
                    case .pointers(let names): child.key != nil && names.contains(childPointer) ? childPointer : nil
                    }
                if let hit {
                    matched.insert(hit)
                    selected.insert(ObjectIdentifier(child))
                    below = true
                } else if visit(child, pointer: childPointer, group: childGroup) {
                    enclosing.insert(ObjectIdentifier(child))
                    below = true
                }
            }
            return below
        }
        _ = visit(schema.root, pointer: "", group: schema.root.metadata(for: tenderType).dataGroup)

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
        self.selected = selected
        self.enclosing = enclosing
    }
}
