internal import DCEPattern

/// One run of a compiled schema over one request: walks the value tree once and collects every violation.
struct Evaluation {
    let document: JSONDocument
    let schema: CompiledSchema
    /// Context values by slot; derived values are filled in by ``deriveContexts()``.
    var context: [String?]
    let tenderType: String?
    /// Whether violations carry line and column (not for requests encoded from Swift values).
    let positions: Bool
    private(set) var violations: [Violation] = []

    init(document: JSONDocument, schema: CompiledSchema, context: [String?], tenderType: String?, positions: Bool) {
        self.document = document
        self.schema = schema
        self.context = context.count == schema.contexts.count ? context : Array(repeating: nil, count: schema.contexts.count)
        self.tenderType = tenderType
        self.positions = positions
    }

    /// Checks the whole request.
    mutating func run() {
        deriveContexts()
        checkValue(document.root, of: schema.root, attributes: schema.root.base, pointer: "", containers: [])
    }

    /// Fills every context the caller left empty from the first of its `derive` rules that holds.
    mutating func deriveContexts() {
        for (slot, definition) in schema.contexts.enumerated() where context[slot] == nil {
            for rule in definition.derive where holds(rule.condition, containers: [document.root]) {
                context[slot] = rule.value
                break
            }
        }
    }

    // MARK: - Values

    /// The attributes in force for a field: the base, then every override whose condition holds, in order.
    func attributes(of field: CompiledField, containers: [JSONDocument.Index]) -> CompiledAttributes {
        guard !field.overrides.isEmpty else { return field.base }
        var attributes = field.base
        for override in field.overrides where holds(override.condition, containers: containers) {
            attributes = attributes.applying(override.patch)
        }
        return attributes
    }

    /// Checks a present value (possibly `null`) against a field.
    mutating func checkValue(
        _ value: JSONDocument.Index, of field: CompiledField, attributes: CompiledAttributes, pointer: String,
        containers: [JSONDocument.Index]
    ) {
        let name = attributes.name
        let key = field.key ?? ""
        if attributes.forbidden {
            add(pointer, key, .forbidden, attributes.message ?? "\(name) must not be sent here", at: value)
            return
        }
        let kind = document.kind(of: value)
        if kind == .null {
            if attributes.required {
                add(pointer, key, .required, "\(name) is required and cannot be null", at: value)
            } else if !attributes.nullable {
                add(pointer, key, .null, "\(name) cannot be null (leave it out instead)", at: value)
            }
            return
        }
        guard typeMatches(kind, value, field.dataType) else {
            let found = kind == .number && field.dataType == .integer ? "a number with a fraction" : kind.description
            add(pointer, key, .type, "\(name) must be \(field.dataType.article), not \(found)", at: value)
            return
        }
        switch field.dataType {
        case .string, .date, .dateTime:
            checkString(value, field: field, attributes: attributes, pointer: pointer, key: key)
        case .integer, .number:
            checkNumber(value, attributes: attributes, pointer: pointer, key: key)
        case .boolean:
            checkEnum(value, attributes: attributes, pointer: pointer, key: key)
        case .object:
            checkEnum(value, attributes: attributes, pointer: pointer, key: key)
            checkObject(value, of: field, pointer: pointer, containers: containers + [value])
        case .array:
            checkArray(value, of: field, attributes: attributes, pointer: pointer, key: key, containers: containers + [value])
        }
    }

    private func typeMatches(_ kind: JSONDocument.Kind, _ value: JSONDocument.Index, _ dataType: DataType) -> Bool {
        switch dataType {
        case .string, .date, .dateTime: kind == .string
        case .integer:
            kind == .number && (document.isIntegerLiteral(at: value) || DecimalNumber(lexeme: document.numberLexeme(at: value)).isIntegral)
        case .number: kind == .number
        case .boolean: kind == .boolean
        case .object: kind == .object
        case .array: kind == .array
        }
    }

