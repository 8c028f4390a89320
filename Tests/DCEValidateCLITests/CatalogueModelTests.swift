import DCEEngine
import DCEForms
import DCEModels
import Foundation
import Testing

/// The typed models of the catalogue: every valid example decodes into its model, and the model encodes back to a
/// payload its schema accepts through `validate(request)`.
struct CatalogueModelTests {
    typealias Check = @Sendable (Data, Validator, [String: String], String?) throws -> ValidationReport

    static func check<Model: ValidatableRequest & Decodable>(_ type: Model.Type) -> Check {
        { data, validator, context, tenderType in
            try validator.validate(
                JSONDecoder().decode(Model.self, from: data), context: context, tenderType: tenderType)
        }
    }

    static let models: [String: Check] = [
        "card-create": check(CardRequest.self), "card-tokenize": check(CardTokenizationRequest.self),
        "card-list-query": check(CardParameters.self), "card-update": check(CardUpdateRequest.self),
        "tokenization-status": check(MobileWallet.self), "card-list-response": check(CardList.self),
        "card-response": check(Card.self), "card-tokenization-response": check(CardTokenization.self),
        "card-details-response": check(CardSensitiveDetails.self),
        "virtual-card-provision": check(ProvisionVirtualCardInput.self),
        "virtual-card-update": check(UpdateVirtualCardInput.self),
        "provisional-card-response": check(ProvisionalVirtualCard.self),
        "virtual-card-response": check(VirtualCard.self), "gift-cards-response": check(GiftCardsResponse.self),
        "card-arts-response": check(CardArtsResponse.self), "transaction-history-response": check(CardEntity.self),
        "card-programs-response": check(CardProgramsResponse.self),
        "payment-account": check(PaymentAccount.self), "address": check(Address.self),
        "customer-profile": check(CustomerProfile.self),
    ]

    @Test func everySchemaExceptSharedDefinitionsHasAModel() throws {
        #expect(Set(Self.models.keys) == Set(try Validator().schemaIDs).subtracting(["delivery-address"]))
    }

    /// (An update example is a merge patch, not a whole request: it has no model of its own.)
    @Test(arguments: ExamplesTests.examples.filter { $0.expect == "valid" && $0.original == nil })
    func validExamplesRoundTripThroughTheirModels(example: ExamplesTests.Example) throws {
        let data = try Data(contentsOf: CLI.repository.appendingPathComponent("Examples/\(example.file)"))
        let check = try #require(Self.models[example.schema])
        let report = try check(data, try Validator(), example.context ?? [:], example.tenderType)
        #expect(report.valid, "\(example.file): \(report.errors.map(\.message))")
    }

    @Test func patchesEncodeAbsentNullAndValue() throws {
        let update = UpdateVirtualCardInput(
            id: "card-id-1", billingAddress: .remove, metadata: .set(["alias": "Banking"]))
        let json = String(decoding: try JSONEncoder.sorted.encode(update), as: UTF8.self)
        #expect(json == #"{"billingAddress":null,"id":"card-id-1","metadata":{"alias":"Banking"}}"#)
        let decoded = try JSONDecoder().decode(UpdateVirtualCardInput.self, from: Data(json.utf8))
        #expect(decoded == update)
        #expect(decoded.cardHolder == nil && decoded.alias == .absent)
        let validator = try Validator()
        #expect(try validator.validate(update).valid)
        // The schema refuses to remove the card holder (`"nullable": false`), so the model cannot say it: the
        // member is a plain optional, and only a JSON payload can send the null.
        let removal = Array(#"{"id": "card-id-1", "cardHolder": null}"#.utf8)
        let report = try validator.validate(json: removal, schema: UpdateVirtualCardInput.schemaID)
        #expect(report.errors.map(\.rule.rawValue) == ["null"])
        #expect(report.errors.first?.message == "Card holder cannot be null (leave it out instead)")
    }

    @Test func cardExpiryFollowsTheValidatorsClock() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let november2026 = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 30, hour: 23)))
        let validator = try Validator(now: { november2026 })
        func verdict(_ expiry: String) throws -> [String] {
            let account = PaymentAccount(cardNumber: "6006491234567890", expiry: expiry)
            return try validator.validate(account, tenderType: "gift").errors.map(\.rule.rawValue)
        }
        #expect(try verdict("11/26") == [])
        #expect(try verdict("10/26") == ["format"])
        #expect(try verdict("01/27") == [])
        #expect(try verdict("13/27") == ["format"])
        #expect(try verdict("1/27") == ["format"])
    }

    @Test func sensitiveModelsPrintNoSecretsAndMaskForDisplay() throws {
        let data = try Data(
            contentsOf: CLI.repository.appendingPathComponent("Examples/card-details-response/valid-details.json"))
        let details = try JSONDecoder().decode(CardSensitiveDetails.self, from: data)
        #expect(details.maskedPAN == "•••• •••• •••• 4444")
        let printed = "\(details) \(String(reflecting: details))"
        #expect(!printed.contains("5555555555554444") && !printed.contains("\"123\""))
    }

    @Test func theSchemasCommandListsEveryIdWithItsTitle() throws {
        let result = try CLI.run(["schemas"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.contains { $0.hasPrefix("virtual-card-update ") && $0.hasSuffix("Update a virtual card") })
    }
}

