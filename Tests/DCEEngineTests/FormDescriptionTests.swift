import DCEEngine
import DCEForms
import Testing

/// The form description a screen builds from: order, groups, requirements for a context and tender type, hints.
struct FormDescriptionTests {
    private func form(_ schema: String, context: [String: String] = [:], tenderType: String? = nil) throws
        -> FormDescription
    {
        try #require(Fixtures.validator.schema(schema)).describeForm(context: context, tenderType: tenderType)
    }

    private func field(_ form: FormDescription, _ path: String) throws -> FormDescription.Field {
        try #require(form.groups.flatMap(\.fields).first { $0.path == path })
    }

    @Test func fieldsComeInOrderGroupedByDataGroupWithNestedFieldsUnderTheirParent() throws {
        let credit = try form("payment-account", tenderType: "credit")
        #expect(credit.groups.map(\.dataGroup) == ["CARD_INFORMATION", "BILLING_INFORMATION"])
        #expect(
            credit.groups[0].fields.map(\.key) == [
                "cardNumber", "expiry", "securityCode", "cardholderName", "nickname", "accountType",
            ])
        #expect(
            credit.groups[1].fields.map(\.path).prefix(3) == [
                "/billingAddress", "/billingAddress/line1", "/billingAddress/line2",
            ])
    }

    @Test func tenderTypesAndContextsChangeWhatIsRequiredAndItsLengths() throws {
        let credit = try field(try form("payment-account", tenderType: "credit"), "/cardNumber")
        #expect(credit.required && credit.minLength == 15 && credit.maxLength == 16)
        #expect(
            credit.masked && credit.storageRestricted && credit.pciEncryptionRequired && credit.updatesAllowed == false)
        #expect(credit.inputHint == "numeric" && credit.reverificationRequired)
        let gift = try form("payment-account", tenderType: "gift")
        #expect(try field(gift, "/cardNumber").minLength == 16)
        #expect(try !field(gift, "/securityCode").required)
        #expect(try field(try form("payment-account", tenderType: "debit"), "/securityCode").required)
        let us = try form("card-create", context: ["region": "US"])
        #expect(try field(us, "/cardPin").forbidden)
        #expect(try field(us, "/termsAndConditionsAccepted").required)
        let eu = try form("card-create", context: ["region": "EU"])
        #expect(try !field(eu, "/cardPin").forbidden && !field(eu, "/termsAndConditionsAccepted").required)
        #expect(try field(eu, "/deliveryAddress/postalCode").maxLength == 16)
    }

    /// A field's own lengths and its `additionalDataValidations` lengths both hold: the form shows the tighter of
    /// each, partial input stops where the tighter maximum does, and validation enforces the same bounds.
    @Test func lengthsFromValidationsNarrowTheFieldsOwnEverywhere() throws {
        let schema = #"""
            {"id": "s", "fields": [{"key": "code", "dataType": "String", "minLength": 2, "maxLength": 19,
              "additionalDataValidations": [{"minLength": 4}, {"maxLength": 16, "regex": "^[0-9]*$"}]}]}
            """#
        let validator = try Fixtures.validator(["s": schema])
        let prepared = try validator.prepare("s")
        let code = try field(try #require(validator.schema("s")).describeForm(), "/code")
        #expect(code.minLength == 4 && code.maxLength == 16)
        #expect(try prepared.checkInput("123", at: "/code") == .incomplete)
        #expect(try prepared.checkInput(String(repeating: "1", count: 16), at: "/code") == .valid)
        #expect(try prepared.checkInput(String(repeating: "1", count: 17), at: "/code") == .invalid(.maxLength))
        func rules(_ value: String) throws -> [ViolationCode] {
            try validator.validate(json: Array(#"{"code": "\#(value)"}"#.utf8), schema: "s").errors.map(\.rule)
        }
        #expect(try rules("123") == [.minLength])
        #expect(try rules(String(repeating: "1", count: 16)).isEmpty)
        #expect(try rules(String(repeating: "1", count: 17)) == [.maxLength])
    }

    /// Forbidden wins over required: where an override forbids a field its base requires, the form shows it
    /// forbidden and not required, validation does not miss it in an empty request, and sending it is refused.
    @Test func aForbiddenFieldIsNeverRequiredInTheFormOrInValidation() throws {
        let schema = #"""
            {"id": "s", "contexts": {"region": {"values": ["EU", "US"]}},
             "fields": [{"key": "pin", "dataType": "String", "required": true,
                         "overrides": [{"when": {"context": "region", "equals": "US"}, "forbidden": true}]}]}
            """#
        let validator = try Fixtures.validator(["s": schema])
        let us = try field(try #require(validator.schema("s")).describeForm(context: ["region": "US"]), "/pin")
        #expect(us.forbidden && !us.required && !us.conditionallyRequired)
        let eu = try field(try #require(validator.schema("s")).describeForm(context: ["region": "EU"]), "/pin")
        #expect(!eu.forbidden && eu.required)
        func rules(_ json: String, _ region: String) throws -> [ViolationCode] {
            try validator.validate(json: Array(json.utf8), schema: "s", context: ["region": region]).errors.map(\.rule)
        }
        #expect(try rules("{}", "US").isEmpty)
        #expect(try rules(#"{"pin": "1234"}"#, "US") == [.forbidden])
        #expect(try rules(#"{"pin": null}"#, "US") == [.forbidden])
        #expect(try rules("{}", "EU") == [.required])
        #expect(try rules(#"{"pin": null}"#, "EU") == [.required])
    }

    @Test func rulesThatDependOnOtherFieldsAreMarkedConditional() throws {
        let unknownRegion = try form("card-create")
        let terms = try field(unknownRegion, "/termsAndConditionsAccepted")
        // a US delivery address makes the customer a US customer
        #expect(!terms.required && terms.conditionallyRequired)
        #expect(try field(unknownRegion, "/deliveryAddress").conditionallyRequired)  // physical programs
        let visa = try form("card-tokenize", context: ["scheme": "VISA"])
        #expect(try field(visa, "/clientDeviceId").conditionallyRequired)
        #expect(
            try !field(try form("card-tokenize", context: ["scheme": "MC"]), "/clientDeviceId").conditionallyRequired)
    }

    /// Values other fields already hold are given: an override reading one applies or not as it decides, and a
    /// context derived from one is known.
    @Test func givenValuesSettleRulesThatReadThem() throws {
        let schema = try #require(Fixtures.validator.schema("card-create"))
        let physical = try schema.describeForm(given: ["/programName": "ACME PHYSICAL DEBIT"])
        #expect(try field(physical, "/deliveryAddress").required)
        let virtual = try schema.describeForm(given: ["/programName": "ACME VIRTUAL"])
        #expect(
            try !field(virtual, "/deliveryAddress").required
                && !field(virtual, "/deliveryAddress").conditionallyRequired)
        #expect(throws: ValidatorError.self) { try schema.describeForm(given: ["/nowhere": "x"]) }
        // A context the schema derives from a given value is known: a US delivery address makes a US customer.
        let us = try schema.describeForm(given: ["/deliveryAddress/countryCode": "US"])
        #expect(try field(us, "/cardPin").forbidden && field(us, "/termsAndConditionsAccepted").required)
        let bulgaria = try schema.describeForm(given: ["/deliveryAddress/countryCode": "BG"])
        #expect(
            try !field(bulgaria, "/cardPin").forbidden
                && !field(bulgaria, "/termsAndConditionsAccepted").conditionallyRequired)
    }

    /// An address's members say which part they are and whose country they follow; once the country is given, what
    /// it asks: the parts it uses and requires (then required in the form), its names, example postal codes (the
    /// given state's), and the states to choose from.
    @Test func anAddressFollowsItsGivenCountry() throws {
        let schema = try #require(Fixtures.validator.schema("delivery-address"))
        let unknown = try field(try schema.describeForm(), "/postalCode")
        #expect(
            unknown.address?.part == "postalCode" && unknown.address?.countryPath == "/countryCode"
                && unknown.address?.country == nil)
        let germany = try schema.describeForm(given: ["/countryCode": "DE"])
        let postal = try field(germany, "/postalCode")
        #expect(postal.required && postal.address?.required == true && postal.address?.name == "postal")
        #expect(postal.address?.examples?.isEmpty == false)
        #expect(try field(germany, "/state").address?.used == false)
        let california = try schema.describeForm(given: ["/countryCode": "US", "/state": "California"])
        let states = try #require(try field(california, "/state").address?.subdivisions)
        #expect(states.contains { $0.key == "CA" && $0.name == "California" })
        #expect(try field(california, "/postalCode").address?.examples?.allSatisfy { $0.hasPrefix("9") } == true)
        #expect(try field(california, "/address2").address == nil)  // not a part the address names
    }

    @Test func inputHintsAndOptions() throws {
        let create = try form("card-create")
        #expect(try field(create, "/currency").inputHint == "currency")
        #expect(try field(create, "/mobile").inputHint == "phone")
        #expect(try field(create, "/deliveryAddress/countryCode").inputHint == "country")
        #expect(try field(create, "/eDisclosureAccepted").inputHint == "toggle")
        let tokenize = try form("card-tokenize")
        #expect(try field(tokenize, "/walletType").options == ["APPLE_PAY", "GOOGLE_PAY", "SAMSUNG_PAY"])
        #expect(try field(form("address", context: ["addressUse": "billing"]), "/zipCode").inputHint == "numeric")
    }

    @Test func unknownContextsAreCallerErrors() {
        #expect(throws: ValidatorError.self) { try form("card-create", context: ["region": "CA"]) }
        #expect(throws: ValidatorError.self) { try form("payment-account", tenderType: "prepaid") }
    }
}
