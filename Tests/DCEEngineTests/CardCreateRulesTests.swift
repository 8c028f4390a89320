import DCEEngine
import DCEModels
import Foundation
import Testing

/// Every card-create rule of seed 002, through the public API.
struct CardCreateRulesTests {
    private let euVirtual = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#

    private func validate(_ json: String, context: [String: String] = [:]) throws -> ValidationReport {
        try Fixtures.validate(json, schema: "card-create", context: context)
    }

    @Test func acceptsTheMinimalRequest() throws {
        #expect(try validate(euVirtual).valid)
    }

    @Test func programNameAndCurrencyAreRequired() throws {
        let report = try validate("{}")
        #expect(report.summary == ["required@/currency", "required@/programName"])
        #expect(report.errors.allSatisfy { $0.line == 1 && $0.column == 1 })
        #expect(report.errors.first?.message == "Currency is required")
    }

    @Test(arguments: ["EUR", "USD", "BGN", "JPY", "CHF"]) func acceptsISO4217Currencies(code: String) throws {
        #expect(try validate(#"{"programName": "P", "currency": "\#(code)"}"#).valid)
    }

    /// `DEM` was withdrawn in 2002: long enough ago that the reference data no longer lists it as withdrawn recently
    /// (`HRK`, withdrawn in 2023, still passes, as `BGN` does).
    @Test(arguments: ["EURO", "eur", "ABC", "DEM", "", "US"]) func rejectsWhatIsNotAnISO4217Code(code: String) throws {
        #expect(try validate(#"{"programName": "P", "currency": "\#(code)"}"#).summary == ["format@/currency"])
    }

