import DCEEngine
import DCEReports
import Foundation
import Testing

/// A prepared schema keeps at most `maxErrors` violations per report and counts the rest, so that a hostile
/// payload cannot make a report (or the memory holding it) grow without bound.
struct ErrorLimitTests {
    private static let schema =
        #"{"id": "s", "fields": [{"key": "a", "dataType": "Array", "items": {"dataType": "Integer"}}, {"key": "n", "dataType": "String"}]}"#

    private func prepared() throws -> PreparedSchema { try Fixtures.validator(["s": Self.schema]).prepare("s") }

    /// `{"a": ["x", "x", …]}`: one `type` violation per element.
    private func wrongTypes(_ count: Int) -> [UInt8] {
        Array(("{\"a\": [" + Array(repeating: "\"x\"", count: count).joined(separator: ", ") + "]}").utf8)
    }

    @Test func aReportKeepsTheFirstViolationsAndCountsTheRest() throws {
        let report = try prepared().limitingErrors(to: 10).validate(json: wrongTypes(50))
        #expect(report.errors.count == 10)
        #expect(Set(report.errors.map(\.path)) == Set((0..<10).map { "/a/\($0)" }))
        #expect(report.omittedErrors == 40)
        #expect(report.truncated)
        #expect(!report.valid)
    }

    @Test func theDefaultKeepsAThousand() throws {
        let prepared = try prepared()
        #expect(prepared.maxErrors == PreparedSchema.defaultMaxErrors)
        #expect(PreparedSchema.defaultMaxErrors == 1_000)
        let report = prepared.validate(json: wrongTypes(1_500))
        #expect(report.errors.count == 1_000)
        #expect(report.omittedErrors == 500)
    }

    @Test func underTheLimitTheReportIsTheUnlimitedOne() throws {
        let prepared = try prepared()
        let payload = Array(#"{"a": [1, "x", 2, "y"], "n": 3}"#.utf8)
        let limited = prepared.limitingErrors(to: 3).validate(json: payload)
        #expect(limited == prepared.validate(json: payload))
        #expect(limited.errors.count == 3 && limited.omittedErrors == 0 && !limited.truncated)
        #expect(prepared.limitingErrors(to: 1).validate(json: Array(#"{"a": [1]}"#.utf8)).valid)
    }

    @Test func aLimitBelowOneKeepsOne() throws {
        let prepared = try prepared().limitingErrors(to: 0)
        #expect(prepared.maxErrors == 1)
        let report = prepared.validate(json: wrongTypes(3))
        #expect(report.errors.count == 1 && report.omittedErrors == 2)
    }

    @Test func theLimitSurvivesRestrictingAndFingerprintingAndTheyItsLimiting() throws {
        let prepared = try prepared()
        let restricted = try prepared.limitingErrors(to: 2).restricted(to: .fields(["/a"])).fingerprinting(
            with: Constant())
        let report = restricted.validate(json: wrongTypes(5))
        #expect(restricted.maxErrors == 2)
        #expect(report.errors.count == 2 && report.omittedErrors == 3)
        #expect(report.errors.allSatisfy { $0.fingerprint == "fp" })
        let limitedLast = try prepared.restricted(to: .fields(["/n"])).fingerprinting(with: Constant()).limitingErrors(
            to: 1)
        let other = limitedLast.validate(json: Array(#"{"a": ["x", "y"], "n": 1}"#.utf8))
        #expect(
            other.errors.map(\.path) == ["/n"] && other.errors.first?.fingerprint == "fp" && other.omittedErrors == 0)
    }

    /// Violations past the limit were never built, so an update cannot tell whether they are on unchanged values:
    /// they stay counted and the report invalid.
    @Test func anUpdateCarriesTheOmittedCount() throws {
        let prepared = try prepared().limitingErrors(to: 4)
        let report = prepared.validate(json: wrongTypes(10), original: wrongTypes(10))
        #expect(report.errors.isEmpty)
        #expect(report.omittedErrors == 6)
        #expect(!report.valid)
        let changed = prepared.validate(json: wrongTypes(10), original: Array(#"{"a": []}"#.utf8))
        #expect(changed.errors.count == 4 && changed.omittedErrors == 6)
    }

    @Test func theOmittedCountIsEncodedAndMayBeMissingWhenDecoded() throws {
        let report = try prepared().limitingErrors(to: 1).validate(json: wrongTypes(3))
        let encoded = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(ValidationReport.self, from: encoded) == report)
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["omittedErrors"] as? Int == 2)
        object["omittedErrors"] = nil
        object["reverificationRequired"] = nil
        let older = try JSONDecoder().decode(
            ValidationReport.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(older.omittedErrors == 0 && older.errors == report.errors)

        let payload = PayloadReport(file: "p.json", report: report)
        #expect(payload.omittedErrors == 2)
        #expect(try JSONDecoder().decode(PayloadReport.self, from: JSONEncoder().encode(payload)) == payload)
        let olderPayload = try JSONDecoder().decode(
            PayloadReport.self, from: Data(#"{"file": "p.json", "valid": true, "errors": []}"#.utf8))
        #expect(olderPayload.omittedErrors == 0 && olderPayload.reverificationRequired.isEmpty)
    }

    @Test(arguments: ReportFormat.allCases)
    func everyFormatStatesWhatItLeftOut(format: ReportFormat) throws {
        let report = try prepared().limitingErrors(to: 2).validate(json: wrongTypes(9))
        let run = ValidationRun(schema: "s", payloads: [PayloadReport(file: "p.json", report: report)])
        let text = format.render(run, options: ReportOptions(maxErrors: 2))
        #expect(
            text.contains("7 more errors not shown (--max-errors 2)")
                || (format == .json && text.contains(#""omittedErrors":7"#)), "\(text)")
        #expect(!format.render(run).contains("--max-errors"))
        if format == .text {
            #expect(
                text.hasSuffix("invalid: 1 payload checked against s, 0 valid, 1 invalid, 2 errors, 7 more not shown\n")
            )
        }
    }
}

/// Names every value `fp`.
private struct Constant: ValueFingerprinter {
    func fingerprint(_ value: Span<UInt8>) -> String { "fp" }
}