extension JSONEncoder {
    fileprivate static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// `dce-validate describe` from the outside.
struct DescribeCommandTests {
    @Test func textAndJSON() throws {
        let text = try CLI.run(["describe", "--schema", "payment-account", "--tender-type", "credit"])
        #expect(text.status == 0)
        #expect(
            text.out.contains(
                "  Card number (/cardNumber): required, numeric, 15-16 characters, masked, never stored, encrypted, cannot be updated, reverified when changed, placeholder “1234 1234 1234 1234”, autofill cc-number\n    The 15 to 19 digits shown on your card\n"
            ))
        let json = try CLI.run(["describe", "--schema", "card-create", "--context", "region=US", "--format", "json"])
        #expect(json.status == 0)
        let form = try JSONDecoder().decode(FormDescription.self, from: json.stdout)
        #expect(form.groups.flatMap(\.fields).first { $0.key == "cardPin" }?.forbidden == true)
        #expect(try CLI.run(["describe", "--schema", "card-create", "--context", "region=CA"]).status == 2)
    }

    @Test func anAddressFollowsTheGivenCountry() throws {
        let plain = try CLI.run(["describe", "--schema", "delivery-address"])
        #expect(
            plain.out.contains(
                "  Postal code (/postalCode): optional, text, postal code of the country at /countryCode, placeholder “10001”, autofill postal-code\n"
            ))
        let us = try CLI.run([
            "describe", "--schema", "delivery-address", "--given", "/countryCode=US", "--given", "/state=CA",
        ])
        #expect(us.status == 0)
        #expect(
            us.out.contains(
                "  Postal code (/postalCode): required, text, US postal code (called ZIP code), such as 90000, autofill postal-code\n"
            ),
            "\(us.out)")
        #expect(
            us.out.contains(
                "  State (/state): required, text, 2-3 characters, US state, one of 62: AL (Alabama), AK (Alaska)"))
        let unknown = try CLI.run(["describe", "--schema", "delivery-address", "--given", "/nowhere=US"])
        #expect(unknown.status == 2 && unknown.err.contains("no field at '/nowhere' (a given value)"))
    }
}

