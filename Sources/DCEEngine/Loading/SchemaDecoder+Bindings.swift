extension SchemaDecoder {
    // MARK: - Document references, object rules and context bindings

    /// `existsIn`: the schema id of another document and a pointer pattern into it, and what the entry holding a
    /// match must also say (`where`).
    mutating func documentReference(_ entry: Entry) -> DocumentReference? {
        guard
            let members = object(
                at: entry.index, pointer: entry.pointer, allowed: ["schema", "pointer", "where"],
                what: "a document reference"),
            let schema = string(
                members["schema"], required: true, pointer: entry.pointer + "/schema", parent: entry.index),
            let pointer = string(
                members["pointer"], required: true, pointer: entry.pointer + "/pointer", parent: entry.index)
        else { return nil }
        guard let tokens = DocumentReference.tokens(of: pointer) else {
            report(
                .invalidAttribute, "expected a JSON Pointer starting with '/' ('*' stands for every item or member)",
                members["pointer"]?.index ?? entry.index, entry.pointer + "/pointer")
            return nil
        }
        var condition: ReferenceCondition?
        if let whereEntry = members["where"] {
            guard
                let parts = object(
                    at: whereEntry.index, pointer: whereEntry.pointer, allowed: ["member", "minimum"],
                    what: "a condition on the matched entry"),
                let member = string(
                    parts["member"], required: true, pointer: whereEntry.pointer + "/member", parent: whereEntry.index)
            else { return nil }
            guard let minimumEntry = parts["minimum"] else {
                report(
                    .invalidAttribute, "expected 'minimum': the least number the member may be", whereEntry.index,
                    whereEntry.pointer + "/minimum")
                return nil
            }
            guard let minimum = number(minimumEntry) else { return nil }
            condition = ReferenceCondition(member: member, minimum: minimum)
        }
        return DocumentReference(
            location: location(entry.index, entry.pointer), schema: schema, pointer: pointer, tokens: tokens,
            condition: condition)
    }

    /// The object rules written on a field (`postalAddress`), each read by its kind, in the kinds' order.
    mutating func objectRules(_ members: [String: Entry]) -> [ObjectRuleDefinition] {
        ruleKinds.compactMap { kind in members[kind.attribute].flatMap { objectRule(kind, $0) } }
    }

    private mutating func objectRule<Kind: ObjectRuleKind>(_ kind: Kind.Type, _ entry: Entry) -> ObjectRuleDefinition? {
        guard let definition = Kind.decode(entry, with: &self) else { return nil }
        return ObjectRuleDefinition(attribute: Kind.attribute, location: location(entry.index, entry.pointer)) {
            members, object, report in
            Kind.compile(definition, members: members, object: object, report: report)
        }
    }

    /// A field's `context`: each member binds a context (or `tenderType`) to a value, to a member of the field's
    /// object (`{"member": NAME}`), or to the first of its `derive` rules that holds.
    mutating func bindings(_ entry: Entry?) -> [ContextBinding] {
        guard let entry,
            let members = object(
                at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of context bindings")
        else { return [] }
        var bindings: [ContextBinding] = []
        for (name, member) in members.sorted(by: { $0.value.index < $1.value.index }) {
            let here = location(member.index, member.pointer)
            if document.kind(of: member.index) == .string {
                bindings.append(
                    ContextBinding(location: here, name: name, source: .value(document.string(at: member.index))))
                continue
            }
            guard
                let source = object(
                    at: member.index, pointer: member.pointer, allowed: ["member", "derive"],
                    what: "a value, {member} or {derive}")
            else { continue }
            if let key = source["member"], source.count == 1 {
                guard let text = string(key, pointer: key.pointer) else { continue }
                bindings.append(ContextBinding(location: here, name: name, source: .member(text)))
            } else if let rules = source["derive"], source.count == 1 {
                bindings.append(ContextBinding(location: here, name: name, source: .derive(deriveRules(rules))))
            } else {
                report(
                    .invalidAttribute, "a context binding is a value, {\"member\": NAME} or {\"derive\": [...]}",
                    member.index, member.pointer)
            }
        }
        return bindings
    }
}

extension SchemaDecoder: AttributeReader {
    mutating func members(of entry: AttributeEntry, allowed: [String]?, what: String)
        -> [(key: String, entry: AttributeEntry)]?
    {
        object(at: entry.index, pointer: entry.pointer, allowed: allowed, what: what)?
            .sorted { $0.value.index < $1.value.index }.map { ($0.key, $0.value) }
    }

    mutating func string(_ entry: AttributeEntry?, named name: String, required: Bool, in parent: AttributeEntry)
        -> String?
    {
        string(
            entry, required: required, pointer: entry?.pointer ?? JSONPointer.appending(name, to: parent.pointer),
            parent: parent.index)
    }

    mutating func strings(_ entry: AttributeEntry) -> [String]? { stringList(entry, pointer: entry.pointer) }

    func location(of entry: AttributeEntry) -> SchemaLocation { location(entry.index, entry.pointer) }
}
