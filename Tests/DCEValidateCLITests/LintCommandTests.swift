import Foundation
import Testing

@Suite(.serialized) struct LintCommandTests {
    @Test func theShippedSchemasAndExamplesAreClean() throws {
        let result = try CLI.run(["lint", "Schemas"])
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.hasPrefix("lint: 21 schemas and 118 examples checked, 0 problems"))
    }

    @Test func reportsBrokenSchemasRiskyRegexesAndWrongExamples() throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let schemas = root.appendingPathComponent("Schemas")
        let examples = root.appendingPathComponent("Examples/risky")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
        try Data(
            #"{"id": "risky", "trustedPatterns": true, "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "^(a+)+$"}]}]}"#
                .utf8
        )
        .write(to: schemas.appendingPathComponent("risky.json"))
        try Data("{\"id\": \"broken\",\n \"fields\": [{\"key\": \"x\", \"dataType\": \"Strin\"}]}".utf8).write(
            to: schemas.appendingPathComponent("broken.json"))
        try Data(
            #"{"id": "untrusted", "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "(\\d)\\1"}]}]}"#
                .utf8
        )
        .write(to: schemas.appendingPathComponent("untrusted.json"))
        try Data(#"{"v": "aaa"}"#.utf8).write(to: examples.appendingPathComponent("valid-a.json"))
        try Data(#"{"v": "aaa"}"#.utf8).write(to: examples.appendingPathComponent("invalid-regex-a.json"))
        try Data(#"{"v": 1}"#.utf8).write(to: examples.appendingPathComponent("invalid-type-number.json"))
        try Data(#"{"v": "b"}"#.utf8).write(to: examples.appendingPathComponent("valid-b.json"))
        let result = try CLI.run(["lint", schemas.path])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(schemas.path)/broken.json:2:38: error: /fields/0/dataType: unknown dataType 'Strin' (did you mean 'String'?)"
                )
            })
        #expect(
            lines.contains {
                $0.contains("risky.json:1:") && $0.contains("/fields/0/additionalDataValidations/0/regex")
                    && $0.hasSuffix("[backtrackingRisk]")
            })
        #expect(
            lines.contains {
                $0.contains("invalid-regex-a.json: error: expected rule 'regex', but the payload is valid [example]")
            })
        #expect(lines.contains { $0.contains("valid-b.json: error: expected valid, got regex [example]") })
        #expect(!lines.contains { $0.contains("invalid-type-number.json") })
        #expect(
            lines.contains {
                $0.contains("untrusted.json:1:") && $0.contains("the regex is refused: a backreference")
                    && $0.hasSuffix("[unsafeRegex]")
            })
        #expect(lines.last == "lint: 3 schemas and 4 examples checked, 5 problems")
    }

    /// Address patterns are compiled when their country is first seen, not when the data loads: lint compiles them
    /// all and says where a broken one is written.
    @Test func reportsAnAddressPatternPCRE2Refuses() throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let reference = root.appendingPathComponent("Schemas/reference")
        try FileManager.default.createDirectory(at: reference, withIntermediateDirectories: true)
        let shipped = try String(
            contentsOf: CLI.repository.appendingPathComponent("Schemas/reference/addresses.json"), encoding: .utf8)
        let broken = shipped.replacingOccurrences(of: #""postalCode": "AD[1-7]0\\d""#, with: #""postalCode": "AD[1-7""#)
        #expect(broken != shipped)
        try Data(broken.utf8).write(to: reference.appendingPathComponent("addresses.json"))
        try Data(#"{"id": "s", "fields": [{"key": "v", "dataType": "String"}]}"#.utf8).write(
            to: root.appendingPathComponent("Schemas/s.json"))
        let result = try CLI.run(["lint", root.appendingPathComponent("Schemas").path])
        #expect(result.status == 1)
        #expect(
            result.out.split(separator: "\n").contains {
                $0.contains("addresses.json:")
                    && $0.contains("/countries/1/postalCode: PCRE2 cannot compile the pattern of AD")
                    && $0.hasSuffix("[invalidRegex]")
            }, "\(result.out)")
    }

    @Test func aMissingDirectoryExitsTwo() throws {
        let result = try CLI.run(["lint", "/nonexistent/schemas"])
        #expect(result.status == 2)
        #expect(result.err.contains("cannot list the schema directory"))
    }
}
