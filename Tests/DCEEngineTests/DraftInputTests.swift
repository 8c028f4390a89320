import DCEEngine
import DCEForms
import Foundation
import Testing

/// The as-you-type check inside a form's draft agrees with validation: for every example and for payloads generated
/// from every request schema's valid examples, a present string's `checkInput(_:at:draft:)` verdict is valid exactly
/// when validating the whole payload reports no error of that value's own (type, length, pattern, format, options,
/// bounds, `forbidden`) at its pointer.
struct DraftInputTests {
    /// One example of `Examples/manifest.json`: its payload and how it is validated.
    struct Example: CustomStringConvertible, Sendable {
        var file: String
        var schema: String
        var context: [String: String]
        var tenderType: String?
        var expect: String
        var payload: [UInt8]
        var description: String { file }
    }

    static let ownRules: Set<ViolationCode> = [
        .type, .null, .forbidden, .minLength, .maxLength, .minimum, .maximum, .format, .regex, .regexLimit, .enum,
    ]

    /// Every example a request schema validates (updates, which are merge patches onto a stored record, aside).
    static let examples: [Example] = {
        let url = Fixtures.examples.appendingPathComponent("manifest.json")
        let manifest = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return (manifest["examples"] as! [[String: Any]]).compactMap { entry in
            guard entry["original"] == nil, let schema = entry["schema"] as? String,
                Fixtures.validator.schema(schema)?.kind == .request
            else { return nil }
            let file = entry["file"] as! String
            let bytes = try! [UInt8](Data(contentsOf: Fixtures.examples.appendingPathComponent(file)))
            return Example(
                file: file, schema: schema, context: entry["context"] as? [String: String] ?? [:],
                tenderType: entry["tenderType"] as? String, expect: entry["expect"] as! String, payload: bytes)
        }
    }()

    /// The string values of a payload by JSON Pointer, where the schema has a field.
    static func strings(of value: SchemaValue, at pointer: String = "", schema: PreparedSchema) -> [(String, String)] {
        switch value {
        case .string(let text): return [(pointer, text)]
        case .object(let members):
            return members.flatMap {
                strings(of: $0.value, at: pointer + "/" + escape($0.key), schema: schema)
            }
        case .array(let items):
            return items.enumerated().flatMap { strings(of: $1, at: pointer + "/\($0)", schema: schema) }
        default: return []
        }
    }

    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Every disagreement in one payload: `pointer: verdict, but validation reports …`.
    static func disagreements(in payload: [UInt8], _ prepared: PreparedSchema) throws -> [String] {
        let document = try JSONDocument(bytes: payload)
        let report = prepared.validate(document)
        var found: [String] = []
        for (pointer, text) in strings(of: SchemaValue(document: document, at: document.root), schema: prepared) {
            let verdict: InputVerdict
            switch Result(catching: { () throws(ValidatorError) in
                try prepared.checkInput(text, at: pointer, draft: document)
            }) {
            case .success(let value): verdict = value
            case .failure(let error):
                // A member the schema does not describe is no field to type into.
                if error.code != .unknownField { found.append("\(pointer): \(error)") }
                continue
            }
            let own = report.errors.filter { $0.path == pointer && ownRules.contains($0.rule) }
            if (verdict == .valid) != own.isEmpty {
                found.append("\(pointer): \(verdict), but validation reports \(own.map(\.rule.rawValue))")
            }
        }
        return found
    }

    static func prepared(_ example: Example) throws -> PreparedSchema {
        try Fixtures.validator.prepare(example.schema, context: example.context, tenderType: example.tenderType)
    }

    @Test func everyExampleAgrees() throws {
        var all: [String] = []
        for example in Self.examples where (try? JSONDocument(bytes: example.payload)) != nil {
            all += try Self.disagreements(in: example.payload, Self.prepared(example)).map { "\(example.file) \($0)" }
        }
        #expect(Self.examples.count > 50)
        #expect(all.isEmpty, "\(all.count) disagreements: \(all.prefix(10))")
    }

    /// The same with what the draft holds given value by value (`given:`, as `check-input --given` takes it): each
    /// string and number of the payload but the one typed, as text.
    @Test func everyExampleAgreesWithEveryOtherValueGiven() throws {
        var all: [String] = []
        for example in Self.examples {
            guard let document = try? JSONDocument(bytes: example.payload) else { continue }
            let prepared = try Self.prepared(example)
            let report = prepared.validate(document)
            let value = SchemaValue(document: document, at: document.root)
            let leaves = Self.strings(of: value, schema: prepared).filter {
                (try? prepared.checkInput("", at: $0.0)) != nil
            }
            for (pointer, text) in leaves {
                let given = Dictionary(leaves.filter { $0.0 != pointer }, uniquingKeysWith: { first, _ in first })
                let verdict = try prepared.checkInput(text, at: pointer, given: given)
                let own = report.errors.filter { $0.path == pointer && Self.ownRules.contains($0.rule) }
                if (verdict == .valid) != own.isEmpty {
                    all.append(
                        "\(example.file) \(pointer): \(verdict), but validation reports \(own.map(\.rule.rawValue))")
                }
            }
        }
        #expect(all.isEmpty, "\(all.count) disagreements: \(all.prefix(10))")
    }

