import Foundation
import Testing

/// `dce-validate generate swift`: DCEModels is what `Schemas/` generates, byte for byte, and `lint` warns when
/// generated code is older than its schemas.
struct GenerateCommandTests {
    /// The command that generates DCEModels' types, as the README and `dce-generated.lock` give it.
    static let arguments = ["generate", "swift", "--schemas", "Schemas", "--output", "Sources/DCEModels/Generated"]

    /// A copy of the repository's schemas in a scratch folder, so that the generator's record does not touch them.
    private static func scratchSchemas() throws -> URL {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dce-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Schemas"), to: scratch.appendingPathComponent("Schemas"))
        return scratch
    }

    private static func files(in folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            result[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return result
    }

    /// The models in `Sources/DCEModels/Generated` are what the schemas generate now: a field added to a schema and
    /// not generated again fails here (and in `GeneratedModelTests`), naming the file and its first changed line.
    @Test func dceModelsIsWhatTheSchemasGenerate() throws {
        let scratch = try Self.scratchSchemas()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("Generated")
        let result = try CLI.run([
            "generate", "swift", "--schemas", scratch.appendingPathComponent("Schemas").path, "--output", output.path,
            "--import", "DCEEngine", "--format-configuration",
            CLI.repository.appendingPathComponent(".swift-format").path,
        ])
        #expect(result.status == 0, "\(result.err)")
        let generated = try Self.files(in: output)
        let committed = try Self.files(in: CLI.repository.appendingPathComponent("Sources/DCEModels/Generated"))
        let command = "dce-validate " + Self.arguments.joined(separator: " ") + " --import DCEEngine"
        #expect(Set(generated.keys) == Set(committed.keys), "generate them again: \(command)")
        for (name, text) in generated.sorted(by: { $0.key < $1.key }) {
            guard let old = committed[name], old != text else { continue }
            let newLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
            let line =
                zip(newLines, oldLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(newLines.count, oldLines.count)
            let shown = line < newLines.count ? String(newLines[line]) : "(end of file)"
            Issue.record(
                Comment(
                    rawValue: "Sources/DCEModels/Generated/\(name) is not what the schemas generate (line \(line + 1): "
                        + "\(shown)): generate it again: \(command)"))
        }
        // The record beside the schemas holds the same fingerprints as the repository's.
        let record = { (folder: URL) throws -> [String: Any] in
            let data = try Data(contentsOf: folder.appendingPathComponent("dce-generated.lock"))
            let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            return ((object["swift"] as! [[String: Any]]).first!["schemas"] as! [String: Any])
        }
        #expect(
            NSDictionary(dictionary: try record(scratch.appendingPathComponent("Schemas")))
                == NSDictionary(dictionary: try record(CLI.repository.appendingPathComponent("Schemas"))))
    }

    /// After a schema changes, `lint` names the generated code that is older than it and the command that brings it
    /// up to date; generating again clears it.
    @Test func lintWarnsWhenGeneratedCodeIsOlderThanItsSchemas() throws {
        let scratch = try Self.scratchSchemas()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let generate = [
            "generate", "swift", "--schemas", "Schemas", "--output", "Models", "--schema", "card-update", "--no-format",
        ]
        #expect(try CLI.run(generate, in: scratch).status == 0)
        #expect(try CLI.run(["lint", "Schemas"], in: scratch).status == 0)

        let schema = scratch.appendingPathComponent("Schemas/card-update.json")
        var text = try String(contentsOf: schema, encoding: .utf8)
        text = text.replacingOccurrences(
            of: #""fields": ["#, with: #""fields": [ { "key": "nickname", "dataType": "String" },"#)
        try Data(text.utf8).write(to: schema)
        let stale = try CLI.run(["lint", "Schemas"], in: scratch)
        #expect(stale.status == 0)
        #expect(stale.out.contains("0 problems, 2 warnings"), "\(stale.out)")
        #expect(
            stale.out.contains(
                "Schemas/dce-generated.lock: warning: the Swift code in '../Models' is older than card-update.json: "
                    + "generate it again with `dce-validate generate swift --schemas Schemas --output Models "
                    + "--schema card-update`"), "\(stale.out)")

        #expect(try CLI.run(generate, in: scratch).status == 0)
        #expect(!(try CLI.run(["lint", "Schemas"], in: scratch).out.contains("'../Models' is older")))
        let model = try String(
            contentsOf: scratch.appendingPathComponent("Models/CardUpdateRequest.swift"), encoding: .utf8)
        #expect(model.contains("public var nickname: String?"))
    }

    /// What the generator cannot do is an error naming the schema and where, with status 2, and nothing is written.
    @Test(arguments: [
        (#"{"id": "x", "swiftName": "lower", "fields": []}"#, "'lower' is not a Swift type name"),
        (
            #"{"id": "x", "fields": [{"key": "a", "dataType": "String", "enum": ["A", "B"], "swiftCaseNames": {"C": "c"}}]}"#,
            "'swiftCaseNames' names 'C', which is not one of the field's 'enum' strings"
        ),
        (
            #"{"id": "x", "fields": [{"key": "a", "dataType": "Object", "swiftName": "X", "fields": [{"key": "b", "dataType": "String"}]}]}"#,
            "the Swift type 'X' is already declared for another shape"
        ),
        (
            ##"{"id": "x", "fields": [{"key": "a", "ref": "#/definitions/Missing"}]}"##,
            "'#/definitions/Missing' names no definition"
        ),
    ])
    func whatCannotBeGeneratedIsAnError(schema: String, message: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dce-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(schema.utf8).write(to: scratch.appendingPathComponent("Schemas/x.json"))
        let result = try CLI.run(
            ["generate", "swift", "--schemas", "Schemas", "--output", "Models", "--no-format"], in: scratch)
        #expect(result.status == 2)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("Models").path))
    }
}
