internal import DCEPattern

/// Findings recorded while walking, and their violations written once the walk is done: each message in the plan's
/// language, from the field's own messages, the schema's, or the catalogue.
extension Evaluation {
    // MARK: - Findings

    /// Records a violation of `rule` by `field` at `node` (the path stack already ends with its token); its text is
    /// written when the walk is done. Past ``maxErrors`` it is only counted.
    mutating func find(
        _ rule: ViolationCode, field: Int, at node: JSONDocument.Index, _ attributes: Attributes?, detail: Int = 0
    ) {
        assert(rule.ordinal >= 0, "a finding's rule is one of the engine's own codes")
        guard work.findings.count < maxErrors else {
            omitted += 1
            return
        }
        var set = Finding.noAttributes
        if let attributes {
            if attributes.pointee.object >= 0 {
                set = attributes.pointee.object
            } else {
                // Computed for this value only: kept now, while the conditions that chose it read the same containers.
                computedSets.append(computedAttributes(of: field))
                set = -computedSets.count
            }
        }
        let start = work.pathArena.count
        work.pathArena.append(contentsOf: work.path)
        work.findings.append(
            Finding(
                ruleOrdinal: rule.ordinal, field: field, node: node, attributes: set, detail: detail,
                path: start..<work.pathArena.count))
    }

    // MARK: - Reporting

    /// Turns the walk's findings into violations: message, JSON Pointer, line and column, fingerprint.
    mutating func writeViolations() {
        guard !work.findings.isEmpty else { return }
        violations.reserveCapacity(work.findings.count)
        for index in work.findings.indices {
            let finding = work.findings[index]
            let set: AttributeSet? =
                finding.attributes == Finding.noAttributes
                ? nil
                : finding.attributes >= 0
                    ? tables.attributeObjects[finding.attributes] : computedSets[-finding.attributes - 1]
            let key =
                finding.detail == Finding.unknownMember
                ? document.string(at: finding.node) : tables.fieldObjects[finding.field].key ?? ""
            let rule = finding.rule
            var violation = Violation(
                path: pointer(finding.path), key: key, rule: rule, message: message(for: finding, rule, set, key: key),
                position: positions ? position(of: finding.node) : nil)
            if let fingerprinter = plan.fingerprinter, rule != .unknownField, rule != .duplicateKey, rule != .required {
                switch document.kind(of: finding.node) {
                case .string:
                    violation.fingerprint = document.withStringBytes(at: finding.node) { fingerprinter.fingerprint($0) }
                case .number:
                    var text = document.numberLexeme(at: finding.node)
                    violation.fingerprint = text.withUTF8 { fingerprinter.fingerprint($0) }
                default: break
                }
            }
            violations.append(violation)
        }
    }

    /// A finding's message in the plan's language.
    mutating func message(for finding: Finding, _ rule: ViolationCode, _ set: AttributeSet?, key: String)
        -> String
    {
        let node = finding.node
        let name = set?.name.text(in: plan.messages.language) ?? ""
        if let place = Finding.objectRule(finding.detail) {
            let (objectRule, found) = ruleFindings[place]
            return objectRule.message(
                for: found, writer: FindingWriter(messages: plan.messages, attributes: set), reference: reference)
        }
        switch rule {
        case .forbidden:
            return text(.forbidden, set, fallback: set?.message, .init(name: name))
        case .required:
            if finding.detail == Finding.nullValue { return text(.required, set, variant: "null", .init(name: name)) }
            return text(.required, set, fallback: set?.message, .init(name: name))
        case .null:
            return text(.null, set, .init(name: name))
        case .type:
            let kind = nodes[node].kind
            let dataType = tables.fields[finding.field].dataType
            let messages = plan.messages
            let found =
                kind == .number && dataType == .integer
                ? messages.term("kind.fraction")
                : messages.term("kind.\(kind.description)")
            let expected = messages.term("type.\(dataType.rawValue)")
            return text(.type, set, .init(name: name, expected: expected, found: found))
        case .minimum, .maximum:
            let bound = set?.valueRange.bound(for: rule)?.description
            return text(
                rule, set, fallback: set?.message,
                rule == .minimum ? .init(name: name, min: bound) : .init(name: name, max: bound))
        case .enum:
            let list = set?.options?.labels ?? []
            return text(
                .enum, set, variant: list.count == 1 ? nil : "list", fallback: set?.message,
                .init(name: name, expected: list.joined(separator: ", ")))
        case .duplicateKey:
            if finding.detail == Finding.unknownMember {
                return text(.duplicateKey, nil, variant: "unknown", .init(key: key))
            }
            return text(
                .duplicateKey, nil,
                .init(name: tables.fieldObjects[finding.field].label.text(in: plan.messages.language)))
        case .unknownField:
            let object = tables.fieldObjects[finding.field]
            let suggestion = Suggestion.closest(to: key, in: object.fields.compactMap(\.key))
            return text(
                .unknownField, nil, variant: suggestion == nil ? nil : "suggestion",
                .init(name: object.label.text(in: plan.messages.language), key: key, suggestion: suggestion))
        case .minItems, .maxItems:
            let count = String(document.count(of: node))
            let bound = set?.itemCounts.bound(for: rule) ?? 0
            return text(
                rule, set, variant: bound == 1 ? "one" : nil, fallback: set?.message,
                rule == .minItems
                    ? .init(name: name, min: String(bound), count: count)
                    : .init(name: name, max: String(bound), count: count))
        default:
            return stringMessage(for: finding, rule, set)
        }
    }

