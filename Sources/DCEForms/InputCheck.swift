public import DCEEngine

/// A field checked as it is typed: its verdict, and what a form shows beside it.
extension PreparedSchema {
    /// Checks one field's partial input, for feedback on every keystroke.
    ///
    /// The field's rules for this prepared context and tender type apply. Rules that depend on other fields' values
    /// apply when those values are `given`; the others are checked when the whole request is validated. In an
    /// address (`postalAddress`) whose country is given, a postal code follows the country's pattern (and the
    /// given state's prefix) and a state the country's subdivisions, as they are typed: `10` is an incomplete
    /// postal code in Bulgaria, `8` an invalid one in California, `Cali` an incomplete state of the United States.
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - pointer: The field's JSON Pointer, such as `/cardNumber` or `/billingAddress/zipCode`; an item of a list by
    ///     its index or by `-`, as ``FormDescription`` names the fields of every item (`/paymentAccounts/-/cardNumber`).
    ///   - given: What other fields of the request already hold, by JSON Pointer, as text (`["/countryCode": "BG"]`).
    /// - Returns: Valid, incomplete, or invalid with the rule.
    /// - Throws: ``/DCEEngine/ValidatorError`` when the pointer, or a pointer of `given`, names no field.
    public func checkInput(_ text: String, at pointer: String, given: [String: String] = [:]) throws(ValidatorError)
        -> InputVerdict
    {
        try inputFeedback(text, at: pointer, given: given).verdict
    }

    /// Checks one field's partial input as ``checkInput(_:at:given:)`` does, and says what a form shows beside it: for a
    /// card number (a field of format `card-number`), its brand as soon as the digits typed decide it, and its
    /// masked form in the brand's groups. Spaces and dashes in a card number are formatting here, not errors,
    /// wherever they are typed (whether the stored value may keep them is the format's to say).
    ///
    /// ```swift
    /// let feedback = try prepared.inputFeedback("3782 822463", at: "/cardNumber")
    /// // feedback.verdict == .incomplete, feedback.cardBrand?.name == "American Express",
    /// // feedback.cardBrand?.securityCodeLength == 4
    /// ```
    ///
    /// - Parameters:
    ///   - text: The characters typed so far.
    ///   - pointer: The field's JSON Pointer, as for ``checkInput(_:at:given:)``.
    ///   - given: What other fields already hold, as for ``checkInput(_:at:given:)``.
    /// - Returns: The verdict, and the card's brand and masked form when the field holds a card number.
    /// - Throws: ``/DCEEngine/ValidatorError`` when the pointer, or a pointer of `given`, names no field.
    public func inputFeedback(_ text: String, at pointer: String, given: [String: String] = [:]) throws(ValidatorError)
        -> InputFeedback
    {
        guard let field = schema.field(at: pointer), let path = JSONPointer.tokens(of: pointer) else {
            throw schema.noField(at: pointer)
        }
        let known = try schema.givenValues(given)
        guard let attributes = inputRules(of: field, at: path, text: text, given: known) else {
            return InputFeedback(verdict: .valid)  // ignored for provisioning: validation checks nothing there
        }
        if attributes.presence.mustBeAbsent { return InputFeedback(verdict: .invalid(.forbidden)) }
        guard attributes.formatList.contains(where: \.isCardNumber) else {
            let own = attributes.judge(
                partial: text, as: field.dataType, patterns: schema.patterns, month: currentMonth,
                reference: schema.reference)
            return InputFeedback(verdict: own.and(objectRuleVerdict(text, at: path, given: known)))
        }
        let digits = Self.cardDigits(text)
        let verdict = attributes.judge(
            partial: digits, as: field.dataType, patterns: schema.patterns, month: currentMonth,
            reference: schema.reference)
        return cardFeedback(verdict, digits: digits)
    }

    /// A card number as typed without the spaces and dashes a form shows between its groups.
    static func cardDigits(_ text: String) -> String {
        CardBrands.withoutSeparators(text)
    }

    /// The feedback for a card number: the verdict, and for digits the brand to show, the brands still possible and
    /// the masked form.
    func cardFeedback(_ verdict: InputVerdict, digits: String) -> InputFeedback {
        let brands = schema.reference.cardBrands
        let onlyDigits = digits.utf8.allSatisfy { $0 &- 0x30 < 10 }
        let typing = onlyDigits ? brands.typing(digits) : CardBrands.Typing(brand: nil, candidates: [])
        return InputFeedback(
            verdict: verdict, cardBrand: typing.brand, cardBrands: typing.candidates,
            masked: onlyDigits && !digits.isEmpty ? Masking.maskCardNumber(digits, brands: brands) : nil)
    }

