import DCEEngine
import DCEForms
import Foundation
import Testing

/// A tender type's entry changes the field's metadata as well as its rules (seed 004: PDTenderTypeMetaData has its
/// own `dataGroup`, and the app developer makes attributes differ "based on the payment type").
struct TenderTypeMetadataTests {
    /// A `code` field whose every metadata attribute and default differ under the tender type `store`.
    static let schema = #"""
        {
          "id": "s", "version": "1.0.0",
          "tenderTypes": ["bank", "store"],
          "contexts": {"operation": {"values": ["provision", "update"]}},
          "fields": [
            {"key": "code", "dataType": "String", "maxLength": 8, "defaultValue": "AAAA", "dataGroup": "ACCOUNT", "order": 1,
             "updatesAllowed": false, "reverificationRequired": true,
             "tenderTypes": {"store": {
               "maxLength": 4, "defaultValue": "BBBB", "dataGroup": "STORE_CARD", "order": 3, "updatesAllowed": true,
               "reverificationRequired": false, "ignoreForProvisioning": true, "maskingRequired": true,
               "pciEncryptionRequired": true, "storageRestricted": true}}},
            {"key": "label", "dataType": "String", "dataGroup": "ACCOUNT", "order": 2}
          ]
        }
        """#

    private func prepared(_ tenderType: String, context: [String: String] = [:]) throws -> PreparedSchema {
        try Fixtures.validator(["s": Self.schema]).prepare("s", context: context, tenderType: tenderType)
    }

    @Test func describeShowsEachTenderTypesMetadata() throws {
        let schema = try #require(try Fixtures.validator(["s": Self.schema]).schema("s"))
        let bank = try schema.describeForm(tenderType: "bank")
        #expect(bank.groups.map(\.dataGroup) == ["ACCOUNT"])
        #expect(bank.groups[0].fields.map(\.key) == ["code", "label"])
        let code = try #require(bank.groups[0].fields.first)
        #expect(
            code.updatesAllowed == false && code.reverificationRequired && !code.ignoreForProvisioning
                && code.order == 1)
        #expect(!code.masked && !code.pciEncryptionRequired && !code.storageRestricted)
        let store = try schema.describeForm(tenderType: "store")
        #expect(store.groups.map(\.dataGroup) == ["STORE_CARD", "ACCOUNT"])
        let storeCode = try #require(store.groups.first?.fields.first)
        #expect(
            storeCode.updatesAllowed == true && !storeCode.reverificationRequired && storeCode.ignoreForProvisioning
                && storeCode.order == 3)
        #expect(storeCode.masked && storeCode.pciEncryptionRequired && storeCode.storageRestricted)
        #expect(storeCode.maxLength == 4)
    }

    @Test func updatesFollowTheTenderTypesUpdatesAllowedAndReverification() throws {
        let stored = Array(#"{"code": "AAAA"}"#.utf8)
        let bank = try prepared("bank").validate(json: Array(#"{"code": "CCCC"}"#.utf8), original: stored)
        #expect(bank.errors.map(\.rule.rawValue) == ["updateNotAllowed"] && bank.reverificationRequired == ["/code"])
        let store = try prepared("store").validate(json: Array(#"{"code": "CCCC"}"#.utf8), original: stored)
        #expect(store.valid && store.reverificationRequired.isEmpty)
    }

    @Test func provisioningAndDefaultsFollowTheTenderType() throws {
        // Under store, the field is ignored when provisioning: neither checked nor sent.
        let long = Array(#"{"code": "TOOLONGVALUE", "label": "x"}"#.utf8)
        #expect(try prepared("store", context: ["operation": "provision"]).validate(json: long).valid)
        #expect(
            try prepared("bank", context: ["operation": "provision"]).validate(json: long).errors.map(\.rule.rawValue)
                == ["maxLength"])
        let sent = try prepared("store", context: ["operation": "provision"]).resolve(json: long)
        #expect(sent.payload.map { String(decoding: $0, as: UTF8.self) } == #"{"label":"x"}"#)
        // Each tender type's own default fills an absent field.
        let empty = Array(#"{"label": "x"}"#.utf8)
        #expect(
            try prepared("store").resolve(json: empty).payload.map { String(decoding: $0, as: UTF8.self) }
                == #"{"label":"x","code":"BBBB"}"#)
        #expect(
            try prepared("bank").resolve(json: empty).payload.map { String(decoding: $0, as: UTF8.self) }
                == #"{"label":"x","code":"AAAA"}"#)
    }

    @Test func aDataGroupStepFollowsTheTenderType() throws {
        let payload = Array(#"{"code": "TOOLONGVALUE", "label": "x"}"#.utf8)
        let store = try prepared("store").restricted(to: .dataGroups(["STORE_CARD"]))
        #expect(store.validate(json: payload).errors.map(\.path) == ["/code"])
        #expect(try prepared("store").restricted(to: .dataGroups(["ACCOUNT"])).validate(json: payload).valid)
        #expect(
            try prepared("bank").restricted(to: .dataGroups(["ACCOUNT"])).validate(json: payload).errors.map(\.path)
                == ["/code"])
        #expect(throws: ValidatorError.self) { try prepared("bank").restricted(to: .dataGroups(["STORE_CARD"])) }
    }

    /// What the engine writes never depends on which payment type a payload turns out to be: a field sensitive under
    /// any tender type is kept out of every output under all of them.
    @Test func aFieldSensitiveUnderAnyTenderTypeIsSensitiveEverywhere() throws {
        let validator = try Fixtures.validator(["s": Self.schema])
        #expect(Redactor(validator: validator).isSensitive(key: "code"))
        let report = try prepared("bank").validate(json: Array(#"{"code": "TOOLONGVALUE"}"#.utf8))
        #expect(report.errors.map(\.rule.rawValue) == ["maxLength"])
        #expect(
            report.errors.first.map { !$0.message.contains("12") } == true, "a sensitive value's length is never shown")
    }

    @Test func theSchemaIsCheckedUnderEachTenderType() throws {
        // A tender type's default must pass that tender type's rules.
        let badDefault = Self.schema.replacingOccurrences(
            of: #""defaultValue": "BBBB""#, with: #""defaultValue": "BBBBBB""#)
        #expect(
            problems(badDefault) == [
                "invalidDefault: the defaultValue of tender type store breaks the field's own rules: code must be at most 4 characters"
            ])
        // Orders are unique under each tender type too.
        let clash = Self.schema.replacingOccurrences(of: #""order": 3"#, with: #""order": 2"#)
        #expect(
            problems(clash).map {
                $0.hasPrefix("duplicate: order 2 is already used by") && $0.hasSuffix("under tender type store")
            } == [true])
        // A conditional override changes rules only.
        let conditional =
            #"{"id": "s", "fields": [{"key": "a", "dataType": "String", "overrides": [{"when": {"field": "/b", "present": true}, "maskingRequired": true}]}]}"#
        #expect(problems(conditional) == ["unknownAttribute: unknown attribute 'maskingRequired'"])
        // Nor may it give a default: what is sent for an absent field cannot wait for a condition over the request.
        let conditionalDefault = conditional.replacingOccurrences(
            of: #""maskingRequired": true"#, with: #""defaultValue": "x""#)
        #expect(
            problems(conditionalDefault) == [
                "invalidAttribute: 'defaultValue' cannot depend on a condition: give it on the field or per tender type"
            ])
    }

    private func problems(_ schema: String) -> [String] { Fixtures.problems(of: schema) }
}
