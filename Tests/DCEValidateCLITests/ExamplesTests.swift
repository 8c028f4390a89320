import DCEEngine
import Foundation
import Testing

/// Every payload in Examples/ gives the verdict Examples/manifest.json promises, through the CLI and the API.
@Suite(.serialized) struct ExamplesTests {
    struct Example: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var schema: String
        var context: [String: String]?
        var tenderType: String?
        /// For an update: the stored record the example is a merge patch onto.
        var original: String?
        var expect: String
        var path: String?
        var testDescription: String { file }
    }

    static let examples: [Example] = {
        struct Manifest: Decodable { var examples: [Example] }
        let url = CLI.repository.appendingPathComponent("Examples/manifest.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else {
            return []
        }
        return manifest.examples
    }()

    @Test func theManifestListsEveryExampleAndEachInvalidOneShowsADifferentRule() throws {
        #expect(Self.examples.count >= 100)
        let listed = Set(Self.examples.map(\.file))
        let enumerator = FileManager.default.enumerator(atPath: CLI.repository.appendingPathComponent("Examples").path)
        let files = Set(
            (enumerator?.allObjects as? [String] ?? []).filter {
                $0.hasSuffix(".json") && $0 != "manifest.json" && !$0.hasPrefix("ci/")
            })
        #expect(files == listed)
        for schema in Set(Self.examples.map(\.schema)) {
            let rules = Self.examples.filter { $0.schema == schema && $0.expect != "valid" }.map(\.expect)
            #expect(Set(rules).count == rules.count, "\(schema) has two invalid examples for one rule")
            #expect(Self.examples.contains { $0.schema == schema && $0.expect == "valid" })
        }
        // Every shipped schema has examples, each invalid one naming its rule in its file name.
        let ids = try Validator().schemaIDs
        #expect(Set(Self.examples.map(\.schema)) == Set(ids).subtracting(["delivery-address"]))
        for example in Self.examples where example.expect != "valid" {
            #expect(example.file.contains("/invalid-\(example.expect)-"), "\(example.file)")
        }
    }

    @Test(arguments: examples) func throughTheCLI(example: Example) throws {
        let context = (example.context ?? [:]).sorted { $0.key < $1.key }.flatMap {
            ["--context", "\($0.key)=\($0.value)"]
        }
        let tender = example.tenderType.map { ["--tender-type", $0] } ?? []
        let original = example.original.map { ["--original", "Examples/\($0)"] } ?? []
        let result = try CLI.run(
            ["Examples/\(example.file)", "--schema", example.schema, "--format", "json"] + context + tender + original)
        #expect(result.status == (example.expect == "valid" ? 0 : 1), "\(result.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let errors = ((report["payloads"] as? [[String: Any]])?.first?["errors"] as? [[String: Any]]) ?? []
        if example.expect == "valid" {
            #expect(errors.isEmpty)
        } else {
            #expect(errors.map { $0["rule"] as? String } == [example.expect])
            #expect(errors.first?["path"] as? String == example.path)
        }
    }

    @Test(arguments: examples) func throughTheAPI(example: Example) throws {
        let bytes = try [UInt8](Data(contentsOf: CLI.repository.appendingPathComponent("Examples/\(example.file)")))
        let prepared = try Validator().prepare(
            example.schema, context: example.context ?? [:], tenderType: example.tenderType)
        let report =
            try example.original.map { original in
                prepared.validate(
                    json: bytes,
                    original: try [UInt8](
                        Data(contentsOf: CLI.repository.appendingPathComponent("Examples/\(original)"))))
            } ?? prepared.validate(json: bytes)
        #expect(report.valid == (example.expect == "valid"))
        if example.expect != "valid" { #expect(report.errors.map(\.rule.rawValue) == [example.expect]) }
    }
}
