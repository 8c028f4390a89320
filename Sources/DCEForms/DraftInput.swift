public import DCEEngine

/// A field checked as it is typed inside a form's draft, which gives the rest of the form.
extension PreparedSchema {
    /// Checks one field's partial input inside the form's draft, as ``inputFeedback(_:at:draft:)`` does, and
    /// returns the verdict alone.
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - pointer: The field's JSON Pointer; an item of a list by its index, or `-` for a new item at its end.
    ///   - draft: What the form holds so far, as a payload (`{}` for an empty form).
    /// - Returns: Valid, incomplete, or invalid with the rule.
    /// - Throws: ``/DCEEngine/ValidatorError`` when the pointer names no field, or the draft cannot hold a value there.
    public func checkInput(_ text: String, at pointer: String, draft: JSONDocument) throws(ValidatorError)
        -> InputVerdict
    {
        try inputFeedback(text, at: pointer, draft: draft).verdict
    }

    /// Checks one field's partial input inside the form's draft: the text typed replaces the draft's value at
    /// `pointer` (or is added there, with the objects on the way), and the draft is validated as a whole payload
    /// would be, so that every rule validation applies at that field applies while it is typed — overrides reading
    /// other fields, contexts derived from the payload, tender types and contexts that fields above bind (a gift
    /// card inside a profile's list of accounts), `ignoreForProvisioning`, and the address rules of the country the
    /// draft names.
    ///
    /// ```swift
    /// let draft = try JSONDocument(bytes: Array(#"{"paymentAccounts": [{"accountType": "giftCard"}]}"#.utf8))
    /// let feedback = try prepared.inputFeedback("6035", at: "/paymentAccounts/0/cardNumber", draft: draft)
    /// ```
    ///
    /// The verdict is ``/DCEEngine/InputVerdict/valid`` exactly when validating the draft finds no error of the field's own
    /// (type, length, pattern, format, options, bounds, `forbidden`) at that pointer; errors elsewhere in the draft,
    /// such as fields not filled in yet, do not count. Otherwise it is ``/DCEEngine/InputVerdict/incomplete`` when more
    /// characters can still make the value valid under the rules in force there, and else invalid with the rule
    /// validation reports. The text is judged as the value the request will hold: a form that shows a card number
    /// in groups passes it without the spaces, as it sends it (unlike ``inputFeedback(_:at:given:)``, which takes
    /// spaces and dashes in a card number for formatting). A card number comes with its brand and masked form.
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - pointer: The field's JSON Pointer; an item of a list by its index, or `-` for a new item at its end.
    ///   - draft: What the form holds so far, as a payload (`{}` for an empty form).
    /// - Returns: The verdict, and the card's brand and masked form when the field holds a card number.
    /// - Throws: ``/DCEEngine/ValidatorError`` with code `unknownField` when the pointer names no field, `invalidDraft` when a
    ///   value of the draft on the way is not the object or list the schema describes, or an index is past the end.
    public func inputFeedback(_ text: String, at pointer: String, draft: JSONDocument) throws(ValidatorError)
        -> InputFeedback
    {
        guard let field = schema.field(at: pointer), let tokens = JSONPointer.tokens(of: pointer) else {
            throw schema.noField(at: pointer)
        }
        let base = SchemaValue(document: draft, at: draft.root)
        let check = try DraftCheck(schema: schema, draft: base, tokens: tokens, pointer: pointer)
        let plan = wholePlan()
        let month = currentMonth
        let outcome = try check.run(text, as: field.dataType, plan: plan, month: month)
        guard let inForce = outcome.probed else {
            // The walk never reached the value: validation checks nothing there (a field ignored for provisioning).
            return InputFeedback(verdict: .valid)
        }
        let judged = verdict(for: text, outcome, check: check, month: month)
        guard inForce.rules.formatList.contains(where: \.isCardNumber) else { return InputFeedback(verdict: judged) }
        // The brand and the masked form are shown whatever spacing the form displays; the verdict is on the value.
        return cardFeedback(judged, digits: Self.cardDigits(text))
    }

    /// The verdict on text placed in the draft: valid when validation found no error of the field's own at its
    /// pointer; else incomplete when the rules in force there (and the address's country) say more characters can
    /// make it valid; else invalid with the rule validation reported (the partial judge's, when it is among them).
    private func verdict(for text: String, _ outcome: DraftCheck.Outcome, check: DraftCheck, month: Int)
        -> InputVerdict
    {
        let own = outcome.violations.filter { $0.path == check.pointer && DraftCheck.ownRules.contains($0.rule) }
        guard let inForce = outcome.probed else { return .valid }
        return draftVerdict(for: text, own: own, inForce: inForce, at: check.tokens, month: month) {
            outcome.strings()
        }
    }

