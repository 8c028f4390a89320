import DCECompatibility
import Foundation
import Testing

@testable import DCEEngine
@testable import DCEReports

/// A report's violations kept as data (``ViolationList``) read exactly as violations written at validation would:
/// the same violations in the same order, the same JSON and text reports byte for byte, also on an NDJSON line (the same
/// from many tasks at once: `SharedObjectsTests` in DCEConcurrencyTests); and the data holds none of the payload's values.
struct ViolationListTests {
    /// Every example and each of its variants (``VerdictTests/variants(of:)``) that is invalid, with its report.
    static func invalidReports() throws -> [(name: String, report: ValidationReport)] {
        var found: [(String, ValidationReport)] = []
        for (schema, examples) in SchemaComparisonTests.examples.sorted(by: { $0.key < $1.key }) {
            for example in examples {
                let prepared = try Fixtures.validator.prepare(
                    schema, context: example.context, tenderType: example.tenderType)
                for payload in VerdictTests.variants(of: example.payload) {
                    let report = prepared.validate(json: payload)
                    if !report.valid { found.append((example.name, report)) }
                }
            }
        }
        return found
    }

    @Test func violationsKeptAsDataReadAsViolationsWrittenAtOnce() throws {
        let reports = try Self.invalidReports()
        var violations = 0
        for (name, report) in reports {
            let written = Array(report.errors)
            violations += written.count
            // Sorted again as strings, the order a report made of written violations has.
            let rewritten = ValidationReport(
                schema: report.schema, schemaVersion: report.schemaVersion, errors: written, context: report.context,
                tenderType: report.tenderType, omittedErrors: report.omittedErrors)
            #expect(rewritten.errors == report.errors, "\(name)")
            #expect(rewritten == report, "\(name)")
            for line in [nil, 7] as [Int?] {
                let kept = PayloadReport(file: name, line: line, report: report)
                var byHand = PayloadReport(file: name, line: line, report: rewritten)
                byHand.errors = ViolationList(
                    written.map { violation in
                        var moved = violation
                        if let line, moved.line != nil { moved.line = line }
                        return moved
                    })
                var json = (kept: ByteBuilder(), byHand: ByteBuilder())
                JSONRenderer().append(kept, to: &json.kept)
                JSONRenderer().append(byHand, to: &json.byHand)
                #expect(json.kept.string == json.byHand.string, "\(name)")
                for color in [false, true] {
                    let text = TextRenderer(color: color)
                    #expect(
                        text.lines(for: kept, options: ReportOptions())
                            == text.lines(for: byHand, options: ReportOptions()), "\(name)")
                }
            }
        }
        // Enough reports and violations that a difference would show.
        #expect(reports.count > 2_000 && violations > 4_000, "\(reports.count) reports, \(violations) violations")
    }

    @Test func whatAReportKeepsHoldsNoValueOfThePayload() throws {
        let prepared = try Fixtures.validator.prepare("payment-account", tenderType: "credit")
        let pan = "4111111111111111111"
        let payload = Array(#"{"cardNumber":"\#(pan)","securityCode":"98765","unknownMember":"4929"}"#.utf8)
        let report = prepared.validate(json: payload)
        #expect(report.errors.contains { $0.path == "/cardNumber" })
        #expect(report.errors.contains { $0.key == "unknownMember" })
        let kept = try #require(report.errors.keptBytes)
        for secret in [pan, "98765", "4929"] {
            #expect(
                kept.firstRange(of: Array(secret.utf8)) == nil, "the report keeps \(secret)")
        }
        // The names are kept: the test reads the right bytes.
        #expect(kept.firstRange(of: Array("unknownMember".utf8)) != nil)
    }

    @Test func anUnknownMemberWithAnEmptyNameIsNamedSo() throws {
        let prepared = try Fixtures.validator.prepare("card-create")
        let report = prepared.validate(json: Array(#"{"deliveryAddress":{"":1,"city":"Sofia"}}"#.utf8))
        let unknown = try #require(report.errors.first { $0.rule == .unknownField })
        // The member's name, empty, and not the key of the object it is in.
        #expect(unknown.path == "/deliveryAddress/" && unknown.key == "")
        var json = ByteBuilder()
        JSONRenderer().append(PayloadReport(file: "p", report: report), to: &json)
        #expect(json.string.contains(#"{"path":"/deliveryAddress/","key":"","rule":"unknownField""#))
    }

    @Test func aKeptViolationIsPlainData() {
        // FoundViolations copies records as bytes and never deinitializes them: a field with a reference would leak
        // or be freed twice.
        #expect(_isPOD(FoundViolation.self))
    }
}
