import DCEEngine
import Foundation
import Testing

/// A keystroke's recheck of a form's draft (`PreparedSchema.recheckForm`) finds what the whole walk finds, or declines:
/// each string value of each request typed one character further, and one back, in every schema's examples and in
/// the rules-in-force fixture, whose conditions, bindings and `derive` rules read values across the request.
struct FormRecheckTests {
    /// Changes each string value of `payload` from one character shorter to whole and back, and compares each
    /// recheck with the whole walk: how many changes were rechecked and how many declined.
    static func compare(_ prepared: PreparedSchema, _ payload: [UInt8], _ situation: String) throws -> (Int, Int) {
        let document = try JSONDocument(bytes: payload)
        let draft = SchemaValue(document: document, at: document.root)
        var (rechecked, declined) = (0, 0)
        let strings = try RulesInForceAgreementTests.strings(of: String(decoding: payload, as: UTF8.self))
        for (tokens, text) in strings.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) where text.count > 1 {
            let shorter = try JSONDocument(
                bytes: Array(
                    try prepared.schema.placing(.string(String(text.dropLast())), at: tokens, in: draft).json.utf8))
            for (before, after) in [(shorter, document), (document, shorter)] {
                let step = "\(situation) \(RulesInForceAgreementTests.pointer(tokens))"
                guard let found = prepared.recheckForm(after, changedAt: tokens, after: prepared.evaluateForm(before))
                else {
                    declined += 1
                    continue
                }
                rechecked += 1
                let whole = prepared.evaluateForm(after)
                #expect(found.violations == whole.violations, "\(step)")
                #expect(found.fields == whole.fields, "\(step)")
                #expect(found.ignored == whole.ignored, "\(step)")
            }
        }
        return (rechecked, declined)
    }

    @Test func aRecheckFindsWhatTheWholeWalkFindsInEveryExample() throws {
        var (rechecked, declined) = (0, 0)
        for example in DraftInputTests.examples where (try? JSONDocument(bytes: example.payload)) != nil {
            let prepared = try Fixtures.validator.prepare(
                example.schema, context: example.context, tenderType: example.tenderType)
            let (yes, no) = try Self.compare(prepared, example.payload, example.file)
            rechecked += yes
            declined += no
        }
        // Most keystrokes are rechecked: a test that always declined would compare nothing.
        #expect(rechecked > 2 * declined, "rechecked \(rechecked), declined \(declined)")
    }

    @Test func aRecheckFindsWhatTheWholeWalkFindsWhereConditionsReadAcrossTheRequest() throws {
        let validator = try Validator(source: .directory(RulesInForceAgreementTests.directory))
        var (rechecked, declined) = (0, 0)
        for (context, tenderType) in RulesInForceAgreementTests.cases {
            let prepared = try validator.prepare("agreement", context: context, tenderType: tenderType)
            for (number, payload) in RulesInForceAgreementTests.payloads.enumerated() {
                let situation = "\(context) \(tenderType ?? "-") request \(number + 1)"
                let (yes, no) = try Self.compare(prepared, Array(payload.utf8), situation)
                rechecked += yes
                declined += no
            }
        }
        // Values read by conditions (the billing country, an account's type) are declined; the others rechecked.
        #expect(rechecked > 0 && declined > 0, "rechecked \(rechecked), declined \(declined)")
    }

    /// The two keystrokes `dce-benchmark keystroke` measures are rechecked, not walked whole: a card number typed into
    /// payment-account (the value alone), a ZIP+4 into card-create's delivery address (its object, whose
    /// `postalAddress` rule judges the postal code with the country).
    @Test(arguments: [
        ("payment-account", [String: String](), "credit", ["cardNumber"], "4111111111111111", "/cardNumber"),
        ("card-create", ["region": "US"], nil, ["deliveryAddress", "postalCode"], "94105-1804", "/deliveryAddress"),
    ])
    func typingIntoTheBenchmarkedFieldsIsRechecked(
        schema: String, context: [String: String], tenderType: String?, tokens: [String], text: String, unit: String
    ) throws {
        let prepared = try Fixtures.validator.prepare(schema, context: context, tenderType: tenderType)
        var draft = SchemaValue.object([])
        var last: FormFindings?
        var rechecked = 0
        for length in 1...text.count {
            draft = try prepared.schema.placing(.string(String(text.prefix(length))), at: tokens, in: draft)
            let document = try JSONDocument(bytes: Array(draft.json.utf8))
            let whole = prepared.evaluateForm(document)
            if let last, let found = prepared.recheckForm(document, changedAt: tokens, after: last) {
                rechecked += 1
                #expect(found.rechecked == unit)
                #expect(found.violations == whole.violations, "\(text.prefix(length))")
                #expect(found.fields == whole.fields, "\(text.prefix(length))")
            }
            last = whole
        }
        // The first character adds the value; a postal code's hyphen makes a valid code invalid again (where the
        // walk would find the new violations is not known without walking).
        #expect(rechecked >= text.count - 2, "\(rechecked) of \(text.count - 1)")
    }
}
