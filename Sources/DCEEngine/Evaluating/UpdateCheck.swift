/// Compares an update with the record it changes: fields that may not change, fields whose change needs
/// reverification, and violations on values that did not change (ratcheting, as Kubernetes does for its
/// resources: a rule tightened after a value was stored does not block updating the rest of the record).
struct UpdateCheck {
    /// The record after the update: the update itself when it replaces the record, the merged record otherwise.
    let record: JSONDocument
    let original: JSONDocument
    /// The tender type in force inside each value of the record whose field binds one, as validation's walk found it
    /// (``EvaluationPlan/tenderTypesInForce(in:)``).
    var boundTenderTypes: [JSONDocument.Index: String?] = [:]

    /// Violations for fields with `updatesAllowed: false` whose value changed, and the paths of changed fields that
    /// require reverification.
    func changes(
        in schema: CompiledSchema, tenderType: String?, messages: MessageCatalogue = .english
    ) -> (violations: [Violation], reverify: [String]) {
        var violations: [Violation] = []
        var reverify: [String] = []
        func visit(
            _ field: CompiledField, new: JSONDocument.Index?, old: JSONDocument.Index?, path: String,
            tenderType: String?
        ) {
            for child in field.fields {
                guard let key = child.key else { continue }
                let childPath = JSONPointer.appending(key, to: path)
                let newValue = record.value(of: child, in: new, describedBy: field)
                let oldValue = original.value(of: child, in: old, describedBy: field)
                let changed = !Self.equal(record, newValue, original, oldValue)
                let tenderType = inside(child, newValue, outside: tenderType)
                let metadata = child.metadata(for: tenderType)
                if changed && metadata.updatesAllowed == false {
                    violations.append(
                        Violation(
                            path: childPath, key: key, rule: .updateNotAllowed,
                            message: child.base.messages?.template(for: .updateNotAllowed, language: messages.language)?
                                .render(.init(name: messages.text(child.label)))
                                ?? messages.message(
                                    .updateNotAllowed, .init(name: messages.text(child.label))),
                            position: newValue.map { record.position(of: $0) } ?? new.map { record.position(of: $0) }))
                }
                if changed && metadata.reverificationRequired == true { reverify.append(childPath) }
                if child.dataType == .object {
                    visit(child, new: newValue, old: oldValue, path: childPath, tenderType: tenderType)
                }
                // A list is replaced whole; an item at a place the stored list had too is an update of that item (a
                // payment account in a profile), one past its end is added.
                if child.dataType == .array, let items = child.items, items.dataType == .object, let newValue,
                    let oldValue,
                    record.kind(of: newValue) == .array, original.kind(of: oldValue) == .array
                {
                    for (offset, (newItem, oldItem)) in zip(
                        record.elements(of: newValue), original.elements(of: oldValue)
                    ).enumerated() {
                        visit(
                            items, new: newItem, old: oldItem, path: "\(childPath)/\(offset)",
                            tenderType: inside(items, newItem, outside: tenderType))
                    }
                }
            }
        }
        /// The tender type inside a field's value: validation's for a value the record holds, else what the field binds
        /// for a missing value.
        func inside(_ field: CompiledField, _ value: JSONDocument.Index?, outside: String?) -> String? {
            schema.tenderType(inside: field, value: value, outside: outside, bound: boundTenderTypes)
        }
        visit(schema.root, new: record.root, old: original.root, path: "", tenderType: tenderType)
        return (violations, reverify)
    }

    /// Whether the value at a violation's path is the same in the record and the original (both missing counts).
    func isUnchanged(at pointer: String) -> Bool {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return false }
        return Self.equal(record, record.value(at: tokens), original, original.value(at: tokens))
    }

    /// Deep equality of two values of two documents; two missing values are equal.
    static func equal(
        _ lhs: JSONDocument, _ left: JSONDocument.Index?, _ rhs: JSONDocument, _ right: JSONDocument.Index?
    ) -> Bool {
        guard let left, let right else { return left == nil && right == nil }
        let kind = lhs.kind(of: left)
        guard kind == rhs.kind(of: right) else { return false }
        switch kind {
        case .null: return true
        case .boolean: return lhs.boolean(at: left) == rhs.boolean(at: right)
        case .number:
            return DecimalNumber(lexeme: lhs.numberLexeme(at: left))
                == DecimalNumber(lexeme: rhs.numberLexeme(at: right))
        case .string: return lhs.string(at: left) == rhs.string(at: right)
        case .array:
            let leftElements = Array(lhs.elements(of: left))
            let rightElements = Array(rhs.elements(of: right))
            return leftElements.count == rightElements.count
                && zip(leftElements, rightElements).allSatisfy { equal(lhs, $0, rhs, $1) }
        case .object:
            guard lhs.count(of: left) == rhs.count(of: right) else { return false }
            return lhs.members(of: left).allSatisfy { member in
                equal(lhs, member.value, rhs, rhs.member(lhs.string(at: member.key), of: right))
            }
        }
    }
}

extension JSONDocument {
    /// The value at a pointer's tokens, or `nil` when it does not exist.
    func value(at tokens: [String]) -> Index? {
        var current = root
        for token in tokens {
            switch kind(of: current) {
            case .object:
                guard let next = member(token, of: current) else { return nil }
                current = next
            case .array:
                guard let position = Int(token), let next = element(position, of: current) else { return nil }
                current = next
            default:
                return nil
            }
        }
        return current
    }

    /// Item `index` of an array; `nil` past its end.
    func element(_ index: Int, of array: Index) -> Index? {
        guard index >= 0, index < count(of: array) else { return nil }
        var elements = elements(of: array)
        for _ in 0..<index { _ = elements.next() }
        return elements.next()
    }
}

extension Violation {
    /// Points the violation at its value in an update that was merged into a stored record: the value's line and
    /// column when the update holds it, none when the value came from the stored record (the pointer names it).
    mutating func locate(in update: JSONDocument) {
        let position = JSONPointer.tokens(of: path).flatMap { update.value(at: $0) }.map { update.position(of: $0) }
        line = position?.line
        column = position?.column
    }
}
