internal import DCEPattern

/// The verdict on one field's input while a person is still typing it.
public enum InputVerdict: Hashable, Sendable {
    /// The input is valid as it is.
    case valid
    /// The input is not valid yet but can still become valid with more characters (`41` for a card number).
    case incomplete
    /// No continuation can make the input valid (a letter in a PIN); the rule it breaks.
    case invalid(ViolationCode)
}

extension PreparedSchema {
    /// Checks one field's partial input, for feedback on every keystroke.
    ///
    /// The field's rules for this prepared context and tender type apply; rules that depend on other fields' values
    /// are checked when the whole request is validated.
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - pointer: The field's JSON Pointer, such as `/cardNumber` or `/billingAddress/zipCode`.
    /// - Returns: Valid, incomplete, or invalid with the rule.
    /// - Throws: ``ValidatorError`` when the pointer names no field.
    public func checkInput(_ text: String, at pointer: String) throws(ValidatorError) -> InputVerdict {
        guard let field = schema.field(at: pointer), let path = JSONPointer.tokens(of: pointer) else {
            throw ValidatorError(code: .unknownField, message: "schema '\(schema.id)' has no field at '\(pointer)'")
        }
        let attributes = inputRules(of: field, at: path, text: text)
        if attributes.isForbidden { return .invalid(.forbidden) }
        var verdicts: [InputVerdict] = []
        switch field.dataType {
        case .boolean:
            verdicts.append(text == "true" || text == "false" ? .valid : ("true".hasPrefix(text) || "false".hasPrefix(text)) ? .incomplete : .invalid(.type))
        case .integer, .number:
            verdicts.append(Self.numberVerdict(text, integer: field.dataType == .integer, attributes: attributes))
        case .object, .array:
            verdicts.append(.invalid(.type))
        case .string, .date, .dateTime:
            let length = text.unicodeScalars.count
            let maxLength = ([attributes.maxLength] + attributes.validationList.map(\.maxLength)).compactMap { $0 }.min()
            let minLength = ([attributes.minLength] + attributes.validationList.map(\.minLength)).compactMap { $0 }.max()
            if let maxLength, length > maxLength { verdicts.append(.invalid(.maxLength)) }
            if let minLength, length < minLength { verdicts.append(.incomplete) }
            if let options = attributes.enumValues {
                let strings = options.compactMap { value -> String? in if case .string(let option) = value { return option } else { return nil } }
                verdicts.append(strings.contains(text) ? .valid : strings.contains { $0.hasPrefix(text) } ? .incomplete : .invalid(.enum))
            }
            var formats = attributes.formatList
            if field.dataType == .date { formats.append(.date) }
            if field.dataType == .dateTime { formats.append(.dateTime) }
            if !formats.isEmpty {
                let each = formats.map { Self.formatVerdict(text, $0, month: currentMonth) }
                verdicts.append(each.contains(.valid) ? .valid : each.contains(.incomplete) ? .incomplete : .invalid(.format))
            }
            for validation in attributes.validationList {
                guard let key = validation.patternKey, let pattern = schema.patterns[key] else { continue }
                switch pattern.matchPrefix(text) {
                case .match: break
                case .partial: verdicts.append(.incomplete)
                case .noMatch where text.isEmpty: verdicts.append(.incomplete)  // PCRE2 reports no partial match for ""
                case .noMatch: verdicts.append(.invalid(.regex))
                case .limitExceeded: verdicts.append(.invalid(.regexLimit))
                }
            }
        }
        if let invalid = verdicts.first(where: { if case .invalid = $0 { return true } else { return false } }) { return invalid }
        return verdicts.contains(.incomplete) ? .incomplete : .valid
    }

    /// The rules in force for a field while its value is typed: the base, then each override whose condition is
    /// known to hold. Known are the prepared context and tender type, the typed value itself, and that the objects
    /// holding the field exist (a value typed into `/billingAddress/zipCode` implies a `/billingAddress`), and so any
    /// context derived from those alone; an override that reads other fields is left to full validation.
    private func inputRules(of field: CompiledField, at path: [String], text: String) -> Rules {
        var reader = InputConditionReader(
            schema: schema, slots: contextSlotValues.map { $0.map(InputConditionReader.Context.value) ?? .absent },
            tenderType: tenderType, path: path, text: field.dataType.isString ? text : nil, containers: [[]])
        // Contexts the caller left out, derived as validation derives them: slot by slot, the first rule that holds.
        var rule = 0
        for (slot, context) in schema.contexts.enumerated() {
            for (_, value) in context.derive {
                defer { rule += 1 }
                guard reader.slots[slot] == .absent, contextSlotValues[slot] == nil else { continue }
                switch schema.deriveProgram.truth(of: rule, reading: &reader) {
                case true?: reader.slots[slot] = .value(value)
                case nil: reader.slots[slot] = .unknown
                case false?: break
                }
            }
        }
        reader.containers = (0..<path.count).reversed().map { Array(path.prefix($0)) }
        var rules = field.base
        for (index, override) in field.overrides.enumerated() where field.overrideProgram.truth(of: index, reading: &reader) == true {
            rules = rules.overlaid(with: override.patch)
        }
        return rules
    }