/// `--original` from the outside.
@Suite(.serialized) struct OriginalOptionTests {
    @Test func updatesAreCheckedAgainstTheStoredRecord() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("stored.json")
        try Data(
            #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov"}"#
                .utf8
        ).write(to: original)
        let update = Data(
            #"{"cardNumber": "5555555555554444", "expiry": "09/39", "securityCode": "123", "cardholderName": "Ivan Petrov"}"#
                .utf8)
        let text = try CLI.run(
            ["-", "--schema", "payment-account", "--tender-type", "credit", "--original", original.path], stdin: update)
        #expect(text.status == 1)
        #expect(
            text.out.contains(
                "-:1:16: error: /cardNumber: Card number cannot be changed by an update [updateNotAllowed]"))
        #expect(text.out.contains("-: note: /cardNumber changed and requires reverification"))
        #expect(text.out.contains("-: note: /expiry changed and requires reverification"))
        let json = try CLI.run(
            [
                "-", "--schema", "payment-account", "--tender-type", "credit", "--original", original.path, "--format",
                "json",
            ], stdin: update)
        #expect(json.out.contains(#""reverificationRequired":["/cardNumber","/expiry"]"#))
        #expect(
            try CLI.run(["-", "--schema", "payment-account", "--original", "/nonexistent.json"], stdin: update).status
                == 2)
    }

    /// The issue's own session: seed 004's nickname update, sent as what changes, passes; a card number change fails
    /// at its place in the update; the whole-record reading stays under --replace.
    @Test func anUpdateIsAMergePatchUnlessItReplacesTheRecord() throws {
        let stored = [
            "--schema", "payment-account", "--tender-type", "credit", "--original",
            "Examples/payment-account/valid-credit.json",
        ]
        let nickname = try CLI.run(["-"] + stored, stdin: Data(#"{"nickname":"Holiday"}"#.utf8))
        #expect(nickname.status == 0 && nickname.out.hasPrefix("valid: 1 payload checked"), "\(nickname.out)")
        let card = try CLI.run(
            ["-"] + stored,
            stdin: Data("{\n  \"nickname\": \"Holiday\",\n  \"cardNumber\": \"5555555555554444\"\n}".utf8))
        #expect(card.status == 1)
        #expect(
            card.out.contains(
                "-:3:17: error: /cardNumber: Card number cannot be changed by an update [updateNotAllowed]"))
        #expect(card.out.contains("-: note: /cardNumber changed and requires reverification"))
        let removed = try CLI.run(
            ["-"] + stored + ["--format", "json"], stdin: Data(#"{"billingAddress": {"zipCode": null}}"#.utf8))
        #expect(removed.status == 1)
        #expect(
            removed.out.contains(
                #"{"path":"/billingAddress/zipCode","key":"zipCode","rule":"required","message":"Zip code is required","line":1,"column":32}"#
            ), "\(removed.out)")
        let replaced = try CLI.run(["-"] + stored + ["--replace"], stdin: Data(#"{"nickname":"Holiday"}"#.utf8))
        #expect(replaced.status == 1 && replaced.out.contains("6 errors"))
        let usage = try CLI.run(["-", "--schema", "payment-account", "--replace"], stdin: Data("{}".utf8))
        #expect(usage.status == 2 && usage.err.contains("--replace says how to read an update"))
    }

    /// A tender type's own metadata (PDTenderTypeMetaData): a gift card's expiry needs no reverification when it
    /// changes, and a gift account is provisioned without its billing address.
    @Test func aTenderTypeChangesTheMetadataToo() throws {
        let stored = #"{"cardNumber": "6006491234567890", "cardholderName": "Ivan Petrov", "expiry": "08/39"}"#
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("stored.json")
        try Data(stored.utf8).write(to: original)
        let gift = try CLI.run(
            [
                "-", "--schema", "payment-account", "--tender-type", "gift", "--original", original.path, "--format",
                "json",
            ],
            stdin: Data(#"{"expiry": "09/39"}"#.utf8))
        #expect(gift.status == 0 && !gift.out.contains("reverificationRequired"), "\(gift.out)")
        let credit = try CLI.run(
            [
                "-", "--schema", "payment-account", "--tender-type", "credit", "--original", original.path, "--format",
                "json",
            ],
            stdin: Data(#"{"expiry": "09/39"}"#.utf8))
        #expect(credit.out.contains(#""reverificationRequired":["/expiry"]"#), "\(credit.out)")
        let describe = try CLI.run([
            "describe", "--schema", "payment-account", "--tender-type", "gift", "--format", "json",
        ])
        let form = try #require(try JSONSerialization.jsonObject(with: describe.stdout) as? [String: Any])
        let fields = ((form["groups"] as? [[String: Any]]) ?? []).flatMap { ($0["fields"] as? [[String: Any]]) ?? [] }
        let byPath = Dictionary(fields.map { ($0["path"] as? String ?? "", $0) }) { first, _ in first }
        #expect(byPath["/expiry"]?["reverificationRequired"] as? Bool == false)
        #expect(byPath["/billingAddress"]?["ignoreForProvisioning"] as? Bool == true)
        let creditForm = try CLI.run(["describe", "--schema", "payment-account", "--tender-type", "credit"])
        #expect(creditForm.out.contains("Expiry (/expiry): required, numeric, reverified when changed"))
    }
}
