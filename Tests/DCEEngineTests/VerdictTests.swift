import DCECompatibility
import Foundation
import Testing

@testable import DCEEngine

/// ``PreparedSchema/isValid(json:limits:)`` gives the verdict ``PreparedSchema/validate(json:limits:)`` gives: on
/// every example (under its context and tender type), and on copies of each with one member removed, made null,
/// given a value of each other kind, or joined by a member no schema knows, and cut short (not JSON).
struct VerdictTests {
    /// The copies of a payload tried: the payload, then each change of one of its members (at the top and one level
    /// down), an unknown member, and the payload cut in half.
    static func variants(of payload: [UInt8]) -> [[UInt8]] {
        var found = [payload, Array(payload.prefix(payload.count / 2))]
        guard let document = try? JSONDocument(bytes: payload),
            case .object(let members) = SchemaValue(document: document, at: document.root)
        else { return found }
        let others: [SchemaValue] = [
            .null, .string("x"), .string(String(repeating: "9", count: 40)), .number(DecimalNumber(lexeme: "-1")),
            .boolean(true), .array([]), .object([]),
        ]
        func replaced(_ members: [SchemaValue.Member], at index: Int, with value: SchemaValue?) -> SchemaValue {
            var changed = members
            if let value { changed[index].value = value } else { changed.remove(at: index) }
            return .object(changed)
        }
        for index in members.indices {
            for value in [nil] + others.map(Optional.some) {
                found.append(Array(replaced(members, at: index, with: value).json.utf8))
            }
            guard case .object(let inner) = members[index].value else { continue }
            for innerIndex in inner.indices {
                for value in [nil, .null, .string("")] as [SchemaValue?] {
                    found.append(
                        Array(
                            replaced(members, at: index, with: replaced(inner, at: innerIndex, with: value)).json.utf8))
                }
            }
        }
        found.append(Array(SchemaValue.object(members + [.init(key: "notAField", value: .string("x"))]).json.utf8))
        return found
    }

    @Test func theVerdictIsValidatesOnEveryExampleAndItsVariants() throws {
        var checked = (valid: 0, invalid: 0)
        for (schema, examples) in SchemaComparisonTests.examples {
            for example in examples {
                let prepared = try Fixtures.validator.prepare(
                    schema, context: example.context, tenderType: example.tenderType)
                for payload in Self.variants(of: example.payload) {
                    let valid = prepared.validate(json: payload).valid
                    #expect(
                        prepared.isValid(json: payload) == valid,
                        "\(example.name): \(String(decoding: payload, as: UTF8.self))")
                    if valid { checked.valid += 1 } else { checked.invalid += 1 }
                }
            }
        }
        // Both verdicts are met many times over: a test of agreement that could not fail would be worth nothing.
        #expect(checked.valid > 500 && checked.invalid > 2_000, "\(checked)")
    }

    @Test func aVerdictReadsTheRelatedDocumentsAValidationReads() throws {
        let programs = Array(
            #"{"programs": [{"programName": "SKRILL-VIRTUAL-MC-EEA", "allowableCards": 1, "cardType": "VIRTUAL"}]}"#
                .utf8)
        let prepared = try Fixtures.validator.prepare("card-create", context: ["region": "EU"])
            .relating(["card-programs-response": try JSONDocument(bytes: programs)])
        let known = Array(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR"}"#.utf8)
        let unknown = Array(#"{"programName": "SKRILL-OTHER", "currency": "EUR"}"#.utf8)
        #expect(prepared.isValid(json: known) && prepared.validate(json: known).valid)
        #expect(!prepared.isValid(json: unknown) && !prepared.validate(json: unknown).valid)
    }
}
