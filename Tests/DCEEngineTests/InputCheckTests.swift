import DCEEngine
import DCEForms
import Foundation
import Testing

/// One field's input as a person types it: valid, incomplete (can still become valid) or invalid (never can).
struct InputCheckTests {
    private func verdict(
        _ text: String, _ pointer: String, schema: String, context: [String: String] = [:], tenderType: String? = nil
    ) throws -> InputVerdict {
        try Fixtures.validator.prepare(schema, context: context, tenderType: tenderType).checkInput(text, at: pointer)
    }

    @Test(arguments: [
        ("", InputVerdict.incomplete), ("4", .incomplete), ("41", .incomplete), ("4111111111111111", .valid),
        ("4111111111111112", .incomplete), ("41111111111111111111", .invalid(.maxLength)), ("41a", .invalid(.format)),
    ])
    func cardNumbers(text: String, expected: InputVerdict) throws {
        #expect(try verdict(text, "/cardNumber", schema: "payment-account", tenderType: "debit") == expected, "\(text)")
    }

    @Test(arguments: [
        ("", InputVerdict.incomplete), ("12", .incomplete), ("1234", .valid), ("12a", .invalid(.regex)),
        ("12345", .invalid(.regex)),
    ])
    func pins(text: String, expected: InputVerdict) throws {
        #expect(try verdict(text, "/cardPin", schema: "card-create", context: ["region": "EU"]) == expected, "\(text)")
    }

    @Test func choicesCodesAndPhoneNumbers() throws {
        #expect(try verdict("GOO", "/walletType", schema: "card-tokenize") == .incomplete)
        #expect(try verdict("GOOGLE_PAY", "/walletType", schema: "card-tokenize") == .valid)
        #expect(try verdict("PAY", "/walletType", schema: "card-tokenize") == .invalid(.enum))
        #expect(try verdict("EU", "/currency", schema: "card-create") == .incomplete)
        #expect(try verdict("EUR", "/currency", schema: "card-create") == .valid)
        #expect(try verdict("EUX", "/currency", schema: "card-create") == .invalid(.format))
        #expect(try verdict("+1 12", "/mobile", schema: "card-create") == .incomplete)
        #expect(try verdict("+1 123456789", "/mobile", schema: "card-create") == .valid)
        #expect(try verdict("1 123", "/mobile", schema: "card-create") == .invalid(.regex))
    }

    /// A `DateTime` field's own `format` is an alternative to its other formats, never to the date-time its type
    /// requires: a date typed into it is not valid as it stands, for partial input as for validation.
    @Test func theFormatATypeImpliesIsRequiredBesideTheFieldsOwn() throws {
        let schema = #"{"id": "s", "fields": [{"key": "at", "dataType": "DateTime", "format": "date"}]}"#
        let validator = try Fixtures.validator(["s": schema])
        let prepared = try validator.prepare("s")
        #expect(try prepared.checkInput("2026-11-23", at: "/at") == .incomplete)
        #expect(
            try validator.validate(json: Array(#"{"at": "2026-11-23"}"#.utf8), schema: "s").errors.map(\.rule) == [
                .format
            ])
        #expect(try prepared.checkInput("2026-11-23T10:00:00Z", at: "/at") == .invalid(.format))
    }

    @Test func contextsAndDatesApply() throws {
        #expect(try verdict("2050", "/zipCode", schema: "address", context: ["addressUse": "billing"]) == .incomplete)
        #expect(try verdict("20500", "/zipCode", schema: "address", context: ["addressUse": "profile"]) == .valid)
        #expect(
            try verdict("205001", "/zipCode", schema: "address", context: ["addressUse": "profile"]) == .invalid(.regex)
        )
        #expect(try verdict("0", "/expiry", schema: "payment-account") == .incomplete)
        #expect(try verdict("08/3", "/expiry", schema: "payment-account") == .incomplete)
        #expect(try verdict("08/39", "/expiry", schema: "payment-account") == .valid)
        #expect(try verdict("2", "/expiry", schema: "payment-account") == .invalid(.format))
        // expired can never become valid
        #expect(try verdict("01/20", "/expiry", schema: "payment-account") == .invalid(.format))
        #expect(try verdict("Sofia-1", "/deliveryAddress/city", schema: "card-create") == .invalid(.regex))
    }

    /// Values other fields already hold are given: rules that read them apply, including contexts derived from them
    /// (the brand from a given card number sets the security code's length).
    @Test func givenValuesOfOtherFieldsApply() throws {
        let prepared = try Fixtures.validator.prepare("payment-account")
        #expect(try prepared.checkInput("123", at: "/securityCode") == .valid)
        #expect(
            try prepared.checkInput("123", at: "/securityCode", given: ["/cardNumber": "378282246310005"])
                == .incomplete)
        #expect(
            try prepared.checkInput("1234", at: "/securityCode", given: ["/cardNumber": "4111111111111111"])
                == .invalid(.regex))
    }

    /// The rules validation would apply to the value, as far as the typed value alone can tell.
    @Test func agreesWithValidationOnForbiddenFieldsAndContextsTheFieldImplies() throws {
        // US customers set their PIN elsewhere: any PIN is refused, as validation refuses it.
        #expect(
            try verdict("1234", "/cardPin", schema: "card-create", context: ["region": "US"]) == .invalid(.forbidden))
        #expect(try verdict("1234", "/cardPin", schema: "card-create", context: ["region": "EU"]) == .valid)
        // Typing into /billingAddress/zipCode implies a billing address, from which payment-account derives
        // addressUse=billing: 9 digits, so 5 are not enough yet.
        #expect(try verdict("12345", "/billingAddress/zipCode", schema: "payment-account") == .incomplete)
        #expect(try verdict("123456789", "/billingAddress/zipCode", schema: "payment-account") == .valid)
        #expect(
            !(try Fixtures.validate(#"{"billingAddress": {"zipCode": "12345"}}"#, schema: "payment-account").summary
                .filter { $0.hasSuffix("@/billingAddress/zipCode") }.isEmpty))
    }

    @Test func numbersAndUnknownFields() throws {
        #expect(try verdict("-", "/offset", schema: "card-list-query") == .incomplete)
        #expect(try verdict("-1", "/offset", schema: "card-list-query") == .invalid(.minimum))
        #expect(try verdict("20", "/limit", schema: "card-list-query") == .valid)
        #expect(try verdict("2.5", "/limit", schema: "card-list-query") == .invalid(.type))
        #expect(throws: ValidatorError.self) { try verdict("x", "/nope", schema: "card-create") }
    }
}
