/// The one walk over a payload against its schema outside validation's hot path: each member paired with the field of
/// its key through the object's key table (``CompiledField/keyTable``), each item with the items' field. The masked
/// copy, references between documents, what is sent, partitioning by sensitivity and the update check read a payload
/// through here; validation's walk (``Evaluation``) pairs members the same way, on the program's tables.

/// A member of an object in a payload, with the field that describes it.
struct DescribedMember {
    /// The member's name.
    let key: String
    /// The node of the member's name.
    let keyIndex: JSONDocument.Index
    /// The node of the member's value.
    let value: JSONDocument.Index
    /// The field of that key; `nil` for a member the schema does not describe.
    let field: CompiledField?
}

extension JSONDocument {
    /// The members of an object node, in document order, each with the field of `object` its key names (found by the
    /// key's bytes in the field's key table); without a field, every member is undescribed.
    func members(of index: Index, describedBy object: CompiledField?) -> [DescribedMember] {
        members(of: index).map { member in
            let field = object.flatMap { object in
                lookUpKey(at: member.key, in: object.keyTable).map { object.fields[$0] }
            }
            return DescribedMember(key: string(at: member.key), keyIndex: member.key, value: member.value, field: field)
        }
    }

    /// The value of the member an object node holds for a field of its own (the first, when a key is repeated); `nil`
    /// when the node is no object or holds none.
    func value(of field: CompiledField, in object: Index?, describedBy parent: CompiledField) -> Index? {
        guard let object, kind(of: object) == .object else { return nil }
        return members(of: object, describedBy: parent).first { $0.field === field }?.value
    }
}

extension CompiledField {
    /// Visits a payload's value described by `field` and, while `body` returns `true` for a value, the values inside
    /// it: an object's members with the field of the same key, an array's items with the items' field — `nil` where
    /// the schema describes none (a member it does not know, the items of a list where no list belongs, and everything
    /// under them). Each comes with its JSON Pointer, its key (an item's index) and whether it is an item. What masked
    /// copies and references between documents read a payload with.
    static func visit(
        _ field: CompiledField?, in document: JSONDocument, at index: JSONDocument.Index, path: String = "",
        key: String = "",
        item: Bool = false,
        _ body: (_ field: CompiledField?, _ index: JSONDocument.Index, _ path: String, _ key: String, _ item: Bool) ->
            Bool
    ) {
        guard body(field, index, path, key, item) else { return }
        switch document.kind(of: index) {
        case .object:
            for (member, value) in document.members(of: index) {
                let name = document.string(at: member)
                let child = field.flatMap { field in
                    document.lookUpKey(at: member, in: field.keyTable).map { field.fields[$0] }
                }
                visit(child, in: document, at: value, path: JSONPointer.appending(name, to: path), key: name, body)
            }
        case .array:
            for (offset, element) in document.elements(of: index).enumerated() {
                visit(
                    field?.items, in: document, at: element, path: path + "/\(offset)", key: String(offset), item: true,
                    body)
            }
        default:
            break
        }
    }
}
