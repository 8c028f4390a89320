/// What fields' `existsIn` check a payload against: the values another document holds at each referenced pointer,
/// read once by ``PreparedSchema/relating(_:)`` and shared by every validation after it.
struct RelatedValues: Sendable {
    /// By ``DocumentReference/key``: each string there as `s` + its text, each number as `n` + its lexeme.
    var byReference: [String: Set<String>] = [:]
    /// By ``DocumentReference/key``, for a reference with a `where`: the values found only in entries that fail it.
    var failingCondition: [String: Set<String>] = [:]

    var isEmpty: Bool { byReference.isEmpty }

    /// The values at a pointer pattern of a document (`*` takes every element of an array and every member of an
    /// object): those whose entry meets `condition` (all, without one), and those found only in entries that do not.
    static func values(in document: JSONDocument, at tokens: [String?], condition: ReferenceCondition? = nil) -> (
        found: Set<String>, failing: Set<String>
    ) {
        var found: Set<String> = []
        var failing: Set<String> = []
        func visit(_ index: JSONDocument.Index, _ rest: ArraySlice<String?>, holds: Bool) {
            guard let token = rest.first else {
                if let key = comparable(document, index) {
                    if holds { found.insert(key) } else { failing.insert(key) }
                }
                return
            }
            // The last step names the matched value's member: the object it is taken from is the entry judged.
            let holdsHere = rest.count == 1 && token != nil ? holds && meets(condition, document, index) : holds
            switch document.kind(of: index) {
            case .array where token == nil:
                for element in document.elements(of: index) { visit(element, rest.dropFirst(), holds: holdsHere) }
            case .object:
                for (key, value) in document.members(of: index) where token == nil || document.string(at: key) == token
                {
                    visit(value, rest.dropFirst(), holds: holdsHere)
                }
            default:
                break
            }
        }
        visit(document.root, tokens[...], holds: true)
        return (found, failing.subtracting(found))
    }

    /// Whether an object meets a reference's condition: its member is a number of at least the minimum (no
    /// condition: always).
    private static func meets(
        _ condition: ReferenceCondition?, _ document: JSONDocument, _ object: JSONDocument.Index
    ) -> Bool {
        guard let condition else { return true }
        guard document.kind(of: object) == .object,
            let value = document.members(of: object).first(where: { document.string(at: $0.key) == condition.member }
            )?.value, document.kind(of: value) == .number
        else { return false }
        return DecimalNumber(lexeme: document.numberLexeme(at: value)) >= condition.minimum
    }

    /// How a value is compared with another document's: strings by their text, numbers by their lexeme; `nil` for
    /// anything else.
    static func comparable(_ document: JSONDocument, _ index: JSONDocument.Index) -> String? {
        switch document.kind(of: index) {
        case .string: "s" + document.string(at: index)
        case .number: "n" + document.numberLexeme(at: index)
        default: nil
        }
    }
}

extension CompiledSchema {
    /// Every document reference (`existsIn`) of the schema's fields, once each, in the order written.
    var documentReferences: [DocumentReference] {
        var found: [DocumentReference] = []
        func visit(_ field: CompiledField) {
            if let reference = field.existsIn, !found.contains(reference) { found.append(reference) }
            field.fields.forEach(visit)
            field.items.map(visit)
        }
        visit(root)
        return found
    }

    /// The violations of a payload's values that the related documents do not hold, in the catalogue's language.
    func referenceViolations(
        _ document: JSONDocument, related: RelatedValues, messages: MessageCatalogue, positions: Bool
    ) -> [Violation] {
        var violations: [Violation] = []
        CompiledField.visit(root, in: document, at: document.root) { field, index, path, key, _ in
            guard let field else { return false }
            if let reference = field.existsIn, let values = related.byReference[reference.key],
                let value = RelatedValues.comparable(document, index), !values.contains(value)
            {
                let name = messages.text(field.label)
                var parameters = MessageParameters(name: name, pattern: reference.pointer, detail: reference.schema)
                let message: String
                if let condition = reference.condition, related.failingCondition[reference.key]?.contains(value) == true
                {
                    // Found, but only in entries that do not allow it: its own message (a field's own existsIn
                    // message is for a value not found).
                    parameters.expected = condition.member
                    parameters.min = condition.minimum.lexeme
                    message = messages.message(.existsIn, variant: "where", parameters)
                } else {
                    message =
                        field.base.messages?.template(for: .existsIn, language: messages.language)?.render(parameters)
                        ?? messages.message(.existsIn, parameters)
                }
                violations.append(
                    Violation(
                        path: path, key: key, rule: .existsIn, message: message,
                        position: positions ? document.position(of: index) : nil))
            }
            return true
        }
        return violations
    }
}