    /// The rules in force for a field while its value is typed: the base, then each override whose condition is
    /// known to hold. Known are the prepared context and tender type, the typed value itself, the values `given` for
    /// other fields, and that the objects holding the field exist (a value typed into `/billingAddress/zipCode` implies
    /// a `/billingAddress`), and so any context derived from those alone; an override that reads other fields not
    /// given is left to full validation. `nil` when the request provisions an account (`operation=provision`) and
    /// the field is marked `ignoreForProvisioning` under the tender type in force, as validation then ignores it.
    func inputRules(of field: CompiledField, at path: [String], text: String, given: [[String]: String])
        -> Rules?
    {
        guard let ruling = inputRuling(of: field, at: path, text: text, given: given), ruling.skipped != true else {
            return nil
        }
        return ruling.rules(of: field)
    }

    /// What the resolver decides at a field while it is typed (``inputRules(of:at:text:given:)``): the steps validation
    /// takes, field by field on the way down, with what is typed and given; `nil` when the field is not in the
    /// program. A field on the way that provisioning skips decides for everything inside it.
    package func inputRuling(of field: CompiledField, at path: [String], text: String, given: [[String]: String])
        -> FieldRuling?
    {
        let tables = schema.program.tables
        var reader = GivenValuesReader(
            schema: schema,
            scope: KnownScope(slots: contextSlotValues.map(KnownValue.known), tenderType: tenderType), given: given,
            typed: (path, field.dataType.isString ? text : nil))
        // Contexts the caller left out, derived as validation derives them.
        tables.deriveContexts(reading: &reader)
        // Each field on the way down, outermost first: what it binds (a member is known when it is typed or given,
        // else the value from outside holds, as a form reads it), then whether provisioning skips it.
        guard !path.isEmpty else {
            return schema.program.id(of: field).map { tables.ruling(of: $0, provisioning: false, reading: &reader) }
        }
        for (depth, enclosing) in schema.fields(along: path).enumerated() {
            guard let id = schema.program.id(of: enclosing) else { return nil }
            let tokens = Array(path.prefix(depth + 1))
            if !enclosing.bindings.isEmpty {
                reader.containers = [tokens]
                tables.bind(id, objectPresent: true, reading: &reader)
            }
            reader.containers = GivenValuesReader.holders(of: tokens)
            // Provisioning skips members of objects, as validation's walk does, not a list's items.
            let ruling = tables.ruling(of: id, provisioning: provisioning && enclosing.key != nil, reading: &reader)
            if ruling.skipped == true || enclosing === field { return ruling }
        }
        return nil
    }

    /// What the rules over the members of the object holding the field say of it while it is typed
    /// (``ObjectRuleKind/judge(partial:at:given:reference:)``: a postal code against its address's given country),
    /// given the other members' values; `nil` when none says anything of it.
    func objectRuleVerdict(_ text: String, at path: [String], given: [[String]: String]) -> InputVerdict? {
        guard let key = path.last else { return nil }
        let objectPath = Array(path.dropLast())
        let enclosing = schema.fields(along: objectPath)
        guard
            let object = objectPath.isEmpty ? schema.root : enclosing.count == objectPath.count ? enclosing.last : nil,
            !object.objectRules.isEmpty, let place = object.fields.firstIndex(where: { $0.key == key })
        else { return nil }
        let keys = object.fields.map(\.key)
        func value(_ member: Int) -> String? { keys[member].flatMap { given[objectPath + [$0]] } }
        return object.objectRules.reduce(nil as InputVerdict?) { verdict, rule in
            guard let said = rule.judge(partial: text, at: place, given: value, reference: schema.reference) else {
                return verdict
            }
            return verdict?.and(said) ?? said
        }
    }
}

/// What a form shows beside a field while it is typed (``/DCEForms/DCEEngine/PreparedSchema/inputFeedback(_:at:given:)``).
public struct InputFeedback: Hashable, Sendable {
    /// Valid, incomplete, or invalid with the rule.
    public let verdict: InputVerdict
    /// For a card number: the brand to show (``/DCEEngine/CardBrands/typing(_:)``): the only brand still possible (`41`: Visa;
    /// none for `4`, which may still be Elo's 401178).
    public let cardBrand: CardBrands.Brand?
    /// For a card number: every brand a number starting with the digits typed can be (all before the first digit,
    /// none once no brand's ranges can match); `nil` for any other field.
    public let cardBrands: [CardBrands.Brand]?
    /// For a card number of digits (and spaces or dashes): the masked form every output shows
    /// (``/DCEEngine/Masking/maskCardNumber(_:brands:)``), in its brand's groups, every digit but the last four hidden
    /// (`•••• •••• •••• 1111`); every digit hidden while fewer than 12 are typed.
    public let masked: String?

    init(
        verdict: InputVerdict, cardBrand: CardBrands.Brand? = nil, cardBrands: [CardBrands.Brand]? = nil,
        masked: String? = nil
    ) {
        self.verdict = verdict
        self.cardBrand = cardBrand
        self.cardBrands = cardBrands
        self.masked = masked
    }
}
