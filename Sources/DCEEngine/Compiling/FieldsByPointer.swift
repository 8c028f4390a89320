extension CompiledSchema {
    /// The fields a pointer passes through, from the root's first member to the field it names (one per token).
    package func fields(along tokens: [String]) -> [CompiledField] {
        var current = root
        var passed: [CompiledField] = []
        for token in tokens {
            if current.dataType == .array, let items = current.items, Int(token) != nil || token == "-" {
                current = items
            } else if let next = current.fields.first(where: { $0.key == token }) {
                current = next
            } else {
                return passed
            }
            passed.append(current)
        }
        return passed
    }

    /// Values given for other fields, by their pointers' tokens: each pointer must name a field.
    ///
    /// - Throws: ``ValidatorError`` (`unknownField`) for a pointer that names no field.
    package func givenValues(_ given: [String: String]) throws(ValidatorError) -> [[String]: String] {
        var known: [[String]: String] = [:]
        for (pointer, value) in given {
            guard field(at: pointer) != nil, let tokens = JSONPointer.tokens(of: pointer) else {
                throw noField(at: pointer, what: " (a given value)")
            }
            known[tokens] = value
        }
        return known
    }

    /// The error for a pointer that names no field, with the pointer the user probably meant: the same with its
    /// leading `/` (`cardNumber` for `/cardNumber`), or the closest member name where the pointer leaves the schema
    /// (`/cardNumbr` for `/cardNumber`).
    package func noField(at pointer: String, what: String = "") -> ValidatorError {
        var meant: String?
        if !pointer.hasPrefix("/"), field(at: "/" + pointer) != nil {
            meant = "/" + pointer
        } else if let tokens = JSONPointer.tokens(of: pointer) {
            let passed = fields(along: tokens)
            let holder = passed.last ?? root
            if passed.count < tokens.count,
                let key = Suggestion.closest(to: tokens[passed.count], in: holder.fields.compactMap(\.key))
            {
                var corrected = tokens
                corrected[passed.count] = key
                let candidate = corrected.reduce("") { JSONPointer.appending($1, to: $0) }
                if field(at: candidate) != nil { meant = candidate }
            }
        }
        return ValidatorError(
            code: .unknownField,
            message: "schema '\(id)' has no field at '\(pointer)'\(what)"
                + (meant.map { " (did you mean '\($0)'?)" } ?? ""))
    }

    /// The field at a JSON Pointer (array elements by index, or `-` for any element).
    package func field(at pointer: String) -> CompiledField? {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        let passed = fields(along: tokens)
        return tokens.isEmpty ? root : passed.count == tokens.count ? passed.last : nil
    }
}

extension CompiledTest {
    /// The test on a text value a person typed or gave (`nil`: a value that is there, whose text is not known).
    package func holds(forGivenText text: String?) -> Bool? {
        switch kind {
        case .present: return true
        case .absent, .null: return false
        case .equals, .oneOf, .oneOfStrings: return text.map { strings.contains($0) }
        case .matches: return text.map { pattern?.match($0) == .match }
        case .cardBrand: return holds(forCardNumber: text)
        }
    }
}

extension SchemaValue {
    /// The JSON value typed text stands for in a field of a data type: a number or boolean when it reads as one,
    /// else the text as a string (which validation then finds of the wrong type, as a payload would).
    package static func typed(_ text: String, as dataType: DataType) -> SchemaValue {
        switch dataType {
        case .integer, .number:
            guard let document = try? JSONDocument(bytes: Array(text.utf8)),
                document.kind(of: document.root) == .number
            else { return .string(text) }
            return .number(DecimalNumber(lexeme: document.numberLexeme(at: document.root)))
        case .boolean:
            return text == "true" ? .boolean(true) : text == "false" ? .boolean(false) : .string(text)
        default:
            return .string(text)
        }
    }
}

extension CompiledSchema {
    /// `draft` with `value` at the pointer's tokens, adding the objects and lists on the way that the draft does not
    /// hold yet, as the schema's fields describe them (an index may be the list's length: the item after the last).
    ///
    /// - Throws: ``ValidatorError`` (`invalidDraft`) when a value on the way is not the object or list the schema has
    ///   there, or an index is past the end.
    package func placing(_ value: SchemaValue, at tokens: [String], in draft: SchemaValue?) throws(ValidatorError)
        -> SchemaValue
    {
        try placing(value, at: tokens, depth: 0, in: draft, path: fields(along: tokens))
    }

    private func placing(
        _ value: SchemaValue, at tokens: [String], depth: Int, in container: SchemaValue?, path: [CompiledField]
    ) throws(ValidatorError) -> SchemaValue {
        guard depth < tokens.count else { return value }
        let token = tokens[depth]
        let holder = depth == 0 ? root : path[depth - 1]
        let here = "/" + tokens.prefix(depth).map(JSONPointer.escape).joined(separator: "/")
        let shown = depth == 0 ? "the draft's root" : "'\(here)'"
        if holder.dataType == .array {
            var items: [SchemaValue]
            switch container {
            case .array(let existing)?: items = existing
            case nil, .null?: items = []
            default: throw Self.notA("list", at: shown)
            }
            guard let offset = Int(token), offset <= items.count else {
                throw ValidatorError(
                    code: .invalidDraft,
                    message: "the draft's list at \(shown) has \(items.count) items: '\(token)' is past its end")
            }
            let existing = offset < items.count ? items[offset] : nil
            let placed = try placing(value, at: tokens, depth: depth + 1, in: existing, path: path)
            if offset < items.count { items[offset] = placed } else { items.append(placed) }
            return .array(items)
        }
        var members: [SchemaValue.Member]
        switch container {
        case .object(let existing)?: members = existing
        case nil, .null?: members = []
        default: throw Self.notA("object", at: shown)
        }
        if let position = members.lastIndex(where: { $0.key == token }) {
            members[position].value = try placing(
                value, at: tokens, depth: depth + 1, in: members[position].value, path: path)
        } else {
            members.append(
                .init(key: token, value: try placing(value, at: tokens, depth: depth + 1, in: nil, path: path)))
        }
        return .object(members)
    }

    private static func notA(_ kind: String, at place: String) -> ValidatorError {
        ValidatorError(code: .invalidDraft, message: "the draft holds no \(kind) at \(place), where the schema has one")
    }
}
