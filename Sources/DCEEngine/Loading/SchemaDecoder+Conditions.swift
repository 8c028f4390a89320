extension SchemaDecoder {
    // MARK: - Contexts and conditions

    mutating func contextDefinitions(_ entry: Entry?) -> [ContextDefinition] {
        guard let entry,
            let members = object(at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of contexts")
        else { return [] }
        var contexts: [ContextDefinition] = []
        for (name, member) in members.sorted(by: { $0.value.index < $1.value.index }) {
            guard
                let attributes = object(
                    at: member.index, pointer: member.pointer, allowed: Self.contextAttributes, what: "a context")
            else { continue }
            if name == "tenderType" {
                report(
                    .invalidAttribute, "'tenderType' is reserved: declare tender types in 'tenderTypes'", member.index,
                    member.pointer)
            }
            let derive = attributes["derive"].map { deriveRules($0) } ?? []
            contexts.append(
                ContextDefinition(
                    location: location(member.index, member.pointer), name: name,
                    description: string(attributes["description"], pointer: member.pointer + "/description"),
                    values: stringList(attributes["values"], pointer: member.pointer + "/values"), derive: derive))
        }
        return contexts
    }

    /// `derive` rules: `[{when, value}]`, tried in order. `{"cardBrandOf": pointer}` stands for one rule per card
    /// brand of the reference data, each setting the brand's id when the value at the pointer is a number of that
    /// brand: it is read as a `cardBrand` test with no brands and an empty value, which the compiler expands.
    mutating func deriveRules(_ entry: Entry) -> [(
        condition: ConditionDefinition, value: String, location: SchemaLocation
    )] {
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "'derive' must be an array of {when, value}", entry.index, entry.pointer)
            return []
        }
        var rules: [(condition: ConditionDefinition, value: String, location: SchemaLocation)] = []
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            let pointer = "\(entry.pointer)/\(offset)"
            if document.kind(of: element) == .object, document.member("cardBrandOf", of: element) != nil {
                guard let rule = object(at: element, pointer: pointer, allowed: ["cardBrandOf"], what: "a derive rule"),
                    let source = rule["cardBrandOf"], let text = string(source, pointer: source.pointer)
                else { continue }
                guard let parsed = Self.parseFieldPointer(text) else {
                    report(
                        .invalidAttribute, "'\(text)' is neither a JSON Pointer nor a relative JSON Pointer",
                        source.index, source.pointer)
                    continue
                }
                let here = location(element, pointer)
                let test = ConditionDefinition.test(
                    subject: .field(up: parsed.up, tokens: parsed.tokens, pointer: text), test: .cardBrand([]),
                    location: here)
                rules.append((test, "", here))
                continue
            }
            guard let rule = object(at: element, pointer: pointer, allowed: ["when", "value"], what: "a derive rule"),
                let when = rule["when"], let condition = condition(at: when.index, pointer: when.pointer),
                let value = string(rule["value"], required: true, pointer: pointer + "/value", parent: element)
            else {
                continue
            }
            rules.append((condition, value, location(element, pointer)))
        }
        return rules
    }

    mutating func condition(at index: JSONDocument.Index, pointer: String) -> ConditionDefinition? {
        let here = location(index, pointer)
        guard
            let members = object(
                at: index, pointer: pointer,
                allowed: ["all", "any", "not", "context", "field"] + Self.conditionOperators,
                what: "a condition")
        else { return nil }
        if let entry = members["all"] ?? members["any"] {
            guard members.count == 1 else {
                report(.invalidAttribute, "'all' and 'any' stand alone in their condition", index, pointer)
                return nil
            }
            guard document.kind(of: entry.index) == .array, document.count(of: entry.index) > 0 else {
                report(
                    .invalidAttribute, "'all' and 'any' take a non-empty array of conditions", entry.index,
                    entry.pointer)
                return nil
            }
            let parts = document.elements(of: entry.index).enumerated().compactMap {
                condition(at: $0.element, pointer: "\(entry.pointer)/\($0.offset)")
            }
            return members["all"] != nil ? .all(parts, here) : .any(parts, here)
        }
        if let entry = members["not"] {
            guard members.count == 1 else {
                report(.invalidAttribute, "'not' stands alone in its condition", index, pointer)
                return nil
            }
            return condition(at: entry.index, pointer: entry.pointer).map { .not($0, here) }
        }
        let subject: ConditionSubject
        if let entry = members["context"], let name = string(entry, pointer: entry.pointer) {
            subject = name == "tenderType" ? .tenderType : .context(name)
        } else if let entry = members["field"], let text = string(entry, pointer: entry.pointer) {
            guard let parsed = Self.parseFieldPointer(text) else {
                report(
                    .invalidAttribute, "'\(text)' is neither a JSON Pointer nor a relative JSON Pointer", entry.index,
                    entry.pointer)
                return nil
            }
            subject = .field(up: parsed.up, tokens: parsed.tokens, pointer: text)
        } else {
            report(.missingAttribute, "a condition needs 'all', 'any', 'not', 'context' or 'field'", index, pointer)
            return nil
        }
        let operators = Self.conditionOperators.filter { members[$0] != nil }
        guard operators.count == 1, let op = operators.first, let entry = members[op] else {
            report(
                .invalidAttribute,
                "a condition needs exactly one of: \(Self.conditionOperators.joined(separator: ", "))", index, pointer)
            return nil
        }
        let test: ConditionTest
        switch op {
        case "equals": test = .equals(SchemaValue(document: document, at: entry.index))
        case "in":
            guard document.kind(of: entry.index) == .array else {
                report(.invalidAttribute, "'in' takes an array of values", entry.index, entry.pointer)
                return nil
            }
            test = .oneOf(document.elements(of: entry.index).map { SchemaValue(document: document, at: $0) })
        case "matches":
            guard let pattern = string(entry, pointer: entry.pointer) else { return nil }
            test = .matches(pattern)
        case "cardBrand":
            let brands =
                document.kind(of: entry.index) == .string
                ? string(entry, pointer: entry.pointer).map { [$0] } : stringList(entry, pointer: entry.pointer)
            guard let brands, !brands.isEmpty else {
                report(
                    .invalidAttribute, "'cardBrand' takes a brand id or a non-empty array of them", entry.index,
                    entry.pointer)
                return nil
            }
            test = .cardBrand(brands)
        case "countryGroup":
            guard let group = string(entry, pointer: entry.pointer) else { return nil }
            test = .countryGroup(group)
        default:
            guard document.kind(of: entry.index) == .boolean, document.boolean(at: entry.index) else {
                report(
                    .invalidAttribute, "'\(op)' takes the value true (use 'not' to negate)", entry.index, entry.pointer)
                return nil
            }
            test = op == "present" ? .present : op == "absent" ? .absent : .null
        }
        return .test(subject: subject, test: test, location: here)
    }

    /// Splits `/a/b` into tokens, or `1/a` into one level up and tokens.
    static func parseFieldPointer(_ text: String) -> (up: Int?, tokens: [String])? {
        if text.hasPrefix("/") { return JSONPointer.tokens(of: text).map { (nil, $0) } }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let up = Int(digits), digits == "0" || !digits.hasPrefix("0") else { return nil }
        let rest = String(text.dropFirst(digits.count))
        return JSONPointer.tokens(of: rest).map { (up, $0) }
    }
}