    private mutating func checkString(
        _ value: JSONDocument.Index, field: CompiledField, attributes: CompiledAttributes, pointer: String, key: String
    ) {
        let name = attributes.name
        let text = document.string(at: value)
        let length = text.unicodeScalars.count
        let sensitive = !field.sensitivity.isEmpty
        let actual = sensitive ? "" : " (it has \(length))"
        if let min = attributes.minLength, length < min {
            add(pointer, key, .minLength, attributes.message ?? "\(name) must be at least \(min) characters\(actual)", at: value)
        }
        if let max = attributes.maxLength, length > max {
            add(pointer, key, .maxLength, attributes.message ?? "\(name) must be at most \(max) characters\(actual)", at: value)
        }
        if field.dataType == .date, !Format.date.accepts(text) {
            add(pointer, key, .format, "\(name) must be \(Format.date.article)", at: value)
        } else if field.dataType == .dateTime, !Format.dateTime.accepts(text) {
            add(pointer, key, .format, "\(name) must be \(Format.dateTime.article)", at: value)
        }
        checkEnum(value, attributes: attributes, pointer: pointer, key: key)
        if !attributes.formats.isEmpty, !attributes.formats.contains(where: { $0.accepts(text) }) {
            let expected = attributes.formats.map(\.article).joined(separator: ", or ")
            add(pointer, key, .format, attributes.message ?? "\(name) must be \(expected)", at: value)
        }
        for validation in attributes.validations {
            if let min = validation.minLength, length < min {
                add(pointer, key, .minLength, validation.message ?? "\(name) must be at least \(min) characters\(actual)", at: value)
            }
            if let max = validation.maxLength, length > max {
                add(pointer, key, .maxLength, validation.message ?? "\(name) must be at most \(max) characters\(actual)", at: value)
            }
            guard let pattern = validation.pattern else { continue }
            switch pattern.match(text) {
            case .match: break
            case .noMatch:
                add(pointer, key, .regex, validation.message ?? "\(name) must match the pattern \(pattern.source)", at: value)
            case .limitExceeded, .error(_):
                add(
                    pointer, key, .regexLimit,
                    "\(name) could not be checked against the pattern \(pattern.source): the match exceeded its limits",
                    at: value)
            }
        }
    }

    private mutating func checkNumber(_ value: JSONDocument.Index, attributes: CompiledAttributes, pointer: String, key: String) {
        let name = attributes.name
        if attributes.minimum != nil || attributes.maximum != nil {
            let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
            if let min = attributes.minimum, number < min {
                add(pointer, key, .minimum, attributes.message ?? "\(name) must be at least \(min)", at: value)
            }
            if let max = attributes.maximum, max < number {
                add(pointer, key, .maximum, attributes.message ?? "\(name) must be at most \(max)", at: value)
            }
        }
        checkEnum(value, attributes: attributes, pointer: pointer, key: key)
    }

    private mutating func checkEnum(_ value: JSONDocument.Index, attributes: CompiledAttributes, pointer: String, key: String) {
        guard let values = attributes.enumValues, !values.contains(where: { $0.matches(document, at: value) }) else { return }
        let list = values.map { value in
            if case .string(let text) = value { return text }
            return value.json
        }
        let expected = list.count == 1 ? list[0] : "one of " + list.joined(separator: ", ")
        add(pointer, key, .enum, attributes.message ?? "\(attributes.name) must be \(expected)", at: value)
    }

    private mutating func checkObject(
        _ object: JSONDocument.Index, of field: CompiledField, pointer: String, containers: [JSONDocument.Index]
    ) {
        var found = [JSONDocument.Index?](repeating: nil, count: field.fields.count)
        var unknownSeen: Set<String> = []
        for (keyIndex, valueIndex) in document.members(of: object) {
            let key = document.string(at: keyIndex)
            let memberPointer = JSONPointer.appending(key, to: pointer)
            if let offset = field.fieldIndex[key] {
                if found[offset] != nil {
                    add(memberPointer, key, .duplicateKey, "\(field.fields[offset].base.name) appears more than once", at: keyIndex)
                } else {
                    found[offset] = valueIndex
                }
            } else if !unknownSeen.insert(key).inserted {
                add(memberPointer, key, .duplicateKey, "'\(key)' appears more than once", at: keyIndex)
            } else if !field.additionalFields {
                let hint = Suggestion.hint(for: key, in: field.fields.compactMap(\.key))
                add(memberPointer, key, .unknownField, "'\(key)' is not a field of \(field.base.name)\(hint)", at: keyIndex)
            }
        }
        for (offset, child) in field.fields.enumerated() {
            let childKey = child.key ?? ""
            let childPointer = JSONPointer.appending(childKey, to: pointer)
            let attributes = attributes(of: child, containers: containers)
            guard let value = found[offset] else {
                if attributes.required && !attributes.forbidden {
                    add(childPointer, childKey, .required, attributes.message ?? "\(attributes.name) is required", at: object)
                }
                continue
            }
            checkValue(value, of: child, attributes: attributes, pointer: childPointer, containers: containers)
        }
    }

