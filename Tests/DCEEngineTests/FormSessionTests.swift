import DCEEngine
import DCEForms
import Foundation
import Testing

/// A form driven as an app drives it: edits in, and every field's state, presence, brand and the draft's violations
/// out, from the rules in force for the draft as it stands.
struct FormSessionTests {
    private func session(
        _ schema: String, context: [String: String] = [:], tenderType: String? = nil, language: String = "en",
        draft: String? = nil
    ) throws -> FormSession {
        let prepared = try Fixtures.validator.prepare(
            schema, context: context, tenderType: tenderType, messages: MessageCatalogue.bundled(language: language))
        return try FormSession(prepared, draft: draft.map { Array($0.utf8) })
    }

    /// Every field `describe` lists is on the empty form, in its order, and each is empty.
    @Test(arguments: ["card-create", "payment-account", "customer-profile", "card-tokenize", "address"])
    func anEmptyFormHasEveryFieldOfTheDescription(schema: String) throws {
        let form = try session(schema)
        let described = try #require(Fixtures.validator.schema(schema)).describeForm()
        let expected = described.groups.flatMap(\.fields).map(\.path).filter { !$0.contains("/-") }
        #expect(form.fields.map(\.path) == expected)
        #expect(form.fields.allSatisfy { $0.state == .empty })
        #expect(form.groups.map(\.dataGroup) == described.groups.map(\.dataGroup))
    }

    @Test func aPhysicalProgramRequiresTheDeliveryAddressAsItIsTyped() throws {
        var form = try session("card-create", context: ["region": "EU"])
        #expect(form.field(at: "/deliveryAddress")?.required == false)
        try form.set("SKRILL-PHYSICAL-MC-EEA", at: "/programName")
        #expect(form.field(at: "/deliveryAddress")?.required == true)
        #expect(form.violations.contains { $0.path == "/deliveryAddress" && $0.rule == .required })
        try form.set("SKRILL-VIRTUAL-MC-EEA", at: "/programName")
        #expect(form.field(at: "/deliveryAddress")?.required == false)
        #expect(!form.violations.contains { $0.path == "/deliveryAddress" })
    }

    @Test func aUSCustomerMustAcceptTheConsentsAndMayNotSetAPIN() throws {
        var form = try session("card-create", context: ["region": "US"])
        #expect(form.field(at: "/termsAndConditionsAccepted")?.required == true)
        #expect(form.field(at: "/eDisclosureAccepted")?.required == true)
        let pin = try #require(form.field(at: "/cardPin"))
        #expect(pin.forbidden && pin.forbiddenReason?.isEmpty == false)
        try form.set("1234", at: "/cardPin")
        #expect(form.field(at: "/cardPin")?.state == .invalid && form.field(at: "/cardPin")?.rule == .forbidden)
        let eu = try session("card-create", context: ["region": "EU"])
        #expect(eu.field(at: "/cardPin")?.forbidden == false)
        #expect(eu.field(at: "/termsAndConditionsAccepted")?.required == false)
    }

    /// Without a region given, a US delivery address makes the customer a US one (the derived context), live.
    @Test func theRegionADeliveryAddressDerivesAppliesAsItIsTyped() throws {
        var form = try session("card-create")
        #expect(form.field(at: "/cardPin")?.forbidden == false)
        try form.set("US", at: "/deliveryAddress/countryCode")
        #expect(form.field(at: "/cardPin")?.forbidden == true)
        #expect(form.field(at: "/termsAndConditionsAccepted")?.required == true)
        try form.set("DE", at: "/deliveryAddress/countryCode")
        #expect(form.field(at: "/cardPin")?.forbidden == false)
    }