    /// The verdict on a value of a draft as text, from the violations of its own that validating the draft found at
    /// it and the rules in force there: what ``inputFeedback(_:at:draft:)`` and ``FormSession`` show.
    func draftVerdict(
        for text: String, own: [Violation], inForce: RulesInForce, rules: Rules? = nil, at tokens: [String],
        month: Int, strings: () -> [[String]: String]
    ) -> InputVerdict {
        guard let first = own.first else { return .valid }
        let rules = rules ?? inForce.rules
        if rules.presence.mustBeAbsent { return .invalid(.forbidden) }
        let partial = rules.judge(
            partial: text, as: inForce.field.dataType, patterns: schema.patterns, month: month,
            reference: schema.reference
        ).and(objectRuleVerdict(text, at: tokens, given: strings()))
        switch partial {
        case .incomplete: return .incomplete
        case .invalid(let rule) where own.contains(where: { $0.rule == rule }): return .invalid(rule)
        default: return .invalid(first.rule)
        }
    }
}

/// A form's draft with a typed value placed at one pointer, validated whole.
struct DraftCheck {
    /// The rules of a value's own that a typed value can break (not `required`, `unknownField` or rules of other
    /// values): what the draft's verdict at the typed field reads. `existsIn` counts when the prepared schema was
    /// given the other document.
    static let ownRules: Set<ViolationCode> = [
        .type, .null, .forbidden, .minLength, .maxLength, .minimum, .maximum, .format, .regex, .regexLimit, .enum,
        .existsIn,
    ]

    let schema: CompiledSchema
    let draft: SchemaValue
    /// The pointer's tokens, a `-` replaced by the index of the item it adds.
    private(set) var tokens: [String]
    /// ``tokens`` as a JSON Pointer, as violations name the value.
    private(set) var pointer: String

    /// What validating the draft with the value found.
    struct Outcome {
        var violations: [Violation]
        var probed: RulesInForce?
        /// The draft with the value in place.
        var placed: SchemaValue

        /// The draft's string values by their pointers' tokens, for the address rules of partial input (worked out
        /// only when the verdict needs them).
        func strings() -> [[String]: String] {
            var strings: [[String]: String] = [:]
            DraftCheck.collectStrings(placed, at: [], into: &strings)
            return strings
        }
    }

    init(schema: CompiledSchema, draft: SchemaValue, tokens: [String], pointer: String) throws(ValidatorError) {
        self.schema = schema
        self.draft = draft
        self.tokens = tokens
        self.pointer = pointer
        // Where the draft holds the values on the way, a `-` names the item after the last.
        var current: SchemaValue? = draft
        for (depth, token) in tokens.enumerated() {
            switch current {
            case .array(let items)?:
                if token == "-" { self.tokens[depth] = String(items.count) }
                current = Int(self.tokens[depth]).flatMap { $0 < items.count ? items[$0] : nil }
            case .object(let members)?:
                current = members.last { $0.key == token }?.value
            default:
                if token == "-" { self.tokens[depth] = "0" }
                current = nil
            }
        }
        self.pointer = self.tokens.map { "/" + JSONPointer.escape($0) }.joined()
    }

    /// Validates the draft with `text` at the pointer, as the field's data type reads it.
    func run(_ text: String, as dataType: DataType, plan: EvaluationPlan, month: Int) throws(ValidatorError) -> Outcome
    {
        let placed = try schema.placing(SchemaValue.typed(text, as: dataType), at: tokens, in: draft)
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: Array(placed.json.utf8))
        } catch {
            throw ValidatorError(
                code: .invalidDraft, message: "the draft with the value typed cannot be read: \(error)", cause: error)
        }
        var node = document.root
        for token in tokens {
            switch document.kind(of: node) {
            case .object:
                guard
                    let next = document.members(of: node).reversed().first(where: {
                        document.string(at: $0.key) == token
                    })
                else { return Outcome(violations: [], probed: nil, placed: placed) }
                node = next.value
            case .array:
                guard let offset = Int(token),
                    let next = document.elements(of: node).enumerated().first(where: { $0.offset == offset })
                else { return Outcome(violations: [], probed: nil, placed: placed) }
                node = next.element
            default:
                return Outcome(violations: [], probed: nil, placed: placed)
            }
        }
        let result = plan.evaluate(document, probing: node, month: month)
        return Outcome(violations: result.violations, probed: result.probed, placed: placed)
    }

    /// Every string of a value, by its pointer's tokens.
    static func collectStrings(
        _ value: SchemaValue, at tokens: [String], into strings: inout [[String]: String]
    ) {
        switch value {
        case .string(let text): strings[tokens] = text
        case .object(let members):
            for member in members { collectStrings(member.value, at: tokens + [member.key], into: &strings) }
        case .array(let items):
            for (offset, item) in items.enumerated() {
                collectStrings(item, at: tokens + [String(offset)], into: &strings)
            }
        default: break
        }
    }
}