    /// Payloads generated from each valid example of every request schema: each string replaced in turn by texts
    /// that break or keep its rules (a prefix, an extension, another character class, empty, very long, another
    /// field's value), the property checked at every string of the result, so that a changed country, tender type
    /// or member that other rules read is seen where those rules apply.
    @Test func generatedPayloadsOfEveryRequestSchemaAgree() throws {
        var all: [String] = []
        var schemasCovered: Set<String> = []
        var payloads = 0
        for example in Self.examples where example.expect == "valid" {
            let prepared = try Self.prepared(example)
            let document = try JSONDocument(bytes: example.payload)
            let value = SchemaValue(document: document, at: document.root)
            let leaves = Self.strings(of: value, schema: prepared)
            for (index, (pointer, text)) in leaves.enumerated() {
                let other = leaves[(index + 1) % leaves.count].1
                let variants = [
                    String(text.prefix(text.count / 2)), text + "9", text + "x", "", text.uppercased(),
                    "-" + text.dropFirst(), String(repeating: "1", count: 300), other, " " + text, text + "-1",
                    String(text.reversed()), "0" + text.dropFirst(),
                ]
                for variant in Set(variants) where variant != text {
                    let mutated = Array(Self.replacing(pointer, with: variant, in: value).json.utf8)
                    payloads += 1
                    all += try Self.disagreements(in: mutated, prepared).map {
                        "\(example.file) with \(pointer)=\(variant.prefix(20)): \($0)"
                    }
                }
            }
            schemasCovered.insert(example.schema)
        }
        let requestSchemas = Set(
            Fixtures.validator.schemaIDs.filter { Fixtures.validator.schema($0)?.kind == .request })
        #expect(schemasCovered == requestSchemas, "request schemas without a valid example")
        #expect(payloads > 1_200)
        #expect(all.isEmpty, "\(all.count) disagreements: \(all.prefix(10))")
    }

    /// A value with the string at a pointer replaced.
    static func replacing(_ pointer: String, with text: String, in value: SchemaValue) -> SchemaValue {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        func place(_ rest: ArraySlice<String>, in value: SchemaValue) -> SchemaValue {
            guard let token = rest.first else { return .string(text) }
            switch value {
            case .object(var members):
                if let at = members.firstIndex(where: { $0.key == token }) {
                    members[at].value = place(rest.dropFirst(), in: members[at].value)
                }
                return .object(members)
            case .array(var items):
                if let at = Int(token) { items[at] = place(rest.dropFirst(), in: items[at]) }
                return .array(items)
            default: return value
            }
        }
        return place(tokens[...], in: value)
    }

    // MARK: - What only the draft shows

    /// A gift card's number inside a profile follows the gift card's rules, which the item's `accountType` binds:
    /// with the draft, an item whose `accountType` is `gift` takes a 16-digit gift number as the whole profile does,
    /// where the tender type from outside (none) asked for a credit card's.
    @Test func anItemsBoundTenderTypeAppliesWhileTyping() throws {
        let prepared = try Fixtures.validator.prepare("customer-profile")
        let draft = try JSONDocument(
            bytes: Array(#"{"name": "Ivan", "paymentAccounts": [{"accountType": "gift"}]}"#.utf8))
        let pointer = "/paymentAccounts/0/cardNumber"
        #expect(try prepared.checkInput("6006491234567890", at: pointer, draft: draft) == .valid)
        #expect(try prepared.checkInput("600649", at: pointer, draft: draft) == .incomplete)
        #expect(try prepared.checkInput("60064912345678901234", at: pointer, draft: draft) != .valid)
    }

    /// Under `operation=provision` a gift card's billing address is ignored by validation, and so while it is typed.
    @Test func aFieldIgnoredForProvisioningIsNotJudged() throws {
        let prepared = try Fixtures.validator.prepare(
            "payment-account", context: ["operation": "provision"], tenderType: "gift")
        let draft = try JSONDocument(bytes: Array(#"{"cardNumber": "6006491234567890"}"#.utf8))
        #expect(try prepared.checkInput("2050", at: "/billingAddress/zipCode", draft: draft) == .valid)
        let credit = try Fixtures.validator.prepare(
            "payment-account", context: ["operation": "provision"], tenderType: "credit")
        #expect(try credit.checkInput("2050", at: "/billingAddress/zipCode", draft: draft) != .valid)
    }

    @Test func aNewItemAtTheEndOfAList() throws {
        let prepared = try Fixtures.validator.prepare("customer-profile")
        let draft = try JSONDocument(bytes: Array(#"{"customerId": "c-1"}"#.utf8))
        #expect(try prepared.checkInput("4111", at: "/paymentAccounts/-/cardNumber", draft: draft) == .incomplete)
        #expect(
            try prepared.checkInput("4111111111111111", at: "/paymentAccounts/-/cardNumber", draft: draft) == .valid)
    }

    @Test func aDraftThatCannotHoldTheValueIsAnError() throws {
        let prepared = try Fixtures.validator.prepare("customer-profile")
        let draft = try JSONDocument(bytes: Array(#"{"paymentAccounts": "none"}"#.utf8))
        #expect(throws: ValidatorError.self) {
            try prepared.checkInput("4111", at: "/paymentAccounts/0/cardNumber", draft: draft)
        }
        let short = try JSONDocument(bytes: Array(#"{"paymentAccounts": []}"#.utf8))
        do {
            _ = try prepared.checkInput("4111", at: "/paymentAccounts/3/cardNumber", draft: short)
            Issue.record("an index past the end was accepted")
        } catch {
            #expect(error.code == .invalidDraft)
            #expect(error.message.contains("/paymentAccounts"))
        }
    }
}
