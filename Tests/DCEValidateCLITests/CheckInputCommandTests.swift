import Foundation
import Testing

/// `dce-validate check-input` from the outside: the three verdicts and their exit statuses, standard input, both
/// formats, usage errors, and bindings on the way to the field.
@Suite(.serialized) struct CheckInputCommandTests {
    private let card = [
        "check-input", "--schema", "payment-account", "--tender-type", "credit", "--field", "/cardNumber",
    ]

    @Test func theThreeVerdictsAndTheirExitStatuses() throws {
        let incomplete = try CLI.run(card + ["4111"])
        #expect(incomplete.status == 1 && incomplete.out == "/cardNumber: incomplete (Visa, CVV 3 digits)\n")
        let valid = try CLI.run(card + ["4111111111111111"])
        #expect(valid.status == 0 && valid.out == "/cardNumber: valid (Visa, CVV 3 digits)\n")
        let invalid = try CLI.run(card + ["41x1"])
        #expect(invalid.status == 1 && invalid.out == "/cardNumber: invalid [format]\n")
        // Credit card numbers have at most 16 digits here: a 17th cannot be taken back by typing more.
        #expect(
            try CLI.run(card + ["41111111111111111"]).out == "/cardNumber: invalid [maxLength] (Visa, CVV 3 digits)\n")
    }

    /// The issue's own cases: the brand as soon as the prefix decides it, lengths and check digit by that brand,
    /// spaces and dashes as formatting.
    @Test(
        arguments: [
            ("41", "incomplete", "visa"), ("34", "incomplete", "american-express"),
            ("2221", "incomplete", "mastercard"),
            ("22", "incomplete", nil), ("43", "incomplete", nil), ("4", "incomplete", nil),
            // Maestro and Troy as braintree's card-validator names them (Fixtures/card-brand-tables).
            ("5000000000000611", "valid", "maestro"), ("6502740000000001", "valid", "troy"),
            ("27", "incomplete", "mastercard"), ("123", "invalid", nil), ("4111111111111112", "incomplete", "visa"),
            ("41111111111111111112", "invalid", "visa"), ("4111 1111 1111 1111", "valid", "visa"),
            ("4111-1111-1111-1111", "valid", "visa"),
            ("3782 822463 10005", "valid", "american-express"), ("6011111111111117", "valid", "discover"),
            ("2200", "incomplete", "mir"),
            ("4011780000000000", "invalid", "elo"), ("4111 1111 x", "invalid", nil),
        ] as [(String, String, String?)])
    func brandsAsTheyAreTyped(typed: String, state: String, brand: String?) throws {
        let result = try CLI.run([
            "check-input", "--schema", "payment-account", "--field", "/cardNumber", "--format", "json", typed,
        ])
        let output = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(output["state"] as? String == state)
        #expect(output["brand"] as? String == brand)
        #expect(result.status == (state == "valid" ? 0 : 1))
        if typed == "3782 822463 10005" {
            #expect((output["securityCode"] as? [String: Any])?["length"] as? Int == 4)
            #expect(output["masked"] as? String == "•••• •••••• •0005")
        }
    }

    /// The brand is a context like any other: given, or derived from the number, the security code follows it.
    @Test func theSecurityCodeFollowsTheBrand() throws {
        let code = ["check-input", "--schema", "payment-account", "--field", "/securityCode"]
        #expect(
            try CLI.run(code + ["--context", "brand=american-express", "123"]).out == "/securityCode: incomplete\n")
        #expect(try CLI.run(code + ["--context", "brand=american-express", "1234"]).status == 0)
        #expect(try CLI.run(code + ["--context", "brand=visa", "1234"]).out == "/securityCode: invalid [regex]\n")
        #expect(try CLI.run(code + ["1234"]).status == 0)  // no brand known: 3 or 4 digits
    }

    /// `--given` says what another field holds: an address's postal code then follows its country, and the state's
    /// prefix; neither given value is printed.
    @Test func aPostalCodeFollowsTheGivenCountry() throws {
        let postal = ["check-input", "--schema", "delivery-address", "--field", "/postalCode"]
        #expect(try CLI.run(postal + ["--given", "/countryCode=BG", "10"]).out == "/postalCode: incomplete\n")
        #expect(try CLI.run(postal + ["--given", "/countryCode=BG", "1000"]).status == 0)
        let tooLong = try CLI.run(postal + ["--given", "/countryCode=BG", "--format", "json", "10000"])
        #expect(
            tooLong.status == 1 && tooLong.out == #"{"field":"/postalCode","state":"invalid","rule":"format"}"# + "\n")
        #expect(
            try CLI.run(postal + ["--given", "/countryCode=US", "--given", "/state=CA", "8"]).out
                == "/postalCode: invalid [format]\n")
        #expect(try CLI.run(postal + ["--given", "/countryCode=US", "--given", "/state=CA", "94105"]).status == 0)
        let unknown = try CLI.run(postal + ["--given", "/nowhere=BG", "1"])
        #expect(unknown.status == 2 && unknown.err.contains("no field at '/nowhere' (a given value)"))
        let malformed = try CLI.run(postal + ["--given", "BG", "1"])
        #expect(malformed.status == 2 && malformed.err.contains("--given takes KEY=VALUE"))
    }

    @Test func standardInputAndJSON() throws {
        let json = try CLI.run(card + ["--format", "json", "-"], stdin: Data("4111111111111111\n".utf8))
        #expect(json.status == 0)
        #expect(
            json.out
                == #"{"field":"/cardNumber","state":"valid","brand":"visa","securityCode":{"name":"CVV","length":3},"brands":["visa"],"masked":"•••• •••• •••• 1111"}"#
                + "\n")
        let invalid = try CLI.run(card + ["--format", "json", "-"], stdin: Data("41x1\r\n".utf8))
        #expect(invalid.out == #"{"field":"/cardNumber","state":"invalid","rule":"format","brands":[]}"# + "\n")
        let binary = try CLI.run(card + ["-"], stdin: Data([0xFF, 0x34]))
        #expect(binary.status == 2 && binary.err.contains("standard input is not UTF-8 text"))
    }

    @Test func theBindingsOnTheWayToTheFieldApply() throws {
        let billing = try CLI.run([
            "check-input", "--schema", "customer-profile", "--field", "/paymentAccounts/-/billingAddress/zipCode",
            "12345",
        ])
        #expect(billing.out == "/paymentAccounts/-/billingAddress/zipCode: incomplete\n")
        let profile = try CLI.run([
            "check-input", "--schema", "customer-profile", "--field", "/profileAddress/zipCode", "12345",
        ])
        #expect(profile.status == 0)
        let ios = try CLI.run([
            "check-input", "--schema", "card-tokenize", "--context", "platform=ios", "--field", "/walletType",
            "GOOGLE_PAY",
        ])
        #expect(ios.out == "/walletType: invalid [enum]\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let field = try CLI.run(["check-input", "--schema", "payment-account", "--field", "/nope", "1"])
        #expect(field.status == 2 && field.err.contains("has no field at '/nope'"))
        #expect(try CLI.run(card + ["--tender-type", "paypal", "1"]).status == 2)
        #expect(try CLI.run(["check-input", "--schema", "nope", "--field", "/a", "1"]).status == 2)
        #expect(try CLI.run(["check-input", "--schema", "payment-account", "1"]).status == 2)
    }

    // MARK: - --draft

    /// Runs check-input with a draft file holding `draft`.
    private func withDraft(_ draft: String, _ arguments: [String]) throws -> CLI.Result {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("draft.json")
        try Data(draft.utf8).write(to: file)
        return try CLI.run(["check-input"] + arguments + ["--draft", file.path])
    }

    /// The issue's disagreements, now agreements: a gift card's number in a profile's list follows the gift card's
    /// rules (the item's accountType binds the tender type), and a billing zip ignored for provisioning is not judged.
    @Test func theDraftAppliesWhatValidationApplies() throws {
        let profile = #"{"name": "Ivan", "paymentAccounts": [{"accountType": "credit"}, {"accountType": "gift"}]}"#
        let gift = try withDraft(
            profile, ["--schema", "customer-profile", "--field", "/paymentAccounts/1/cardNumber", "6006491234567890"])
        #expect(gift.status == 0 && gift.out.hasPrefix("/paymentAccounts/1/cardNumber: valid"), "\(gift.out)")
        let given = try CLI.run([
            "check-input", "--schema", "customer-profile", "--field", "/paymentAccounts/1/cardNumber",
            "--given", "/paymentAccounts/1/accountType=gift", "6006491234567890",
        ])
        #expect(given.status == 0, "\(given.out)")
        let provision = try withDraft(
            #"{"cardNumber": "6006491234567890"}"#,
            [
                "--schema", "payment-account", "--context", "operation=provision", "--tender-type", "gift", "--field",
                "/billingAddress/zipCode", "2050",
            ])
        #expect(provision.status == 0 && provision.out == "/billingAddress/zipCode: valid\n", "\(provision.out)")
        // The draft's other fields are not the field's concern: a profile missing its name still takes the number.
        let empty = try withDraft(
            "{}",
            ["--schema", "customer-profile", "--field", "/paymentAccounts/-/cardNumber", "--format", "json", "4111"])
        #expect(empty.status == 1 && empty.out.contains(#""state":"incomplete""#), "\(empty.out)")
    }

    @Test func aDraftThatIsNotJSONOrCannotHoldTheFieldIsAUsageError() throws {
        let broken = try withDraft(
            "{\n  \"name\": ", ["--schema", "customer-profile", "--field", "/name", "Ivan"])
        #expect(broken.status == 2)
        #expect(broken.err.contains("draft.json:2:") && broken.err.contains("not well-formed JSON"), "\(broken.err)")
        let shape = try withDraft(
            #"{"paymentAccounts": "none"}"#,
            ["--schema", "customer-profile", "--field", "/paymentAccounts/0/cardNumber", "4111"])
        #expect(shape.status == 2 && shape.err.contains("/paymentAccounts"), "\(shape.err)")
        let both = try withDraft(
            "{}", ["--schema", "customer-profile", "--field", "/name", "--given", "/name=x", "Ivan"])
        #expect(both.status == 2 && both.err.contains("--draft and --given"), "\(both.err)")
        let missing = try CLI.run([
            "check-input", "--schema", "customer-profile", "--field", "/name", "--draft", "/nonexistent/draft.json",
            "I",
        ])
        #expect(missing.status == 2 && missing.err.contains("/nonexistent/draft.json"), "\(missing.err)")
    }
}