    private mutating func checkArray(
        _ array: JSONDocument.Index, of field: CompiledField, attributes: CompiledAttributes, pointer: String, key: String,
        containers: [JSONDocument.Index]
    ) {
        let count = document.count(of: array)
        if let min = attributes.minItems, count < min {
            add(pointer, key, .minItems, attributes.message ?? "\(attributes.name) must have at least \(min) item\(min == 1 ? "" : "s") (it has \(count))", at: array)
        }
        if let max = attributes.maxItems, count > max {
            add(pointer, key, .maxItems, attributes.message ?? "\(attributes.name) must have at most \(max) item\(max == 1 ? "" : "s") (it has \(count))", at: array)
        }
        checkEnum(array, attributes: attributes, pointer: pointer, key: key)
        guard let items = field.items else { return }
        for (offset, element) in document.elements(of: array).enumerated() {
            let itemAttributes = self.attributes(of: items, containers: containers)
            var named = itemAttributes
            if named.name.isEmpty { named.name = "\(attributes.name) item \(offset)" }
            checkValue(element, of: items, attributes: named, pointer: "\(pointer)/\(offset)", containers: containers)
        }
    }

    // MARK: - Conditions

    func holds(_ condition: CompiledCondition, containers: [JSONDocument.Index]) -> Bool {
        switch condition {
        case .all(let parts): return parts.allSatisfy { holds($0, containers: containers) }
        case .any(let parts): return parts.contains { holds($0, containers: containers) }
        case .not(let part): return !holds(part, containers: containers)
        case .context(let slot, let test): return test.holds(forContext: context[slot])
        case .tenderType(let test): return test.holds(forContext: tenderType)
        case .field(let up, let tokens, let test):
            return test.holds(for: resolve(up: up, tokens: tokens, containers: containers), in: document)
        }
    }

    /// Follows a condition's pointer; `nil` when the value does not exist.
    func resolve(up: Int?, tokens: [String], containers: [JSONDocument.Index]) -> JSONDocument.Index? {
        var current: JSONDocument.Index
        if let up {
            guard up < containers.count else { return nil }
            current = containers[containers.count - 1 - up]
        } else {
            current = document.root
        }
        for token in tokens {
            switch document.kind(of: current) {
            case .object:
                guard let next = document.member(token, of: current) else { return nil }
                current = next
            case .array:
                guard let position = Int(token), position >= 0, position < document.count(of: current) else { return nil }
                current = Array(document.elements(of: current))[position]
            default:
                return nil
            }
        }
        return current
    }

    // MARK: - Reporting

    private mutating func add(_ path: String, _ key: String, _ rule: ViolationCode, _ message: String, at node: JSONDocument.Index) {
        violations.append(Violation(
            path: path, key: key, rule: rule, message: message, position: positions ? document.position(of: node) : nil))
    }
}

extension CompiledTest {
    /// Tests a context value (or the tender type): present when supplied or derived.
    func holds(forContext value: String?) -> Bool {
        switch self {
        case .equals(let expected): value.map { expected == .string($0) } ?? false
        case .oneOf(let expected): value.map { expected.contains(.string($0)) } ?? false
        case .matches(let pattern): value.map { pattern.match($0) == .match } ?? false
        case .present: value != nil
        case .absent: value == nil
        case .null: false
        }
    }

    /// Tests a request value found by a pointer.
    func holds(for value: JSONDocument.Index?, in document: JSONDocument) -> Bool {
        switch self {
        case .absent: return value == nil
        case .null: return value.map { document.kind(of: $0) == .null } ?? false
        case .present: return value.map { document.kind(of: $0) != .null } ?? false
        case .equals(let expected): return value.map { expected.matches(document, at: $0) } ?? false
        case .oneOf(let expected): return value.map { index in expected.contains { $0.matches(document, at: index) } } ?? false
        case .matches(let pattern):
            guard let value, document.kind(of: value) == .string else { return false }
            return pattern.match(document.string(at: value)) == .match
        }
    }
}