    @Test func statesFollowWhatIsTyped() throws {
        var form = try session("card-create", context: ["region": "EU"])
        try form.set("E", at: "/currency")
        #expect(form.field(at: "/currency")?.state == .incomplete)
        try form.set("EUR", at: "/currency")
        #expect(form.field(at: "/currency")?.state == .valid && form.field(at: "/currency")?.message == nil)
        try form.set("E1", at: "/currency")
        let currency = try #require(form.field(at: "/currency"))
        #expect(
            currency.state == .invalid && currency.rule == .format && currency.message?.contains("Currency") == true)
        try form.set("", at: "/currency")
        #expect(form.field(at: "/currency")?.state == .empty)
        #expect(form.violations.contains { $0.path == "/currency" && $0.rule == .required })
        try form.set("12a", at: "/cardPin")
        #expect(form.field(at: "/cardPin")?.state == .invalid)
    }

    /// List items: added, typed into (the item's tender type binds its rules), removed.
    @Test func aListItemsCardNumberShowsItsBrandAndMaskedForm() throws {
        var form = try session("customer-profile")
        #expect(form.field(at: "/paymentAccounts")?.itemCount == nil)
        let item = try form.addItem(to: "/paymentAccounts")
        #expect(item == "/paymentAccounts/0")
        #expect(form.field(at: "/paymentAccounts")?.itemCount == 1)
        try form.set("credit", at: "/paymentAccounts/0/accountType")
        try form.set("4", at: "/paymentAccounts/0/cardNumber")
        var number = try #require(form.field(at: "/paymentAccounts/0/cardNumber"))
        #expect(number.state == .incomplete && number.cardBrand == nil)  // Visa, Maestro's 493698 or Elo's 401178
        #expect(number.cardBrands?.map(\.id) == ["visa", "maestro", "elo"])
        try form.set("4111111111111111", at: "/paymentAccounts/0/cardNumber")
        number = try #require(form.field(at: "/paymentAccounts/0/cardNumber"))
        #expect(number.state == .valid && number.masked == "•••• •••• •••• 1111")
        #expect(number.description.pciEncryptionRequired)
        try form.set("123", at: "/paymentAccounts/0/cardNumber")
        number = try #require(form.field(at: "/paymentAccounts/0/cardNumber"))
        #expect(number.state == .invalid && number.cardBrands == [])
        try form.addItem(to: "/paymentAccounts")
        #expect(form.field(at: "/paymentAccounts/1/cardNumber") != nil)
        try form.remove(at: "/paymentAccounts/0")
        #expect(form.field(at: "/paymentAccounts/1/cardNumber") == nil)
        #expect(form.field(at: "/paymentAccounts/0/cardNumber")?.state == .empty)
    }

    /// Labels, group titles, messages and reasons in the form's language.
    @Test func aGermanFormSpeaksGerman() throws {
        var form = try session("payment-account", tenderType: "credit", language: "de")
        #expect(form.field(at: "/cardNumber")?.description.label == "Kartennummer")
        #expect(form.groups.first?.title == "Karteninformationen")
        try form.set("41x", at: "/cardNumber")
        #expect(form.field(at: "/cardNumber")?.message?.contains("Kartennummer") == true)
    }

    /// What would be sent masks every sensitive value; the example leaves them out.
    @Test func theRequestIsMaskedAndTheExampleKeepsNoSensitiveValue() throws {
        var form = try session("payment-account", tenderType: "credit")
        try form.set("4111111111111111", at: "/cardNumber")
        try form.set("987", at: "/securityCode")
        try form.set("12/39", at: "/expiry")
        let request = String(decoding: form.request, as: UTF8.self)
        #expect(request.contains("•••• •••• •••• 1111") && !request.contains("4111111111111111"))
        #expect(!request.contains("987"))
        let example = String(decoding: form.example, as: UTF8.self)
        #expect(!example.contains("4111") && !example.contains("1111") && !example.contains("987"))
        #expect(example.contains("12/39"))
        #expect(String(decoding: form.payload, as: UTF8.self).contains("4111111111111111"))
    }

    /// The form's state of each string of every example is the draft check's verdict, and the form's violations are
    /// validation's.
    @Test(arguments: DraftInputTests.examples.filter { $0.expect == "valid" || $0.file.contains("invalid-") })
    func theFormAgreesWithTheDraftCheckOnEveryExample(example: DraftInputTests.Example) throws {
        let prepared = try Fixtures.validator.prepare(
            example.schema, context: example.context, tenderType: example.tenderType)
        guard let document = try? JSONDocument(bytes: example.payload),
            case .object = SchemaValue(document: document, at: document.root)
        else { return }
        let form = try FormSession(prepared, draft: example.payload)
        #expect(form.violations.map(\.path).sorted() == prepared.validate(document).errors.map(\.path).sorted())
        for field in form.fields where field.state != .empty {
            guard
                let text = DraftInputTests.strings(
                    of: SchemaValue(document: document, at: document.root), schema: prepared
                ).first(where: { $0.0 == field.path })?.1
            else { continue }
            let verdict = try prepared.checkInput(text, at: field.path, draft: document)
            let state: FormSession.State =
                switch verdict {
                case .valid: .valid
                case .incomplete: .incomplete
                case .invalid: .invalid
                }
            #expect(field.state == state, "\(example.file) \(field.path)")
        }
    }

    /// Given the customer's programs, the program name offers the eligible ones (allowableCards at least 1).
    @Test func theEligibleProgramsAreTheProgramNamesChoices() throws {
        let programs = try JSONDocument(
            bytes: Array(
                #"{"programs": [{"programName": "A-PHYSICAL", "cardType": "PHYSICAL", "currency": "EUR", "allowableCards": 2}, {"programName": "B-VIRTUAL", "cardType": "VIRTUAL", "currency": "EUR", "allowableCards": 0}, {"programName": "C-VIRTUAL", "cardType": "VIRTUAL", "currency": "USD", "allowableCards": 1}]}"#
                    .utf8))
        let prepared = try Fixtures.validator.prepare("card-create", context: ["region": "EU"])
            .relating(["card-programs-response": programs])
        var form = try FormSession(prepared)
        #expect(form.field(at: "/programName")?.choices == ["A-PHYSICAL", "C-VIRTUAL"])
        #expect(form.field(at: "/currency")?.choices == nil)
        try form.set("B-VIRTUAL", at: "/programName")
        #expect(form.field(at: "/programName")?.state == .invalid && form.field(at: "/programName")?.rule == .existsIn)
        #expect(try FormSession(Fixtures.validator.prepare("card-create")).field(at: "/programName")?.choices == nil)
    }

    /// The listing of docs/forms.md ("A whole form: `FormSession`"), as written.
    @Test func theReadmeListingRunsAsWritten() throws {
        let validator = Fixtures.validator
        var form = try FormSession(validator.prepare("card-create", context: ["region": "EU"]))
        try form.set("SKRILL-PHYSICAL-MC-EEA", at: "/programName")
        #expect(form.field(at: "/deliveryAddress")?.required == true)
        try form.set("12a", at: "/cardPin")
        #expect(form.field(at: "/cardPin")?.state == .invalid)
        #expect(form.field(at: "/cardPin")?.message == "Card PIN must be exactly 4 digits")
        #expect(form.violations.map(\.path) == ["/currency", "/cardPin", "/deliveryAddress"])
        #expect(
            String(decoding: form.request, as: UTF8.self)
                == #"{"programName":"SKRILL-PHYSICAL-MC-EEA","cardPin":"[withheld]"}"#)
        #expect(String(describing: form) == "FormSession(card-create, 15 fields, 3 violations)")
        #expect(!String(reflecting: form).contains("12a"))
    }

    @Test func editsOfWhatIsNoFieldAreRefused() throws {
        var form = try session("card-create")
        #expect(throws: ValidatorError.self) { try form.set("x", at: "/programNam") }
        #expect(throws: ValidatorError.self) { try form.addItem(to: "/currency") }
        #expect(throws: ValidatorError.self) { try form.set("x", at: "/paymentAccounts/5/cardNumber") }
        #expect(throws: ValidatorError.self) { try FormSession(form.schema, draft: Array("[1]".utf8)) }
    }
}
