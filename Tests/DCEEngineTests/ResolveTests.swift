import DCEEngine
import DCEExport
import Foundation
import Testing

/// What is sent: defaults applied before validation, fields ignored for provisioning left out.
struct ResolveTests {
    private let account =
        #"{"cardNumber": "4111111111111111", "expiry": "08/39", "securityCode": "123", "cardholderName": "Ivan Petrov", "billingAddress": {"line1": "1 Main St", "city": "Austin", "state": "TX", "zipCode": "787010001", "country": "US"}}"#

    private func resolve(_ json: String, context: [String: String] = [:]) throws -> ResolvedRequest {
        try Fixtures.validator.prepare("payment-account", context: context, tenderType: "credit").resolve(
            json: Array(json.utf8))
    }

    private func sent(_ request: ResolvedRequest) throws -> [String: Any] {
        let payload = try #require(request.payload)
        return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    }

    @Test func anAbsentFieldGetsItsDefaultBeforeValidationAndInWhatIsSent() throws {
        let request = try resolve(account)
        #expect(request.report.valid)
        #expect(try sent(request)["nickname"] as? String == "My card")
        // A value the app gives wins over the default; numbers and nesting come through unchanged.
        let given = try resolve(
            account.replacingOccurrences(of: #""cardholderName""#, with: #""nickname": "Travel", "cardholderName""#))
        #expect(try sent(given)["nickname"] as? String == "Travel")
    }

    @Test func provisioningNeitherValidatesNorSendsIgnoredFields() throws {
        let longNickname = account.replacingOccurrences(
            of: #""cardholderName""#, with: #""nickname": "\#(String(repeating: "n", count: 40))", "cardholderName""#)
        #expect(try !resolve(longNickname).report.valid)  // an ordinary request checks the nickname
        let provisioning = try resolve(longNickname, context: ["operation": "provision"])
        #expect(provisioning.report.valid)
        #expect(try sent(provisioning)["nickname"] == nil)
        // no default either
        #expect(try sent(try resolve(account, context: ["operation": "provision"]))["nickname"] == nil)
    }

    @Test func anInvalidRequestHasNoPayloadToSend() throws {
        let request = try resolve(account.replacingOccurrences(of: "08/39", with: "13/39"))
        #expect(!request.report.valid && request.payload == nil)
        #expect(try resolve("{").payload == nil)
    }
}

/// `numericBooleans`: booleans wrapped as numbers by older clients are accepted where a schema says so, and sent
/// as `true` / `false`.
struct NumericBooleanTests {
    private let schema = #"{"id": "s", "numericBooleans": true, "fields": [{"key": "ok", "dataType": "Boolean"}]}"#

    @Test(arguments: ["1", "0", "1.0", "1e0", "true", "false"])
    func zeroAndOneAreBooleansWhereTheSchemaSaysSo(value: String) throws {
        let validator = try Fixtures.validator([
            "s": schema, "strict": #"{"id": "strict", "fields": [{"key": "ok", "dataType": "Boolean"}]}"#,
        ])
        #expect(try validator.validate(json: Array(#"{"ok": \#(value)}"#.utf8), schema: "s").valid)
        let strict = try validator.validate(json: Array(#"{"ok": \#(value)}"#.utf8), schema: "strict")
        #expect(strict.valid == (value == "true" || value == "false"))
    }

    @Test(arguments: ["2", "-1", "0.5", "\"1\"", "\"true\""])
    func otherValuesAreStillTypeErrors(value: String) throws {
        let report = try Fixtures.validator(["s": schema]).validate(
            json: Array(#"{"ok": \#(value)}"#.utf8), schema: "s")
        #expect(report.errors.map(\.rule) == [.type])
    }

    @Test func whatIsSentCarriesTrueAndFalse() throws {
        let prepared = try Validator(source: .bundled, schemaIDs: ["card-create"]).prepare(
            "card-create", context: ["region": "US"])
        let resolved = prepared.resolve(
            json: Array(
                #"{"programName": "P", "currency": "USD", "termsAndConditionsAccepted": 1, "eDisclosureAccepted": 0}"#
                    .utf8))
        let sent = try #require(resolved.payload)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sent)) as? [String: Any])
        #expect(String(decoding: sent, as: UTF8.self).contains(#""termsAndConditionsAccepted":true"#))
        #expect(String(decoding: sent, as: UTF8.self).contains(#""eDisclosureAccepted":false"#))
        #expect(object.count == 4)
    }

    @Test func theExportedJSONSchemaAcceptsTheSame() throws {
        let compiled = try #require(try Fixtures.validator(["s": schema]).schema("s"))
        let property = try #require(
            try JSONSerialization.jsonObject(with: Data(compiled.exportJSONSchema().json.utf8)) as? [String: Any])
        let ok = try #require((property["properties"] as? [String: Any])?["ok"] as? [String: Any])
        let anyOf = try #require(ok["anyOf"] as? [[String: Any]])
        #expect(anyOf.first?["type"] as? String == "boolean")
        #expect(anyOf.last?["enum"] as? [Int] == [0, 1])
    }
}
