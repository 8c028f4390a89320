import DCEEngine
import Foundation
import Testing

/// What the walk reports besides the verdict, on the paths the fast code takes: JSON Pointers written straight into
/// a string (escapes, array indices, members whose names have JSON escapes), lines and columns (one ASCII line, or
/// several lines with multi-byte characters, reported out of document order), and fields found through the hashed
/// key table of an object with many fields.
struct EvaluationDetailTests {
    private func validate(_ schema: String, _ json: String) throws -> ValidationReport {
        let validator = try Fixtures.validator(["s": schema])
        return try validator.validate(json: Array(json.utf8), schema: "s")
    }

    @Test func pointersEscapeTildeAndSlashAndNumberArrayElements() throws {
        let schema = #"""
            {"id": "s", "fields": [
              {"key": "a/b~c", "dataType": "Array", "items": {"dataType": "Object", "fields": [{"key": "n", "dataType": "Integer"}]}}
            ]}
            """#
        let json =
            #"{"a/b~c": [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}, {"n": 5}, {"n": 6}, {"n": 7}, {"n": 8}, {"n": 9}, {"n": 10}, {"n": "x"}], "x~/y": 1, "\u0071\/": 2}"#
        let report = try validate(schema, json)
        #expect(report.errors.map(\.path) == ["/a~1b~0c/10/n", "/q~1", "/x~0~1y"])
        #expect(report.errors.map(\.rule) == [.type, .unknownField, .unknownField])
    }

    @Test func aMissingFieldIsNamedByItsEscapedKey() throws {
        let schema =
            #"{"id": "s", "fields": [{"key": "o", "dataType": "Object", "fields": [{"key": "p/q", "dataType": "String", "required": true}]}]}"#
        #expect(try validate(schema, #"{"o": {}}"#).errors.map(\.path) == ["/o/p~1q"])
    }

    @Test func positionsOnOneASCIILineAndOnSeveralLinesWithWideCharacters() throws {
        let schema = #"""
            {"id": "s", "fields": [
              {"key": "z", "dataType": "Integer"}, {"key": "a", "dataType": "Integer"}, {"key": "m", "dataType": "Integer"}
            ]}
            """#
        // The schema lists z before a: violations are found out of document order.
        let oneLine = try validate(schema, #"{"a": "1", "m": "2", "z": "3"}"#)
        #expect(
            oneLine.errors.map { "\($0.path) \($0.line ?? 0):\($0.column ?? 0)" } == ["/a 1:7", "/m 1:17", "/z 1:27"])
        let lines = try validate(schema, "{\"a\": \"é\",\n  \"m\": \"ü\", \"z\": \"3\",\n\"∂\": 1}")
        #expect(
            lines.errors.map { "\($0.path) \($0.line ?? 0):\($0.column ?? 0)" } == [
                "/a 1:7", "/m 2:8", "/z 2:18", "/∂ 3:1",
            ])
    }

    @Test func everyFieldOfALargeObjectIsFoundAndNearMissesAreNot() throws {
        // Names that share length, first, middle and last byte collide in the table's hash: each must still be found.
        let keys = (0..<40).map { "a" + String(format: "%02dM%02d", $0, 39 - $0) + "z" } + (0..<40).map { "k\($0)" }
        let fields = keys.map { #"{"key": "\#($0)", "dataType": "Integer", "required": true}"# }.joined(separator: ", ")
        let schema = #"{"id": "s", "fields": [\#(fields)]}"#
        let all = "{" + keys.map { #""\#($0)": 1"# }.joined(separator: ", ") + "}"
        #expect(try validate(schema, all).valid)
        let nearMisses =
            "{" + keys.dropFirst().map { #""\#($0)": 1"# }.joined(separator: ", ")
            + #", "a00M39y": 1, "a00M39": 1, "a00M39zz": 1, "a00M38z": 1}"#
        #expect(
            try validate(schema, nearMisses).summary == [
                "unknownField@/a00M38z", "unknownField@/a00M39", "unknownField@/a00M39y", "required@/a00M39z",
                "unknownField@/a00M39zz",
            ])
    }
}