    @Test(arguments: [
        ("+1 123456789", true), ("+359 888123456", true), ("+1123456789", false), ("1 123456789", false),
        ("+1 12345678901234567", false), ("+1 123 456", false), ("+1 123456789\n", false),
    ])
    func mobileHasThePlusCountryCodeSpaceNumberForm(mobile: String, valid: Bool) throws {
        let escaped = mobile.replacingOccurrences(of: "\n", with: "\\n")
        let report = try validate(#"{"programName": "P", "currency": "EUR", "mobile": "\#(escaped)"}"#)
        #expect(report.valid == valid)
        if !valid { #expect(report.summary == ["regex@/mobile"]) }
    }

    @Test func externalIdIsOptionalAndNullable() throws {
        #expect(try validate(#"{"programName": "P", "currency": "EUR", "externalId": "a2322550"}"#).valid)
        #expect(try validate(#"{"programName": "P", "currency": "EUR", "externalId": null}"#).valid)
        #expect(
            try validate(#"{"programName": "P", "currency": "EUR", "externalId": 7}"#).summary == ["type@/externalId"])
    }

    @Test func euCustomersMaySendAFourDigitPin() throws {
        #expect(
            try validate(#"{"programName": "P", "currency": "EUR", "cardPin": "1234"}"#, context: ["region": "EU"])
                .valid)
        for pin in ["123", "12345", "12a4", "١٢٣٤"] {
            let report = try validate(
                #"{"programName": "P", "currency": "EUR", "cardPin": "\#(pin)"}"#, context: ["region": "EU"])
            #expect(report.summary == ["regex@/cardPin"], "\(pin)")
        }
    }

    @Test func usCustomersMustNotSendAPin() throws {
        let request =
            #"{"programName": "P", "currency": "USD", "cardPin": "1234", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true}"#
        let report = try validate(request, context: ["region": "US"])
        #expect(report.summary == ["forbidden@/cardPin"])
        // Absent, not null: a null PIN is still a PIN member that US requests must not carry.
        let withNull = request.replacingOccurrences(of: #""1234""#, with: "null")
        #expect(try validate(withNull, context: ["region": "US"]).summary == ["forbidden@/cardPin"])
    }

    @Test func termsAndEDisclosureAreRequiredForUSCustomersOnly() throws {
        #expect(try validate(euVirtual, context: ["region": "EU"]).valid)
        #expect(try validate(euVirtual).valid)
        let us = try validate(#"{"programName": "P", "currency": "USD"}"#, context: ["region": "US"])
        #expect(us.summary == ["required@/eDisclosureAccepted", "required@/termsAndConditionsAccepted"])
        let accepted =
            #"{"programName": "P", "currency": "USD", "termsAndConditionsAccepted": true, "eDisclosureAccepted": false}"#
        #expect(try validate(accepted, context: ["region": "US"]).valid)
    }

    @Test func physicalProgramsNeedADeliveryAddress() throws {
        let physical = #"{"programName": "SKRILL-PHYSICAL-MC-EEA", "currency": "EUR"}"#
        #expect(try validate(physical).summary == ["required@/deliveryAddress"])
        let withNull = #"{"programName": "SKRILL-PHYSICAL-MC-EEA", "currency": "EUR", "deliveryAddress": null}"#
        #expect(try validate(withNull).summary == ["required@/deliveryAddress"])
        let virtualWithNull = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "deliveryAddress": null}"#
        #expect(try validate(virtualWithNull).valid)
    }

    private func address(_ members: String, program: String = "SKRILL-PHYSICAL-MC-EEA", extra: String = "") -> String {
        #"{"programName": "\#(program)", "currency": "EUR", "deliveryAddress": {\#(members)}\#(extra)}"#
    }

    @Test func deliveryAddressRequiresAddress1CityAndCountryAndWhatTheCountryRequires() throws {
        let report = try validate(address(""))
        #expect(
            report.summary == [
                "required@/deliveryAddress/address1", "required@/deliveryAddress/city",
                "required@/deliveryAddress/countryCode",
            ])
        // The postal code follows the country: Germany requires one, Bulgaria and the Emirates do not (the Emirates
        // have no postal codes, and require the emirate instead).
        #expect(
            try validate(address(#""address1": "a", "city": "Berlin", "countryCode": "DE""#)).summary == [
                "required@/deliveryAddress/postalCode"
            ])
        #expect(try validate(address(#""address1": "a", "city": "Sofia", "countryCode": "BG""#)).valid)
        let emirates = try validate(address(#""address1": "a", "city": "Dubai", "countryCode": "AE""#))
        #expect(emirates.summary == ["required@/deliveryAddress/state"])
        #expect(emirates.errors[0].message == "State is required for an address in United Arab Emirates")
        #expect(
            try validate(address(#""address1": "a", "city": "Dubai", "countryCode": "AE", "state": "Dubai""#)).valid)
        // Empty is missing, for the country's rules as for the data's own validator.
        let empty = try validate(address(#""address1": "a", "city": "Berlin", "countryCode": "DE", "postalCode": """#))
        #expect(empty.summary == ["required@/deliveryAddress/postalCode"])
        #expect(empty.errors[0].message == "Postal code is required for an address in Germany")
    }

    @Test func cityIsAtMostThirtyLettersSpacesHyphensAndPeriods() throws {
        let base = #""address1": "a", "countryCode": "DE", "postalCode": "10115", "city": "#
        #expect(try validate(address(base + #""St. Martin-im-Innkreis""#)).valid)
        #expect(try validate(address(base + #""São Paulo""#)).valid)
        #expect(try validate(address(base + #""\#(String(repeating: "a", count: 30))""#)).valid)
        #expect(
            try validate(address(base + #""\#(String(repeating: "a", count: 31))""#)).summary == [
                "maxLength@/deliveryAddress/city"
            ])
        #expect(try validate(address(base + #""Sofia 1000""#)).summary == ["regex@/deliveryAddress/city"])
        #expect(try validate(address(base + #""Zürich/ZH""#)).summary == ["regex@/deliveryAddress/city"])
    }

    @Test func lengthsCountCodePointsNotGraphemesOrUTF16() throws {
        // 15 × "e + combining acute" is 15 graphemes but 30 code points: exactly at the limit.
        let thirty = String(repeating: "e\u{301}", count: 15)
        let base = #""address1": "a", "countryCode": "FR", "postalCode": "75001", "city": "#
        #expect(try validate(address(base + #""\#(thirty)""#)).valid)
        #expect(try validate(address(base + #""\#(thirty)e""#)).summary == ["maxLength@/deliveryAddress/city"])
    }

    @Test(arguments: [
        ("BG", "1000", "Sofia-grad"), ("US", "10001", "NY"), ("DE", "10115", "Berlin"), ("GB", "SW1A 1AA", "London"),
        ("JP", "100-0001", "Tokyo"),
    ])
    func countryCodeIsISO3166Alpha2(code: String, postalCode: String, state: String) throws {
        let members =
            #""address1": "a", "city": "X", "countryCode": "\#(code)", "postalCode": "\#(postalCode)", "state": "\#(state)""#
        let report = try validate(
            address(members, extra: #", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true"#))
        #expect(report.valid, "\(report.summary)")
    }

    @Test(arguments: ["UK", "EU", "XK", "bg", "BGR", "ZZ"]) func rejectsNonISO3166Codes(code: String) throws {
        let members = #""address1": "a", "city": "X", "countryCode": "\#(code)", "postalCode": "1000""#
        #expect(try validate(address(members)).summary == ["format@/deliveryAddress/countryCode"])
    }

    @Test func aUSDeliveryAddressMakesTheCustomerAUSCustomerWhenNoRegionIsGiven() throws {
        let members = #""address1": "a", "city": "Austin", "countryCode": "US", "state": "TX", "postalCode": "78701""#
        let report = try validate(address(members, extra: #", "cardPin": "1234""#))
        #expect(report.context == ["region": "US"])
        #expect(
            report.summary == [
                "forbidden@/cardPin", "required@/eDisclosureAccepted", "required@/termsAndConditionsAccepted",
            ])
        // An explicit region wins over the derived one.
        let explicit = try validate(address(members, extra: #", "cardPin": "1234""#), context: ["region": "EU"])
        #expect(explicit.valid)
        #expect(explicit.context == ["region": "EU"])
    }

    @Test func usStateIsTwoOrThreeCharacters() throws {
        let usExtra = #", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true"#
        func members(_ state: String) -> String {
            #""address1": "a", "city": "Austin", "countryCode": "US", "postalCode": "78701", "state": "\#(state)""#
        }
        #expect(try validate(address(members("TX"), extra: usExtra)).valid)
        #expect(try validate(address(members("tx"), extra: usExtra)).valid)
        #expect(try validate(address(members("T"), extra: usExtra)).summary == ["minLength@/deliveryAddress/state"])
        #expect(try validate(address(members("Texas"), extra: usExtra)).summary == ["maxLength@/deliveryAddress/state"])
        // Two or three characters, and a state of the country (Google's address data): NSW is Australian.
        let nsw = try validate(address(members("NSW"), extra: usExtra))
        #expect(nsw.summary == ["enum@/deliveryAddress/state"])
        #expect(nsw.errors[0].message == "State must be a state of United States, such as AL (Alabama)")
        // Only for US customers: an EU state may be longer.
        let eu = #""address1": "a", "city": "Sofia", "countryCode": "BG", "postalCode": "1000", "state": "Sofia-grad""#
        #expect(try validate(address(eu)).valid)
    }

    @Test func postalCodeFollowsTheCustomersRegion() throws {
        func members(_ country: String, _ postalCode: String) -> String {
            #""address1": "a", "city": "X", "countryCode": "\#(country)", "postalCode": "\#(postalCode)""#
        }
        let usExtra = #", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true"#
        let dc = #", "state": "DC""#
        #expect(try validate(address(members("US", "20500-0003") + dc, extra: usExtra)).valid)
        // The seed's own rules first (US pattern, EU maximum 16), one message per field; then the country's.
        #expect(
            try validate(address(members("US", "20500_0003") + dc, extra: usExtra)).summary == [
                "regex@/deliveryAddress/postalCode"
            ])
        #expect(
            try validate(address(members("DE", String(repeating: "9", count: 17)))).summary == [
                "maxLength@/deliveryAddress/postalCode"
            ])
        let british = try validate(address(members("US", "SW1A 1AA") + dc, extra: usExtra))
        #expect(british.summary == ["format@/deliveryAddress/postalCode"])
        #expect(british.errors[0].message == "Postal code must look like 95014 for United States")
        let german = try validate(address(members("DE", "1000_1")))
        #expect(german.errors.map(\.message) == ["Postal code must look like 26133 for Germany"])
        #expect(try validate(address(members("BG", "1000"))).valid)
        #expect(
            try validate(address(members("BG", "10000"))).errors.map(\.message) == [
                "Postal code must look like 1000 for Bulgaria"
            ])
        // Codes the post writes in capitals are compared in capitals.
        #expect(try validate(address(members("GB", "sw1a 1aa"))).valid)
    }

    @Test func aStatesPostalCodesStartAsTheDataSays() throws {
        let usExtra = #", "termsAndConditionsAccepted": true, "eDisclosureAccepted": true"#
        func members(_ state: String, _ postalCode: String) -> String {
            #""address1": "a", "city": "X", "countryCode": "US", "state": "\#(state)", "postalCode": "\#(postalCode)""#
        }
        #expect(try validate(address(members("CA", "94103"), extra: usExtra)).valid)
        let wrong = try validate(address(members("CA", "10001"), extra: usExtra))
        #expect(wrong.summary == ["format@/deliveryAddress/postalCode"])
        #expect(wrong.errors[0].message == "Postal code must look like 90000 for California, United States")
        #expect(try validate(address(members("NY", "10001"), extra: usExtra)).valid)
        // Canada: by name in either language, any case; the province's postal codes start with its letters.
        let canada =
            #""address1": "a", "city": "X", "countryCode": "CA", "state": "colombie-britannique", "postalCode": "#
        #expect(try validate(address(canada + #""V8X 3X4""#)).valid)
        #expect(try validate(address(canada + #""K1A 0B1""#)).summary == ["format@/deliveryAddress/postalCode"])
    }

    @Test func theEuropeanRegionIsTheEEAGroupOfTheCodeList() throws {
        for code in ["BG", "NO", "IS", "LI", "HR"] {
            let members = #""address1": "a", "city": "X", "countryCode": "\#(code)""#
            #expect(try validate(address(members)).context == ["region": "EU"], "\(code)")
        }
        #expect(
            try validate(address(#""address1": "a", "city": "X", "countryCode": "CH", "postalCode": "8001""#)).context
                == [:])
    }

    @Test func rejectsUnknownFieldsWithASuggestion() throws {
        let report = try validate(#"{"programName": "P", "currency": "EUR", "cardPIN": "1234"}"#)
        #expect(report.summary == ["unknownField@/cardPIN"])
        #expect(report.errors.first?.message.contains("did you mean 'cardPin'?") == true)
        #expect(report.errors.first?.line == 1 && report.errors.first?.column == 41)
    }

    @Test func reportsDuplicateKeysInsteadOfPickingOne() throws {
        let report = try validate(#"{"programName": "P", "currency": "EUR", "currency": "XYZ"}"#)
        #expect(report.summary == ["duplicateKey@/currency"])
    }

    @Test func reportsEveryErrorAtOnceSortedByPath() throws {
        let json =
            #"{"programName": 5, "currency": "EURO", "mobile": "123", "deliveryAddress": {"city": "Sofia 1", "countryCode": "XX"}, "extra": 1}"#
        let report = try validate(json)
        #expect(
            report.summary == [
                "format@/currency", "required@/deliveryAddress/address1", "regex@/deliveryAddress/city",
                "format@/deliveryAddress/countryCode", "unknownField@/extra",
                "regex@/mobile", "type@/programName",
            ])
    }

    @Test func aPayloadThatIsNotJSONIsInvalidWithRuleJSON() throws {
        let report = try validate("{\"programName\": \"P\",\n \"currency\": EUR}")
        #expect(report.summary == ["json@"])
        #expect(report.errors.first?.line == 2 && report.errors.first?.column == 14)
        #expect(try validate("[1, 2]").summary == ["type@"])
    }

    @Test func typedRequestsAreValidatedLikeTheirJSON() throws {
        let validator = Fixtures.validator
        let request = CardRequest(programName: "SKRILL-VIRTUAL-MC-EEA", currency: "EUR", cardPin: "1234")
        #expect(try validator.validate(request, context: ["region": "EU"]).valid)
        let us = CardRequest(
            programName: "SKRILL-PHYSICAL-MC-US", currency: "USD", cardPin: "1234",
            deliveryAddress: DeliveryAddress(
                address1: "1 Main St", city: "Austin", countryCode: "US", state: "TX", postalCode: "78701"))
        let report = try validator.validate(us)
        #expect(
            report.summary == [
                "forbidden@/cardPin", "required@/eDisclosureAccepted", "required@/termsAndConditionsAccepted",
            ])
        #expect(report.errors.allSatisfy { $0.line == nil })
        let address = DeliveryAddress(
            address1: "a", city: "Sofia", countryCode: "BG", postalCode: String(repeating: "1", count: 17))
        #expect(try validator.validate(address).summary == ["maxLength@/postalCode"])
        // The verdict alone agrees.
        #expect(try validator.isValid(request, context: ["region": "EU"]))
        #expect(try !validator.isValid(us))
        #expect(try !validator.isValid(address))
    }

    @Test func misuseOfTheCallIsAnErrorNotAReport() throws {
        #expect(throws: ValidatorError.self) { try Fixtures.validate(euVirtual, schema: "card-creat") }
        do {
            _ = try Fixtures.validate(euVirtual, schema: "card-create", context: ["regoin": "US"])
            Issue.record("expected an unknown context error")
        } catch let error as ValidatorError {
            #expect(error.code == .unknownContext)
            #expect(error.message.contains("did you mean 'region'?"))
        }
        do {
            _ = try Fixtures.validate(euVirtual, schema: "card-create", context: ["region": "CA"])
            Issue.record("expected an invalid context value error")
        } catch let error as ValidatorError {
            #expect(error.code == .invalidContextValue)
        }
        do {
            _ = try Fixtures.validate(euVirtual, schema: "card-create", tenderType: "credit")
            Issue.record("expected an unknown tender type error")
        } catch let error as ValidatorError {
            #expect(error.code == .unknownTenderType)
        }
    }
}
