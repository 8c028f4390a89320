import Foundation
import PropertyBased
import Testing

@testable import DCEEngine

/// Properties that must hold for any input, checked on generated cases (x-sheep/swift-property-based).
struct PropertyTests {
    static let prepared: PreparedSchema = try! Fixtures.validator.prepare("card-create")

    /// A report is well-formed: valid exactly when empty, known rule codes, positions inside the payload.
    private func checkConsistent(_ report: ValidationReport, lines: Int) {
        #expect(report.valid == report.errors.isEmpty)
        let known = Set(ViolationCode.catalogue.map(\.code))
        for error in report.errors {
            #expect(known.contains(error.rule))
            #expect(!error.message.isEmpty)
            if let line = error.line { #expect(line >= 1 && line <= lines && (error.column ?? 0) >= 1) }
        }
    }

    @Test func validationNeverCrashesOnArbitraryBytes() async {
        await propertyCheck(count: 3_000, input: Gen<UInt8>.value(in: 0...255).array(of: 0...200)) { bytes in
            let report = Self.prepared.validate(json: bytes)
            checkConsistent(report, lines: bytes.filter { $0 == 0x0A }.count + 1)
        }
    }

    /// JSON built from the schema's own keys and values and from noise, so most inputs reach deep into the rules.
    static let documents = Gen<UInt64>.value(in: 0...UInt64.max).map { seed in
        var random = SplitMix(state: seed)
        return randomJSON(
            &random, depth: 0,
            keys: [
                "programName", "currency", "mobile", "cardPin", "externalId",
                "deliveryAddress", "termsAndConditionsAccepted", "eDisclosureAccepted", "address1", "city",
                "countryCode",
                "postalCode", "state", "x", "é",
            ])
    }

    @Test func validationNeverCrashesOnArbitraryJSONAndIsDeterministic() async {
        await propertyCheck(count: 3_000, input: Self.documents) { json in
            let bytes = Array(json.utf8)
            let first = Self.prepared.validate(json: bytes)
            checkConsistent(first, lines: 1)
            #expect(first == Self.prepared.validate(json: bytes))
        }
    }

    @Test func maskingNeverRevealsMoreThanTheLastFourCharacters() async {
        await propertyCheck(count: 2_000, input: Gen.letterOrNumber.string(of: 0...40)) { value in
            let masked = Masking.mask(value)
            // A card number shows in its brand's groups; any other value keeps its length.
            let isCard = Masking.isCardNumber(value)
            #expect(isCard ? masked == Masking.maskCardNumber(value) : masked.count == value.count)
            let shown = String(masked.drop { $0 == "•" || $0 == " " }.filter { $0 != " " })
            #expect(shown.count <= 4 && !shown.contains("•"))
            #expect(value.hasSuffix(shown))
            if value.count < 12 { #expect(masked.allSatisfy { $0 == "•" }) }
        }
    }

    /// Valid card-create requests built from the rules' own value sets.
    static let validRequests = Gen<UInt64>.value(in: 0...UInt64.max).map { seed -> String in
        var random = SplitMix(state: seed)
        let currencies = ["EUR", "BGN", "USD", "JPY", "CHF", "GBP"]
        let countries = ["BG", "AT", "BE", "DK", "HU"]  // four-digit postal codes (Schemas/reference/addresses.json)
        var members = [
            #""programName": "SKRILL-\#(random.next() % 2 == 0 ? "PHYSICAL" : "VIRTUAL")-MC""#,
            #""currency": "\#(currencies[Int(random.next() % 6)])""#,
        ]
        if random.next() % 2 == 0 {
            members.append(#""cardPin": "\#(String(format: "%04d", Int(random.next() % 10_000)))""#)
        }
        if random.next() % 2 == 0 {
            members.append(#""mobile": "+\#(1 + random.next() % 999) \#(10_000 + random.next() % 9_000_000)""#)
        }
        members.append(
            #""deliveryAddress": {"address1": "Street \#(random.next() % 100)", "city": "Sofia", "countryCode": "\#(countries[Int(random.next() % 5)])", "postalCode": "\#(1000 + random.next() % 9000)"}"#
        )
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test func anAcceptedRequestStaysAcceptedAfterARoundTripThroughTheReport() async throws {
        await propertyCheck(count: 1_000, input: Self.validRequests) { json in
            let report = Self.prepared.validate(json: Array(json.utf8))
            #expect(report.valid, "\(json): \(report.errors.map(\.message))")
            // Read back the report as an app or a tool would, and validate what was accepted once more.
            let decoded = try? JSONDecoder().decode(ValidationReport.self, from: JSONEncoder().encode(report))
            #expect(decoded == report)
            let document = try? JSONDocument(bytes: Array(json.utf8))
            let rewritten = document.map { SchemaValue(document: $0, at: $0.root).description } ?? ""
            #expect(Self.prepared.validate(json: Array(rewritten.utf8)).valid)
        }
    }
}

/// A small deterministic generator for building values from one seed (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private func randomJSON(_ random: inout SplitMix, depth: Int, keys: [String]) -> String {
    let choice = random.next() % (depth > 3 ? 6 : 8)
    switch choice {
    case 0: return "null"
    case 1: return random.next() % 2 == 0 ? "true" : "false"
    case 2: return ["0", "-1", "1.5", "1e400", "12345678901234567890", "-0.0"][Int(random.next() % 6)]
    case 3, 4, 5:
        let strings = [
            "", "EUR", "US", "1234", "12a4", "+1 123456789", "SKRILL-PHYSICAL", "Sofia", "\\u00e9", "\\ud83d\\ude00",
            "x\\ny", String(repeating: "a", count: 40),
        ]
        return "\"" + strings[Int(random.next() % UInt64(strings.count))] + "\""
    case 6:
        let count = Int(random.next() % 4)
        return "[" + (0..<count).map { _ in randomJSON(&random, depth: depth + 1, keys: keys) }.joined(separator: ",")
            + "]"
    default:
        let count = Int(random.next() % 6)
        let members = (0..<count).map { _ in
            "\"\(keys[Int(random.next() % UInt64(keys.count))])\": " + randomJSON(&random, depth: depth + 1, keys: keys)
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