    private static func numberVerdict(_ text: String, integer: Bool, attributes: Rules) -> InputVerdict {
        if text.isEmpty || text == "-" { return .incomplete }
        guard let document = try? JSONDocument(bytes: Array(text.utf8)), document.kind(of: document.root) == .number else {
            // "1." and "1e" can still become numbers; anything else cannot.
            let prefix = text.last == "." || text.last == "e" || text.last == "E" || text.hasSuffix("e-") || text.hasSuffix("e+")
            return prefix && !integer && (try? JSONDocument(bytes: Array(text.dropLast(text.hasSuffix("e-") || text.hasSuffix("e+") ? 2 : 1).utf8))) != nil
                ? .incomplete : .invalid(.type)
        }
        let number = DecimalNumber(lexeme: document.numberLexeme(at: document.root))
        if integer && !number.isIntegral { return .invalid(.type) }
        if let max = attributes.maximum, max < number { return number.isNegative ? .incomplete : .invalid(.maximum) }
        if let min = attributes.minimum, number < min { return number.isNegative ? .invalid(.minimum) : .incomplete }
        if let values = attributes.enumValues, !values.contains(.number(number)) { return .invalid(.enum) }
        return .valid
    }

    /// Whether text has a format, could still get it by typing more, or cannot.
    static func formatVerdict(_ text: String, _ format: Format, month: Int) -> InputVerdict {
        if format.accepts(text, month: month) { return .valid }
        return format.couldBecomeValid(text) ? .incomplete : .invalid(.format)
    }
}

extension CompiledSchema {
    /// The field at a JSON Pointer (array elements by index).
    func field(at pointer: String) -> CompiledField? {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        var current = root
        for token in tokens {
            if current.dataType == .array, let items = current.items, Int(token) != nil {
                current = items
            } else if let next = current.fields.first(where: { $0.key == token }) {
                current = next
            } else {
                return nil
            }
        }
        return current
    }
}

/// Conditions as partial input sees them: the prepared context and tender type, the contexts derived so far, the
/// typed value at `path`, and the objects that hold it (present, and objects); anything else is unknown.
private struct InputConditionReader: ConditionReader {
    /// What is known of a context.
    enum Context: Equatable {
        case value(String)
        /// Neither supplied nor derived.
        case absent
        /// It depends on request values that are not known.
        case unknown
    }

    let schema: CompiledSchema
    var slots: [Context]
    let tenderType: String?
    /// The tokens of the typed field's pointer.
    let path: [String]
    /// The typed text, for a text field (`nil`: compare it as unknown).
    let text: String?
    /// The objects a relative pointer climbs from: the innermost first (`0/…`), by their tokens from the root.
    var containers: [[String]]

    func test(_ test: CompiledTest, context slot: Int) -> Bool? {
        switch slots[slot] {
        case .value(let value): test.holds(forContext: value)
        case .absent: test.holds(forContext: nil)
        case .unknown: nil
        }
    }

    func testTenderType(_ test: CompiledTest) -> Bool? { test.holds(forContext: tenderType) }

    func test(_ test: CompiledTest, field up: Int, tokens: Unmanaged<ConditionProgram.Tokens>) -> Bool? {
        guard up < containers.count else { return nil }
        let target = (up < 0 ? [] : containers[up]) + tokens.takeUnretainedValue().tokens.map(\.text)
        if target == path {
            switch test.kind {
            case .present: return true
            case .absent, .null: return false
            case .equals, .oneOf, .oneOfStrings: return text.map { test.strings.contains($0) }
            case .matches: return text.map { test.pattern?.match($0) == .match }
            }
        }
        guard target.count < path.count, Array(path.prefix(target.count)) == target else { return nil }
        // An object that holds the typed field: present, not null, and no string.
        switch test.kind {
        case .present: return true
        case .absent, .null, .oneOfStrings, .matches: return false
        case .equals, .oneOf: return nil
        }
    }
}
