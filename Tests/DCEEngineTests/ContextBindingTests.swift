import DCEEngine
import DCEForms
import DCEModels
import Foundation
import Testing

/// Contexts bound where a definition is used (`"context": {...}` on a field): seed 004's zip code, 9 digits as a
/// billing address and 5 as the profile address, in one request; a tender type per payment account.
struct ContextBindingTests {
    /// An `address` definition used twice, and a list of accounts that each say their tender type.
    static let schema = #"""
        {
          "id": "s", "version": "1.0.0", "tenderTypes": ["credit", "gift"],
          "contexts": {
            "addressUse": {"values": ["billing", "profile"]},
            "region": {"values": ["US", "EU"]}
          },
          "definitions": {
            "address": {"dataType": "Object", "fields": [
              {"key": "zip", "dataType": "String", "required": true, "overrides": [
                {"when": {"context": "addressUse", "equals": "billing"}, "additionalDataValidations": [{"regex": "^[0-9]{9}$"}]},
                {"when": {"context": "addressUse", "equals": "profile"}, "additionalDataValidations": [{"regex": "^[0-9]{5}$"}]}]},
              {"key": "country", "dataType": "String"},
              {"key": "state", "dataType": "String", "overrides": [{"when": {"context": "region", "equals": "US"}, "required": true}]}
            ]}
          },
          "fields": [
            {"key": "home", "ref": "#/definitions/address", "context": {"addressUse": "profile"}},
            {"key": "billing", "ref": "#/definitions/address",
             "context": {"addressUse": "billing", "region": {"derive": [{"when": {"field": "0/country", "equals": "US"}, "value": "US"}]}}},
            {"key": "other", "ref": "#/definitions/address"},
            {"key": "accounts", "dataType": "Array", "items": {"dataType": "Object", "context": {"tenderType": {"member": "type"}}, "fields": [
              {"key": "type", "dataType": "String", "enum": ["credit", "gift"]},
              {"key": "number", "dataType": "String", "tenderTypes": {"credit": {"format": "luhn"}, "gift": {"minLength": 16, "maxLength": 16}}},
              {"key": "code", "dataType": "String", "tenderTypes": {"credit": {"required": true}}},
              {"key": "label", "dataType": "String", "tenderTypes": {"gift": {"defaultValue": "Gift card"}}}
            ]}}
          ]
        }
        """#

    private func validate(_ json: String, context: [String: String] = [:], tenderType: String? = nil) throws -> [String]
    {
        try Fixtures.validator(["s": Self.schema]).validate(
            json: Array(json.utf8), schema: "s", context: context, tenderType: tenderType
        ).summary
    }

    @Test func oneDefinitionIsJudgedByTheUseEachPlaceBinds() throws {
        #expect(try validate(#"{"home": {"zip": "12345"}, "billing": {"zip": "123456789"}}"#) == [])
        #expect(
            try validate(#"{"home": {"zip": "123456789"}, "billing": {"zip": "12345"}}"#) == [
                "regex@/billing/zip", "regex@/home/zip",
            ])
        // Outside the bound fields the caller's context holds; inside them the binding replaces it.
        let call = ["addressUse": "billing"]
        #expect(
            try validate(#"{"home": {"zip": "12345"}, "other": {"zip": "12345"}}"#, context: call) == [
                "regex@/other/zip"
            ])
        #expect(try validate(#"{"other": {"zip": "12345"}}"#, context: ["addressUse": "profile"]) == [])
    }

    @Test func aDeriveRuleScopedToAFieldReadsItsOwnObject() throws {
        #expect(try validate(#"{"billing": {"zip": "123456789", "country": "US"}}"#) == ["required@/billing/state"])
        #expect(try validate(#"{"billing": {"zip": "123456789", "country": "BG"}}"#) == [])
        // The derived region stays inside the billing address: the other address is not a US one.
        #expect(
            try validate(#"{"billing": {"zip": "123456789", "country": "BG"}, "other": {"zip": "1", "country": "US"}}"#)
                == [])
        // Where the rule finds nothing, the value from outside stays.
        #expect(
            try validate(#"{"billing": {"zip": "123456789", "country": "BG"}}"#, context: ["region": "US"]) == [
                "required@/billing/state"
            ])
    }

    @Test func eachArrayItemTakesItsTenderTypeFromItsOwnMember() throws {
        let accounts =
            #"{"accounts": [{"type": "credit", "number": "4111111111111112"}, {"type": "gift", "number": "6006491234567890"}, {"type": "gift", "number": "12"}]}"#
        #expect(
            try validate(accounts) == [
                "required@/accounts/0/code", "format@/accounts/0/number", "minLength@/accounts/2/number",
            ])
        // An item that does not say keeps the call's tender type; one that says wins over it.
        #expect(
            try validate(
                #"{"accounts": [{"number": "12"}, {"type": "gift", "number": "6006491234567890"}]}"#,
                tenderType: "credit")
                == ["required@/accounts/0/code", "format@/accounts/0/number"])
    }

    @Test func whatIsSentTakesEachItemsDefaultsFromItsTenderType() throws {
        let prepared = try Fixtures.validator(["s": Self.schema]).prepare("s")
        let sent = prepared.resolve(
            json: Array(
                #"{"accounts": [{"type": "gift", "number": "6006491234567890"}, {"type": "credit", "number": "4111111111111111", "code": "1"}]}"#
                    .utf8))
        #expect(
            sent.payload.map { String(decoding: $0, as: UTF8.self) }
                == #"{"accounts":[{"type":"gift","number":"6006491234567890","label":"Gift card"},{"type":"credit","number":"4111111111111111","code":"1"}]}"#
        )
    }

    /// A list whose items derive their tender type from the number (a `derive` rule, not a member): what is sent
    /// takes each item's defaults, and the update check its metadata, from the tender type validation derives,
    /// as they already did for a member binding.
    static let derivedSchema = #"""
        {
          "id": "d", "version": "1.0.0", "tenderTypes": ["credit", "gift"],
          "fields": [
            {"key": "accounts", "dataType": "Array", "items": {"dataType": "Object",
              "context": {"tenderType": {"derive": [{"when": {"field": "0/number", "matches": "^6006"}, "value": "gift"}]}},
              "fields": [
                {"key": "number", "dataType": "String", "tenderTypes": {"gift": {"updatesAllowed": false}}},
                {"key": "label", "dataType": "String", "tenderTypes": {"gift": {"defaultValue": "Gift card"}}}
              ]}}
          ]
        }
        """#

    @Test func whatIsSentAndTheUpdateCheckFollowADerivedTenderType() throws {
        let prepared = try Fixtures.validator(["d": Self.derivedSchema]).prepare("d", tenderType: "credit")
        let sent = prepared.resolve(
            json: Array(#"{"accounts": [{"number": "6006491234567890"}, {"number": "4111111111111111"}]}"#.utf8))
        #expect(
            sent.payload.map { String(decoding: $0, as: UTF8.self) }
                == #"{"accounts":[{"number":"6006491234567890","label":"Gift card"},{"number":"4111111111111111"}]}"#)
        let update = prepared.validate(
            json: Array(#"{"accounts": [{"number": "6006490000000000"}, {"number": "4111111111111112"}]}"#.utf8),
            original: Array(#"{"accounts": [{"number": "6006491234567890"}, {"number": "4111111111111111"}]}"#.utf8),
            replacing: true)
        #expect(update.summary == ["updateNotAllowed@/accounts/0/number"])
    }

    @Test func formsPartialInputAndStepsSeeTheBinding() throws {
        let validator = try Fixtures.validator(["s": Self.schema])
        let prepared = try validator.prepare("s")
        #expect(try prepared.checkInput("12345", at: "/home/zip") == .valid)
        #expect(try prepared.checkInput("12345", at: "/billing/zip") == .incomplete)
        #expect(try prepared.checkInput("1234567890", at: "/billing/zip") == .invalid(.regex))
        // A form knows a fixed binding; a region derived from a value not yet typed may make the state required.
        let form = try #require(validator.schema("s")).describeForm()
        let fields = Dictionary(form.groups.flatMap(\.fields).map { ($0.path, $0) }) { first, _ in first }
        #expect(fields["/billing/state"]?.conditionallyRequired == true)
        #expect(fields["/home/state"]?.conditionallyRequired == false)
        // One field checked alone is judged in its bound context.
        let step = try prepared.restricted(to: .fields(["/home/zip"]))
        #expect(step.validate(json: Array(#"{"home": {"zip": "123456789"}}"#.utf8)).summary == ["regex@/home/zip"])
    }

    @Test func bindingsAreCheckedWhenTheSchemaLoads() throws {
        func problems(_ binding: String) -> [String] {
            let schema =
                #"{"id": "s", "contexts": {"use": {"values": ["a", "b"]}}, "fields": [{"key": "o", "dataType": "Object", "context": \#(binding), "fields": [{"key": "m", "dataType": "String"}]}]}"#
            return Fixtures.problems(of: schema).map { String($0.prefix { $0 != ":" }) }
        }
        #expect(problems(#"{"use": "a"}"#) == [])
        #expect(problems(#"{"use": {"member": "m"}}"#) == [])
        #expect(problems(#"{"usage": "a"}"#) == ["unknownContext"])
        #expect(problems(#"{"use": "c"}"#) == ["unknownContext"])
        #expect(problems(#"{"use": {"member": "n"}}"#) == ["unknownField"])
        #expect(
            problems(#"{"use": {"derive": [{"when": {"field": "0/m", "present": true}, "value": "c"}]}}"#) == [
                "unknownContext"
            ])
        #expect(problems(#"{"use": {"member": "m", "derive": []}}"#) == ["invalidAttribute"])
        #expect(problems(#"{"tenderType": "credit"}"#) == ["unknownContext"])
    }

    /// A form lists the fields of every item of a list under `-`; a tender type an item names in a member is the
    /// call's while that member is empty, and fields whose rules it changes are required depending on it.
    @Test func aFormDescribesEveryItemUnderItsOwnTenderType() throws {
        let form = try #require(Fixtures.validator.schema("customer-profile")).describeForm()
        let fields = Dictionary(form.groups.flatMap(\.fields).map { ($0.path, $0) }) { first, _ in first }
        #expect(fields["/paymentAccounts/-/accountType"].map { $0.required && !$0.conditionallyRequired } == true)
        #expect(fields["/paymentAccounts/-/securityCode"].map { !$0.required && $0.conditionallyRequired } == true)
        #expect(fields["/paymentAccounts/-/billingAddress/zipCode"]?.required == true)
        let gift = try #require(Fixtures.validator.schema("customer-profile")).describeForm(tenderType: "gift")
        let expiry = try #require(gift.groups.flatMap(\.fields).first { $0.path == "/paymentAccounts/-/expiry" })
        #expect(!expiry.required && expiry.conditionallyRequired)
        // The paths a form gives are the ones partial input takes, with the bindings on the way.
        let prepared = try Fixtures.validator.prepare("customer-profile")
        #expect(try prepared.checkInput("12345", at: "/paymentAccounts/-/billingAddress/zipCode") == .incomplete)
        #expect(try prepared.checkInput("12345", at: "/paymentAccounts/3/billingAddress/zipCode") == .incomplete)
        #expect(try prepared.checkInput("12345", at: "/profileAddress/zipCode") == .valid)
        // A tender type bound from a member is, for the field alone, the call's: a 12-digit Maestro number passes the
        // base rules but not a credit card's 15 (found by the consumer-agreement property test).
        #expect(try prepared.checkInput("501800000009", at: "/paymentAccounts/-/cardNumber") == .valid)
        let credit = try Fixtures.validator.prepare("customer-profile", tenderType: "credit")
        #expect(try credit.checkInput("501800000009", at: "/paymentAccounts/-/cardNumber") == .incomplete)
        #expect(
            try Fixtures.validate(
                #"{"paymentAccounts": [{"cardNumber": "501800000009"}]}"#, schema: "customer-profile",
                tenderType: "credit"
            )
            .summary.contains("minLength@/paymentAccounts/0/cardNumber"))
    }

    /// The shipped `customer-profile`: seed 004's example in full, through the typed models too.
    @Test func theCustomerProfileChecksEachUseAndEachAccount() throws {
        let address = Address(line1: "1 Main St", city: "Washington", state: "DC", zipCode: "20500", country: "US")
        let billing = Address(line1: "1 Main St", city: "Washington", state: "DC", zipCode: "205000003", country: "US")
        let credit = PaymentAccount(
            cardNumber: "4111111111111111", expiry: "08/39", securityCode: "123", cardholderName: "Ivan Petrov",
            billingAddress: billing,
            accountType: .credit)
        let gift = PaymentAccount(cardNumber: "6006491234567890", accountType: .gift)
        let profile = CustomerProfile(name: "Ivan Petrov", profileAddress: address, paymentAccounts: [credit, gift])
        #expect(try Fixtures.validator.validate(profile).valid)
        var swapped = profile
        swapped.profileAddress = billing
        swapped.paymentAccounts?[0].billingAddress = address
        #expect(
            try Fixtures.validator.validate(swapped).summary == [
                "regex@/paymentAccounts/0/billingAddress/zipCode", "regex@/profileAddress/zipCode",
            ])
        var unsaid = profile
        unsaid.paymentAccounts?[1].accountType = nil
        // An account that does not say, in a call that names no tender type, is checked by the base rules, and told
        // to say what it is.
        #expect(
            try Fixtures.validator.validate(unsaid).summary == [
                "required@/paymentAccounts/1/accountType", "format@/paymentAccounts/1/cardNumber",
                "required@/paymentAccounts/1/cardholderName", "required@/paymentAccounts/1/expiry",
            ])
        // The whole call's tender type applies to an account that does not say.
        #expect(try Fixtures.validator.validate(unsaid, tenderType: "gift").valid)
    }
}
