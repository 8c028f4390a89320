import DCEForms
import Foundation
import Testing

@testable import DCEEngine

/// The card brands of the libraries people use: every case of the published test tables of braintree's
/// credit-card-type and card-validator (copied in `Fixtures/card-brand-tables`, MIT License) gets the answer they give,
/// or `card-brands.json` lists the case in `differences` with the source of its own answer. A case that differs
/// unlisted fails, and so does a listed difference that no longer happens, so the list says what is true.
@Suite struct CardBrandTablesTests {
    private let brands = ReferenceData.bundled.cardBrands

    /// A fixture of upstream cases.
    private struct Table {
        let cases: [[String: Any]]
        let omitted: [[String: Any]]
    }

    private static func table(_ name: String) throws -> Table {
        let url = Fixtures.fixtures.appendingPathComponent("card-brand-tables/\(name).json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return Table(
            cases: try #require(object["cases"] as? [[String: Any]]),
            omitted: object["omitted"] as? [[String: Any]] ?? [])
    }

    /// A recorded difference: what upstream answers, what the data answers, and the source for the data's answer.
    private struct Difference {
        let upstream: String
        let ours: String
        let source: String
    }

    /// The differences `card-brands.json` records for `library`, by table and input.
    private static func differences(of library: String) throws -> [String: Difference] {
        let url = Fixtures.schemas.appendingPathComponent("reference/card-brands.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var recorded: [String: Difference] = [:]
        for entry in object["differences"] as? [[String: Any]] ?? [] where entry["library"] as? String == library {
            let table = try #require(entry["table"] as? String)
            for input in try #require(entry["inputs"] as? [String]) {
                recorded[table + " " + input] = Difference(
                    upstream: try canonical(entry["upstream"] ?? NSNull()),
                    ours: try canonical(entry["ours"] ?? NSNull()),
                    source: entry["source"] as? String ?? "")
            }
        }
        return recorded
    }

    /// A JSON value written one way only (keys sorted), so that two answers compare by their text.
    private static func canonical(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Checks every case: `answers` gives upstream's answer and the data's for one case, under the key a difference
    /// is recorded by (table and input).
    private static func check(
        _ library: String, cases: [[String: Any]],
        answers: ([String: Any]) throws -> (key: String, upstream: Any, ours: Any)
    ) throws {
        let recorded = try differences(of: library)
        var met: Set<String> = []
        var agreeing = 0
        for entry in cases {
            let (key, upstream, ours) = try answers(entry)
            let (theirs, mine) = (try canonical(upstream), try canonical(ours))
            if theirs == mine {
                agreeing += 1
                #expect(recorded[key] == nil, "\(library) \(key): recorded as a difference, but the answers agree")
                continue
            }
            guard let difference = recorded[key] else {
                Issue.record("\(library) \(key): upstream \(theirs), ours \(mine), and no difference recorded")
                continue
            }
            met.insert(key)
            #expect(difference.upstream == theirs && difference.ours == mine, "\(library) \(key): recorded otherwise")
            #expect(!difference.source.isEmpty, "\(library) \(key): no source")
        }
        for key in Set(recorded.keys).subtracting(met).sorted() {
            Issue.record("\(library) \(key): recorded as a difference, but no such case differs")
        }
        #expect(agreeing + met.count == cases.count)
    }

    /// credit-card-type's tables: the one type (`type`), the types in any order (`types`), the security code of the
    /// type (`code`), and a type's lengths (`lengths`).
    @Test func creditCardTypesTablesAgreeOrAreRecorded() throws {
        let table = try Self.table("credit-card-type")
        #expect(table.cases.count == 251)
        try Self.check("credit-card-type", cases: table.cases) { entry in
            let kind = try #require(entry["table"] as? String)
            let input = try #require(entry["input"] as? String)
            let typing = brands.typing(input)
            let shown: Any = typing.brand?.id ?? NSNull()
            switch kind {
            case "type":
                return (kind + " " + input, entry["type"] ?? NSNull(), shown)
            case "types":
                let upstream = try #require(entry["types"] as? [String]).sorted()
                return (kind + " " + input, upstream, typing.candidates.map(\.id).sorted())
            case "code":
                let ours: Any =
                    typing.brand.map { ["name": $0.securityCodeName, "size": $0.securityCodeLength] } ?? NSNull()
                return (kind + " " + input, entry["code"] ?? NSNull(), ours)
            case "lengths":
                // The type is the first upstream gives, in its own order: ours must be among the candidates.
                let type = try #require(entry["type"] as? String)
                let brand = typing.candidates.first { $0.id == type }
                return (kind + " " + input, entry["lengths"] ?? NSNull(), brand.map(\.lengths) ?? NSNull())
            default:
                throw TableError.unknownTable(kind)
            }
        }
    }

    /// card-validator's `cardNumber`: the card shown (none while several brands are possible), whether the number may
    /// still become valid (the verdict is not invalid) and whether it is valid, as a form judges it while it is typed.
    @Test func cardValidatorsTableAgreesOrIsRecorded() throws {
        let table = try Self.table("card-validator")
        #expect(table.cases.count == 63)
        // What is left out (values that are not text, options of the function) is listed with the reason.
        #expect(table.omitted.count == 7 && table.omitted.allSatisfy { !($0["reason"] as? String ?? "").isEmpty })
        try Self.check("card-validator", cases: table.cases) { entry in
            let input = try #require(entry["input"] as? String)
            let upstream: [String: Any] = [
                "card": entry["card"] ?? NSNull(),
                "isPotentiallyValid": try #require(entry["isPotentiallyValid"] as? Bool),
                "isValid": try #require(entry["isValid"] as? Bool),
            ]
            let (verdict, typing) = brands.judge(partial: input)
            let invalid = if case .invalid = verdict { true } else { false }
            let ours: [String: Any] = [
                "card": typing.brand?.id ?? NSNull(), "isPotentiallyValid": !invalid, "isValid": verdict == .valid,
            ]
            return ("cases " + input, upstream, ours)
        }
    }

    /// What the issue asked for: a Maestro card from 50 is valid and shown as Maestro, a Troy card on Discover's 65 as
    /// Troy, in payment-account's card number as `dce-validate check-input` prints it.
    @Test func aMaestroCardAndATroyCardOnDiscoversRangeAreKnown() throws {
        let form = try Validator().prepare("payment-account")
        for (number, id) in [
            ("5000000000000611", "maestro"), ("6502740000000001", "troy"), ("6799990100000000019", "maestro"),
        ] {
            let feedback = try form.inputFeedback(number, at: "/cardNumber")
            #expect(feedback.verdict == .valid && feedback.cardBrand?.id == id, "\(number)")
            #expect(Format.cardNumber.accepts(number), "\(number)")
        }
        // Where two networks list the same BIN, one has it: Troy's 650923 is cut out of Elo's 650901-650978.
        #expect(brands.typing("650923").candidates.map(\.id) == ["troy"])
        #expect(brands.typing("650924").candidates.map(\.id) == ["elo"])
    }

    private enum TableError: Error {
        case unknownTable(String)
    }
}