    /// The message of a failed string check (`minLength`, `maxLength`, `format`, `regex`, `regexLimit`).
    mutating func stringMessage(for finding: Finding, _ code: ViolationCode, _ set: AttributeSet?) -> String {
        guard let attributes = set else { return text(code, nil, .init()) }
        let name = attributes.name.text(in: plan.messages.language)
        let detail = finding.detail
        // The length of a sensitive value is not shown: a PIN's length is a clue to it.
        let count: String? =
            tables.fields[finding.field].sensitive
            ? nil
            : String(
                nodes[finding.node].flag
                    ? document.withStringBytes(at: finding.node) { Self.codePoints(in: $0) }
                    : Self.codePoints(in: rawText(of: finding.node)))
        let variant = count == nil ? nil : "count"
        let validation = (code == .format || detail < 0) ? nil : attributes.validations[detail]
        switch code {
        case .minLength, .maxLength:
            let bound = String((validation?.lengths ?? attributes.lengths).bound(for: code) ?? 0)
            return text(
                code, attributes, variant: variant, fallback: validation?.message ?? attributes.message,
                code == .minLength
                    ? .init(name: name, min: bound, count: count) : .init(name: name, max: bound, count: count))
        case .format:
            let implied = tables.fields[finding.field].dataType.impliedFormat
            let formats = detail == StringFailure.impliedFormat ? Array(implied.map { [$0] } ?? []) : attributes.formats
            let expected = formats.map { format in
                (format.isCardNumber ? cardNumberTerm(at: finding.node) : nil) ?? plan.messages.formatTerms[format]
                    ?? format.article
            }.joined(separator: plan.messages.term("or"))
            return text(
                .format, attributes,
                fallback: tables.fields[finding.field].dataType == .string ? attributes.message : nil,
                .init(name: name, expected: expected))
        case .regex:
            return text(
                .regex, attributes, fallback: validation?.message, .init(name: name, pattern: validation?.regex ?? ""))
        default:
            return text(code, attributes, .init(name: name, pattern: validation?.regex ?? ""))
        }
    }

    /// A violation's message: the field's own message for the rule in the catalogue's language, else the schema's
    /// older `message` / validation `message` (`fallback`), else the catalogue's.
    func text(
        _ rule: ViolationCode, _ attributes: AttributeSet?, variant: String? = nil, fallback: LocalizedText? = nil,
        _ parameters: MessageParameters
    ) -> String {
        FindingWriter(messages: plan.messages, attributes: attributes).text(
            rule, variant: variant, fallback: fallback, parameters)
    }

    /// What a card number of a known brand must be, naming the brand (never the number): "a Visa card number of 13,
    /// 16, or 19 digits with a valid check digit"; `nil` when the number has no brand the reference data knows.
    func cardNumberTerm(at node: JSONDocument.Index) -> String? {
        guard nodes[node].kind == .string,
            case .brand(let index) = document.withStringBytes(at: node, { reference.cardBrands.detect(digitsOf: $0) })
        else { return nil }
        let brand = reference.cardBrands.brands[index]
        let lengths = brand.lengths.map(String.init)
        let list =
            lengths.count == 1
            ? lengths[0] : lengths.dropLast().joined(separator: ", ") + plan.messages.term("or") + lengths.last!
        let key = brand.luhn ? "format.card-number.brand" : "format.card-number.brand-without-check-digit"
        return plan.messages.phrase(key, ["brand": brand.name, "lengths": list])
    }
}

/// Words a finding's message in the catalogue's language: the field's own template for the rule first, then the
/// schema's older `message` (`fallback`), then the catalogue's (``RuleMessageWriter``, for an object rule's findings).
struct FindingWriter: RuleMessageWriter {
    let messages: MessageCatalogue
    /// The field's attribute set in force.
    let attributes: AttributeSet?

    var language: String { messages.language }
    var name: String { attributes?.name.text(in: language) ?? "" }

    func text(_ rule: ViolationCode, variant: String?, _ parameters: MessageParameters) -> String {
        text(rule, variant: variant, fallback: nil, parameters)
    }

    func text(_ rule: ViolationCode, variant: String?, fallback: LocalizedText?, _ parameters: MessageParameters)
        -> String
    {
        if let template = attributes?.messages?.template(for: rule, language: messages.language) {
            return template.render(parameters)
        }
        if let fallback { return fallback.text(in: messages.language) }
        return messages.message(rule, variant: variant, parameters)
    }

    func term(_ key: String) -> String { messages.term(key) }
}
