import Foundation
import Testing

@Suite(.serialized) struct LintCommandTests {
    @Test func theShippedSchemasAndExamplesAreClean() throws {
        let result = try CLI.run(["lint", "Schemas"])
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.hasPrefix("lint: 20 schemas and 114 examples checked, 0 problems"))
    }

    @Test func reportsBrokenSchemasRiskyRegexesAndWrongExamples() throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let schemas = root.appendingPathComponent("Schemas")
        let examples = root.appendingPathComponent("Examples/risky")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: examples, withIntermediateDirectories: true)
        try Data(#"{"id": "risky", "trustedPatterns": true, "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "^(a+)+$"}]}]}"#.utf8)
            .write(to: schemas.appendingPathComponent("risky.json"))
        try Data("{\"id\": \"broken\",\n \"fields\": [{\"key\": \"x\", \"dataType\": \"Strin\"}]}".utf8).write(to: schemas.appendingPathComponent("broken.json"))
        try Data(#"{"id": "untrusted", "fields": [{"key": "v", "dataType": "String", "additionalDataValidations": [{"regex": "(\\d)\\1"}]}]}"#.utf8)
            .write(to: schemas.appendingPathComponent("untrusted.json"))
        try Data(#"{"v": "aaa"}"#.utf8).write(to: examples.appendingPathComponent("valid-a.json"))
        try Data(#"{"v": "aaa"}"#.utf8).write(to: examples.appendingPathComponent("invalid-regex-a.json"))
        try Data(#"{"v": 1}"#.utf8).write(to: examples.appendingPathComponent("invalid-type-number.json"))
        try Data(#"{"v": "b"}"#.utf8).write(to: examples.appendingPathComponent("valid-b.json"))
        let result = try CLI.run(["lint", schemas.path])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(schemas.path)/broken.json:2:38: error: /fields/0/dataType: unknown dataType 'Strin' (did you mean 'String'?)") })
        #expect(lines.contains { $0.contains("risky.json:1:") && $0.contains("/fields/0/additionalDataValidations/0/regex") && $0.hasSuffix("[backtrackingRisk]") })
        #expect(lines.contains { $0.contains("invalid-regex-a.json: error: expected rule 'regex', but the payload is valid [example]") })
        #expect(lines.contains { $0.contains("valid-b.json: error: expected valid, got regex [example]") })
        #expect(!lines.contains { $0.contains("invalid-type-number.json") })
        #expect(lines.contains { $0.contains("untrusted.json:1:") && $0.contains("the regex is refused: a backreference") && $0.hasSuffix("[unsafeRegex]") })
        #expect(lines.last == "lint: 3 schemas and 4 examples checked, 5 problems")
    }

    @Test func aMissingDirectoryExitsTwo() throws {
        let result = try CLI.run(["lint", "/nonexistent/schemas"])
        #expect(result.status == 2)
        #expect(result.err.contains("cannot list the schema directory"))
    }
}
