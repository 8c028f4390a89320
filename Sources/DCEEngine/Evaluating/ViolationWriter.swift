/// Writes the text of violations kept as data (``FoundViolations``): each message in the plan's language, from the
/// field's own messages, the schema's, or the catalogue, and the JSON Pointer and key from the report's text.
struct ViolationWriter {
    let plan: EvaluationPlan
    let messages: MessageCatalogue
    let tables: RuleProgram.Tables
    /// The violations, with the text of their pointers and keys.
    let found: FoundViolations
    let computedSets: [AttributeSet]
    let fingerprints: [String]

    /// The violation at `index`, as a value of its own.
    func violation(at index: Int) -> Violation {
        let record = found.record(at: index)
        var violation = Violation(
            path: string(record.pointer), key: key(of: record), rule: record.rule, message: message(for: record))
        if let position = position(of: record) {
            violation.line = position.line
            violation.column = position.column
        }
        violation.fingerprint = fingerprint(of: record)
        return violation
    }

    /// The line and column of the value; `nil` when not known.
    func position(of record: FoundViolation) -> (line: Int, column: Int)? {
        record.line > 0 ? (record.line, record.column) : nil
    }

    /// The value's fingerprint, when the schema was prepared with a fingerprinter.
    func fingerprint(of record: FoundViolation) -> String? {
        record.fingerprint >= 0 ? fingerprints[record.fingerprint] : nil
    }

    func string(_ range: Range<Int>) -> String {
        found.withText(range) { $0.decoded }
    }

    /// The field's `key`, or for a member no field describes, its name.
    func key(of record: FoundViolation) -> String {
        record.keyIsMemberName ? string(record.key) : tables.fieldObjects[record.field].key ?? ""
    }

    /// The attribute set in force where the violation was found.
    func attributeSet(of record: FoundViolation) -> AttributeSet? {
        tables.attributeSet(record.attributes, computed: computedSets)
    }

    // MARK: - Messages

    /// A violation's message in the plan's language.
    func message(for record: FoundViolation) -> String {
        var text = ""
        // Room for most messages at once: appended piece by piece, a string would grow two or three times.
        text.reserveCapacity(80)
        message(for: record, into: &text)
        return text
    }

    /// A violation's message in the plan's language, written piece by piece into `sink`.
    func message(for record: FoundViolation, into sink: inout some MessageSink) {
        let set = attributeSet(of: record)
        let rule = record.rule
        if record.isObjectRule {
            let objectRule = tables.fieldObjects[record.objectField].objectRules[record.objectRule]
            return sink.write(
                objectRule.message(
                    for: ObjectRuleFinding(rule: rule, member: record.objectMember, detail: record.detail),
                    writer: FindingWriter(messages: messages, attributes: set), reference: plan.schema.reference))
        }
        let name = set.map { messages.text($0.name) } ?? ""
        switch rule {
        case .forbidden:
            return text(.forbidden, set, fallback: set?.message, .init(name: name), into: &sink)
        case .required:
            if record.detail == Finding.nullValue {
                return text(.required, set, variant: "null", .init(name: name), into: &sink)
            }
            return text(.required, set, fallback: set?.message, .init(name: name), into: &sink)
        case .null:
            return text(.null, set, .init(name: name), into: &sink)
        case .type:
            let kind = JSONDocument.Kind(rawValue: UInt8(record.measure)) ?? .null
            let dataType = tables.fields[record.field].dataType
            let found =
                kind == .number && dataType == .integer
                ? messages.term("kind.fraction")
                : messages.term("kind.\(kind.description)")
            let expected = messages.term("type.\(dataType.rawValue)")
            return text(.type, set, .init(name: name, expected: expected, found: found), into: &sink)
        case .minimum, .maximum:
            let bound = set?.valueRange.bound(for: rule)?.description
            return text(
                rule, set, fallback: set?.message,
                rule == .minimum ? .init(name: name, min: bound) : .init(name: name, max: bound), into: &sink)
        case .enum:
            let list = set?.options?.labels ?? []
            return text(
                .enum, set, variant: list.count == 1 ? nil : "list", fallback: set?.message,
                .init(name: name, expected: list.joined(separator: ", ")), into: &sink)
        case .duplicateKey:
            if record.detail == Finding.unknownMember {
                return text(.duplicateKey, nil, variant: "unknown", .init(key: key(of: record)), into: &sink)
            }
            return text(
                .duplicateKey, nil,
                .init(name: messages.text(tables.fieldObjects[record.field].label)), into: &sink)
        case .unknownField:
            let object = tables.fieldObjects[record.field]
            let key = key(of: record)
            let suggestion = Suggestion.closest(to: key, in: object.fields.compactMap(\.key))
            return text(
                .unknownField, nil, variant: suggestion == nil ? nil : "suggestion",
                .init(name: messages.text(object.label), key: key, suggestion: suggestion), into: &sink)
        case .minItems, .maxItems:
            let count = String(record.measure)
            let bound = set?.itemCounts.bound(for: rule) ?? 0
            return text(
                rule, set, count: bound, fallback: set?.message,
                rule == .minItems
                    ? .init(name: name, min: String(bound), count: count)
                    : .init(name: name, max: String(bound), count: count), into: &sink)
        default:
            return stringMessage(for: record, rule, set, into: &sink)
        }
    }

