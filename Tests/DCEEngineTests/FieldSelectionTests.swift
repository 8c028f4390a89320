import DCEEngine
import Foundation
import Testing

/// Validating one step of a form: only the selected fields, with cross-field rules still running.
struct FieldSelectionTests {
    private let prepared: PreparedSchema

    init() throws {
        prepared = try Validator(source: .bundled, schemaIDs: ["card-create"]).prepare("card-create")
    }

    private func summary(_ selection: FieldSelection, _ json: String) throws -> [String] {
        try prepared.restricted(to: selection).validate(json: Array(json.utf8)).errors.map { "\($0.rule)@\($0.path)" }
    }

    @Test func onlyTheSelectedGroupIsChecked() throws {
        // Everything else is wrong or missing: mobile, consents, an unknown member.
        let draft =
            #"{"currency": "EURO", "mobile": "555", "cardPin": "12a4", "surprise": 1, "termsAndConditionsAccepted": "yes"}"#
        let card = try summary(.dataGroups(["CARD_INFORMATION"]), draft)
        #expect(card == ["regex@/cardPin", "format@/currency", "required@/programName"])
        #expect(try summary(.dataGroups(["CONTACT_INFORMATION"]), draft) == ["regex@/mobile"])
        #expect(try summary(.dataGroups(["CONSENT"]), draft) == ["type@/termsAndConditionsAccepted"])
        // The whole schema sees all of it.
        let all = prepared.validate(json: Array(draft.utf8)).errors
        #expect(all.count == 6)
    }

    @Test func aCrossFieldRuleRunsWhenItsFieldsArePresentWhateverElseFailed() throws {
        // deliveryAddress is required because programName says PHYSICAL; currency is broken but not in this step.
        let physical = #"{"programName": "SKRILL-PHYSICAL-MC-EEA", "currency": 12}"#
        #expect(try summary(.dataGroups(["DELIVERY_ADDRESS"]), physical) == ["required@/deliveryAddress"])
        // A US delivery address makes the customer a US customer, so this step's PIN is forbidden, even though the
        // address itself is incomplete (no city) and belongs to another step.
        let us =
            #"{"programName": "SKRILL-VIRTUAL-MC-US", "cardPin": "1234", "deliveryAddress": {"countryCode": "US"}}"#
        #expect(try summary(.dataGroups(["CARD_INFORMATION"]), us) == ["forbidden@/cardPin", "required@/currency"])
    }

    @Test func nestedFieldsCanBeSelectedByPointer() throws {
        let draft = #"{"deliveryAddress": {"countryCode": "US", "postalCode": "AB#12", "city": "1"}, "currency": 1}"#
        // The US postal code rule reads countryCode (derived region), which is present; city is not selected.
        let errors = try summary(.fields(["/deliveryAddress/postalCode"]), draft)
        #expect(errors.count == 1)
        #expect(errors.first?.hasSuffix("@/deliveryAddress/postalCode") == true)
        let two = try summary(.fields(["/deliveryAddress/city", "/currency"]), draft)
        #expect(two == ["type@/currency", "regex@/deliveryAddress/city"])
        // A missing enclosing object is not this step's error; a missing selected field is.
        #expect(try summary(.fields(["/deliveryAddress/postalCode"]), "{}") == [])
        #expect(try summary(.fields(["/programName"]), "{}") == ["required@/programName"])
    }

    @Test func aSelectionNamingNothingIsAMistakeInTheCall() throws {
        let group = try #require(throws: ValidatorError.self) {
            try prepared.restricted(to: .dataGroups(["CARD_INFO"]))
        }
        #expect(group.message.hasPrefix("schema 'card-create' has no data group 'CARD_INFO'"))
        #expect(group.code == .unknownField)
        let field = try #require(throws: ValidatorError.self) {
            try prepared.restricted(to: .fields(["/deliveryAdress/city"]))
        }
        #expect(field.message.contains("(did you mean '/deliveryAddress/city'?)"))
    }
}
