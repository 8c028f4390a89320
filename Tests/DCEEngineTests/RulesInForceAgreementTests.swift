import DCEEngine
import DCEForms
import Foundation
import Testing

/// Every consumer of the rules in force answers alike at every field of a request: validation's walk (what a report,
/// a verdict, `FormSession`, the payload sent, its defaults and an update check follow), the form description
/// (`describe`, and the groups a `FieldSelection` validates) and the as-you-type check (`check-input`, with `--given`
/// or `--draft`). One schema, `Fixtures/rules-in-force/agreement.json`, derives a context from the request, binds
/// contexts and a tender type (a fixed value, a member, a `derive` rule; the tender type inside each item of a list),
/// has overrides on contexts, tender types and other fields, and fields that provisioning skips under one tender type
/// only; every combination of its context values and tender types is tried on requests that take each branch.
///
/// Validation knows every value; a form and a field being typed know what is given. Where they know enough they must
/// decide as validation does: the same tender type, the same provisioning skip, the same truth for each override.
struct RulesInForceAgreementTests {
    static let directory = Fixtures.fixtures.appendingPathComponent("rules-in-force")

    /// Requests that take each branch: a store sale with a US billing address and a credit account; a gift card
    /// with a German address; a tender type the schema does not declare inside an item; an item saying none.
    static let payloads = [
        #"""
        {"storeId": "S-1", "clerk": "ann", "cardNumber": "4111111111111111", "pin": "1234",
         "billing": {"country": "US", "zip": "12345", "state": "CA"}, "shipping": {"country": "DE", "zip": "10115"},
         "giftCard": {"number": "4111"},
         "accounts": [{"type": "credit", "number": "4111111111111111", "code": "123", "holder": {"region": "EU", "name": "Ann"}}]}
        """#,
        #"""
        {"cardNumber": "6006491234567890", "pin": "12", "billing": {"country": "DE", "zip": "10115"},
         "accounts": [{"type": "gift", "number": "6006491234567890", "holder": {"region": "US", "name": "Bob"}}]}
        """#,
        #"{"clerk": "x", "billing": {"zip": "1"}, "accounts": [{"type": "cash", "code": "9", "holder": {"name": "C"}}]}"#,
        #"{"accounts": [{"number": "1"}], "shipping": {"zip": "1"}, "giftCard": {"pin": "1"}}"#,
    ]

    /// Every combination of the schema's context values (each also left out) and tender types (and none).
    static let cases: [(context: [String: String], tenderType: String?)] = {
        var cases: [(context: [String: String], tenderType: String?)] = []
        for operation in [nil, "provision", "update"] {
            for channel in [nil, "web", "store"] {
                for region in [nil, "US", "EU"] {
                    for tenderType in [nil, "credit", "gift"] {
                        let context = ["operation": operation, "channel": channel, "region": region].compactMapValues {
                            $0
                        }
                        cases.append((context, tenderType))
                    }
                }
            }
        }
        return cases
    }()

    /// The string values of a request by their tokens, the only values a form or a typed field is given.
    static func strings(of json: String) throws -> [[String]: String] {
        var found: [[String]: String] = [:]
        func visit(_ value: Any, _ tokens: [String]) {
            if let object = value as? [String: Any] {
                for (key, member) in object { visit(member, tokens + [key]) }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() { visit(element, tokens + [String(index)]) }
            } else if let text = value as? String {
                found[tokens] = text
            }
        }
        visit(try JSONSerialization.jsonObject(with: Data(json.utf8)), [])
        return found
    }

    static func pointer(_ tokens: [String]) -> String { tokens.reduce("") { JSONPointer.appending($1, to: $0) } }

    /// A list item's index as a form names every item (`-`); the requests hold one item a list.
    static func formTokens(_ tokens: [String]) -> [String] { tokens.map { Int($0) != nil ? "-" : $0 } }

    /// Whether `other`, decided with less known, says nothing `validation` contradicts.
    static func disagreements(_ other: FieldRuling, with validation: FieldRuling, skipped: Bool) -> [String] {
        var found: [String] = []
        if let otherSkipped = other.skipped, otherSkipped != skipped {
            found.append(otherSkipped ? "skipped for provisioning" : "not skipped for provisioning")
        }
        guard !skipped, other.skipped != true else { return found }
        if let known = other.tenderType.known, known != validation.tenderType.known {
            found.append(
                "tender type \(known ?? "none") against \(validation.tenderType.known.flatMap { $0 } ?? "none")")
        }
        for (place, truth) in other.overrides.enumerated() {
            if let truth, truth != validation.overrides[place] { found.append("override \(place) \(truth)") }
        }
        return found
    }

    @Test func formsAndTypingDecideAsValidationAtEveryField() throws {
        let validator = try Validator(source: .directory(Self.directory))
        var compared = 0
        var decided = 0
        var problems: [String] = []
        for (context, tenderType) in Self.cases {
            let prepared = try validator.prepare("agreement", context: context, tenderType: tenderType)
            let schema = prepared.schema
            for (number, payload) in Self.payloads.enumerated() {
                let document = try JSONDocument(bytes: Array(payload.utf8))
                let validation = prepared.evaluateForm(document)
                let strings = try Self.strings(of: payload)
                let formGiven = Dictionary(strings.map { (Self.formTokens($0.key), $0.value) }) { first, _ in first }
                let form = try schema.fieldsInForce(context: context, tenderType: tenderType, given: formGiven)
                let formByPath = Dictionary(form.map { ($0.tokens, $0) }) { first, _ in first }
                let situation = "\(context) \(tenderType ?? "-") request \(number + 1)"

                let reached =
                    validation.fields.map { ($0.key, Optional($0.value)) }
                    + validation.ignored.map { ($0, nil as RulesInForce?) }
                for (pointer, inForce) in reached {
                    let tokens = try #require(JSONPointer.tokens(of: pointer))
                    let field = try #require(schema.field(at: pointer))
                    let expected =
                        inForce?.ruling
                        ?? FieldRuling(tenderType: .unknown, skipped: true, overrides: [])
                    let skipped = inForce == nil
                    // A field is typed into where the request holds text: typing into a missing one makes another
                    // request, one where it is present.
                    var given = strings
                    if let text = given.removeValue(forKey: tokens) {
                        let typing = try #require(
                            prepared.inputRuling(of: field, at: tokens, text: text, given: given), "\(pointer)")
                        for problem in Self.disagreements(typing, with: expected, skipped: skipped) {
                            problems.append("check-input \(pointer), \(situation): \(problem)")
                        }
                        decided += typing.overrides.filter { $0 != nil }.count
                    }
                    compared += 1
                    guard let entry = formByPath[Self.formTokens(tokens)] else {
                        problems.append("describe has no \(pointer), \(situation)")
                        continue
                    }
                    // A form shows a field provisioning skips, marked so (`ignoreForProvisioning`), under the tender
                    // type in force there.
                    let marked = entry.ruling.tenderType.known.map { _ in
                        context["operation"] == "provision" && entry.metadata.ignoreForProvisioning == true
                    }
                    let shown = FieldRuling(
                        tenderType: entry.ruling.tenderType, skipped: marked, overrides: entry.ruling.overrides)
                    for problem in Self.disagreements(shown, with: expected, skipped: skipped) {
                        problems.append("describe \(pointer), \(situation): \(problem)")
                    }
                    decided += entry.ruling.overrides.filter { $0 != nil }.count
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) disagreements:\n\(problems.prefix(20).joined(separator: "\n"))")
        // Every field of every request under every case, and most overrides decided, or the test proves little.
        #expect(compared > 5_000, "\(compared) fields compared")
        #expect(decided > 5_000, "\(decided) overrides decided")
    }

    /// What is sent (defaults added, `ignoreForProvisioning` left out) holds a field exactly where validation checks
    /// it: a value the request holds unless validation skipped it, and a missing field's default under the tender
    /// type validation found inside it.
    @Test func whatIsSentHoldsWhatValidationChecks() throws {
        let validator = try Validator(source: .directory(Self.directory))
        var compared = 0
        var problems: [String] = []
        /// The value at `tokens`, when there is one.
        func value(_ root: Any, _ tokens: [String]) -> Any? {
            tokens.reduce(Optional(root)) { current, token in
                if let object = current as? [String: Any] { return object[token] }
                if let array = current as? [Any], let index = Int(token), array.indices.contains(index) {
                    return array[index]
                }
                return nil
            }
        }
        for (context, tenderType) in Self.cases {
            let prepared = try validator.prepare("agreement", context: context, tenderType: tenderType)
            for (number, payload) in Self.payloads.enumerated() {
                let document = try JSONDocument(bytes: Array(payload.utf8))
                let validation = prepared.evaluateForm(document)
                let request = try JSONSerialization.jsonObject(with: Data(payload.utf8))
                let sent = try JSONSerialization.jsonObject(with: Data(prepared.resolvedPayload(document)))
                let situation = "\(context) \(tenderType ?? "-") request \(number + 1)"
                for pointer in validation.ignored {
                    let tokens = try #require(JSONPointer.tokens(of: pointer))
                    if value(sent, tokens) != nil {
                        problems.append("\(pointer) sent, skipped by validation, \(situation)")
                    }
                    compared += 1
                }
                for (pointer, inForce) in validation.fields {
                    let tokens = try #require(JSONPointer.tokens(of: pointer))
                    let expected =
                        value(request, tokens) != nil
                        || inForce.field.defaultValue(for: inForce.ruling.tenderType.known ?? nil) != nil
                    if (value(sent, tokens) != nil) != expected {
                        problems.append("\(pointer) \(expected ? "not sent" : "sent"), \(situation)")
                    }
                    compared += 1
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) disagreements:\n\(problems.prefix(20).joined(separator: "\n"))")
        #expect(compared > 5_000, "\(compared) fields compared")
    }

    /// A step of a form (``FieldSelection/dataGroups(_:)``) reports what validation of the whole request reports at
    /// the fields the form description puts in that step, and nothing else.
    @Test func aStepValidatesTheFieldsItsFormShows() throws {
        let validator = try Validator(source: .directory(Self.directory))
        var steps = 0
        for (context, tenderType) in Self.cases {
            let prepared = try validator.prepare("agreement", context: context, tenderType: tenderType)
            let form = try prepared.schema.fieldsInForce(context: context, tenderType: tenderType)
            let groups = Dictionary(form.map { ($0.tokens, $0.group) }) { first, _ in first }
            /// Whether a violation's pointer is in a step: a field on its way (it, or one holding it) is in the step's
            /// group, and the step checks that field with everything inside it.
            func isIn(_ step: String, _ pointer: String) -> Bool {
                let tokens = Self.formTokens(JSONPointer.tokens(of: pointer) ?? [])
                return (1...max(tokens.count, 1)).contains { groups[Array(tokens.prefix($0))] == step }
            }
            for payload in Self.payloads {
                let whole = prepared.validate(json: Array(payload.utf8)).errors
                for step in Set(groups.values.compactMap { $0 }) {
                    let report = try prepared.restricted(to: .dataGroups([step])).validate(json: Array(payload.utf8))
                    let expected = whole.filter { isIn(step, $0.path) }.map { "\($0.rule)@\($0.path)" }
                    #expect(
                        report.errors.map { "\($0.rule)@\($0.path)" } == expected,
                        "\(step) under \(context) \(tenderType ?? "-"): \(payload)")
                    steps += 1
                }
            }
        }
        #expect(steps > 1_000)
    }

    /// The cases the fixture is for, said outright: a gift item's number is checked when provisioning (its tender
    /// type's entry says so) while a credit item's is skipped, by validation and by the typed field alike; and a tender
    /// type the schema does not declare leaves the one from outside.
    @Test func provisioningFollowsEachItemsOwnTenderType() throws {
        let validator = try Validator(source: .directory(Self.directory))
        let prepared = try validator.prepare("agreement", context: ["operation": "provision"], tenderType: "credit")
        let payload =
            #"{"accounts": [{"type": "credit", "number": "1"}, {"type": "gift", "number": "1"}, {"type": "cash", "number": "1"}]}"#
        let found = prepared.evaluateForm(try JSONDocument(bytes: Array(payload.utf8)))
        #expect(found.ignored.contains("/accounts/0/number"))
        #expect(found.fields["/accounts/1/number"] != nil)
        #expect(found.ignored.contains("/accounts/2/number"))
        let field = try #require(prepared.schema.field(at: "/accounts/-/number"))
        let gift = prepared.inputRuling(
            of: field, at: ["accounts", "1", "number"], text: "1", given: [["accounts", "1", "type"]: "gift"])
        #expect(gift?.skipped == false)
        let cash = prepared.inputRuling(
            of: field, at: ["accounts", "2", "number"], text: "1", given: [["accounts", "2", "type"]: "cash"])
        #expect(cash?.skipped == true)
        #expect(cash?.tenderType == .known("credit"))
    }
}