    /// The message of a failed string check (`minLength`, `maxLength`, `format`, `regex`, `regexLimit`).
    func stringMessage(
        for record: FoundViolation, _ code: ViolationCode, _ set: AttributeSet?, into sink: inout some MessageSink
    ) {
        guard let attributes = set else { return text(code, nil, .init(), into: &sink) }
        let name = messages.text(attributes.name)
        let detail = record.detail
        // The length of a sensitive value is not shown: a PIN's length is a clue to it.
        let count: String? = record.measure < 0 ? nil : String(record.measure)
        let variant = count == nil ? nil : "count"
        let validation = (code == .format || detail < 0) ? nil : attributes.validations[detail]
        switch code {
        case .minLength, .maxLength:
            let limit = (validation?.lengths ?? attributes.lengths).bound(for: code) ?? 0
            let bound = String(limit)
            return text(
                code, attributes, variant: variant, count: limit, fallback: validation?.message ?? attributes.message,
                code == .minLength
                    ? .init(name: name, min: bound, count: count) : .init(name: name, max: bound, count: count),
                into: &sink)
        case .format:
            let formats = tables.checkedFormats(detail: detail, field: record.field, set: attributes)
            let expected = formats.map { format in
                (format.isCardNumber ? cardNumberTerm(brand: record.brand) : nil) ?? messages.formatTerms[format]
                    ?? format.article
            }.joined(separator: messages.term("or"))
            return text(
                .format, attributes,
                fallback: tables.fields[record.field].dataType == .string ? attributes.message : nil,
                .init(name: name, expected: expected), into: &sink)
        case .regex:
            return text(
                .regex, attributes, fallback: validation?.message, .init(name: name, pattern: validation?.regex ?? ""),
                into: &sink)
        default:
            return text(code, attributes, .init(name: name, pattern: validation?.regex ?? ""), into: &sink)
        }
    }

    /// A violation's message: the field's own message for the rule in the catalogue's language, else the schema's
    /// older `message` / validation `message` (`fallback`), else the catalogue's.
    func text(
        _ rule: ViolationCode, _ attributes: AttributeSet?, variant: String? = nil, count: Int? = nil,
        fallback: LocalizedText? = nil, _ parameters: MessageParameters, into sink: inout some MessageSink
    ) {
        FindingWriter(messages: messages, attributes: attributes).text(
            rule, variant: variant, count: count, fallback: fallback, parameters, into: &sink)
    }

    /// What a card number of a known brand must be, naming the brand (never the number): "a Visa card number of 13,
    /// 16, or 19 digits with a valid check digit"; `nil` when the number has no brand the reference data knows.
    func cardNumberTerm(brand index: Int) -> String? {
        guard index >= 0 else { return nil }
        let brand = plan.schema.reference.cardBrands.brands[index]
        let lengths = brand.lengths.map(String.init)
        let list =
            lengths.count == 1
            ? lengths[0] : lengths.dropLast().joined(separator: ", ") + messages.term("or") + lengths.last!
        let key = brand.luhn ? "format.card-number.brand" : "format.card-number.brand-without-check-digit"
        return messages.phrase(key, ["brand": brand.name, "lengths": list])
    }
}

/// Words a finding's message in the catalogue's language: the field's own template for the rule first, then the
/// schema's older `message` (`fallback`), then the catalogue's (``RuleMessageWriter``, for an object rule's findings).
package struct FindingWriter: RuleMessageWriter {
    let messages: MessageCatalogue
    /// The field's attribute set in force.
    let attributes: AttributeSet?

    package init(messages: MessageCatalogue, attributes: AttributeSet?) {
        self.messages = messages
        self.attributes = attributes
    }

    package var language: String { messages.language }
    package var name: String { attributes.map { messages.text($0.name) } ?? "" }

    package func text(_ rule: ViolationCode, variant: String?, _ parameters: MessageParameters) -> String {
        text(rule, variant: variant, fallback: nil, parameters)
    }

    package func text(
        _ rule: ViolationCode, variant: String?, fallback: LocalizedText?, _ parameters: MessageParameters
    ) -> String {
        var text = ""
        self.text(rule, variant: variant, fallback: fallback, parameters, into: &text)
        return text
    }

    func text(
        _ rule: ViolationCode, variant: String?, count: Int? = nil, fallback: LocalizedText?,
        _ parameters: MessageParameters, into sink: inout some MessageSink
    ) {
        if let template = attributes?.messages?.template(for: rule, language: messages.language) {
            return template.render(parameters, into: &sink)
        }
        if let fallback { return sink.write(messages.text(fallback)) }
        messages.message(rule, variant: variant, count: count, parameters, into: &sink)
    }

    package func term(_ key: String) -> String { messages.term(key) }
}

/// Writes a message's pieces into report bytes (``MessageSink``), escaped as the report's format needs; for
/// ``ReportEscaping/jsonLiteral``, as the inside of the literal, whose quotes the caller writes.
struct ReportBytes: MessageSink {
    var output = ByteBuilder(capacity: 0)
    let escaping: ReportEscaping

    mutating func write(_ piece: String) {
        piece.withUTF8Span { utf8 in
            if escaping == .jsonLiteral {
                output.appendJSONStringContents(utf8)
            } else {
                output.append(utf8, escaping: escaping)
            }
        }
    }
}
