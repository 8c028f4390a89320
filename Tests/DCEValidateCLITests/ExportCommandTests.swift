import Foundation
import Testing

@Suite(.serialized) struct ExportCommandTests {
    @Test func exportsAJSONSchema2020Document() throws {
        let result = try CLI.run(["export", "--schema", "card-create", "--to", "json-schema", "--context", "region=US"])
        #expect(result.status == 0, "\(result.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(document["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(document["additionalProperties"] as? Bool == false)
        #expect((document["description"] as? String)?.contains("context region=US") == true)
        let required = document["required"] as? [String] ?? []
        #expect(Set(required) == ["programName", "currency"])
        #expect((document["$comment"] as? String)?.contains("duplicateKey") == true)
    }

    @Test func limitationsAreSaidInTheExport() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"id": "pan", "fields": [{"key": "pan", "dataType": "String", "format": "luhn"}]}"#.utf8)
            .write(to: directory.appendingPathComponent("pan.json"))
        let output = directory.appendingPathComponent("pan.schema.json")
        let result = try CLI.run([
            "export", "--schema", "pan", "--schemas", directory.path, "--to", "json-schema", "--output", output.path,
        ])
        #expect(result.status == 0)
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("the Luhn check digit is not"))
    }

    @Test func unknownContextsAndTargetsAreUsageErrors() throws {
        #expect(
            try CLI.run(["export", "--schema", "card-create", "--to", "json-schema", "--context", "region=CA"]).status
                == 2)
        #expect(try CLI.run(["export", "--schema", "card-create", "--to", "xsd"]).status == 2)
        #expect(try CLI.run(["export", "--schema", "nope", "--to", "json-schema"]).status == 2)
    }

    /// scripts/differential.py: the exported schemas and dce-validate give the same verdict for every payload of a
    /// seeded corpus, judged by jsonschema-rs (an independent validator), and a weakened export does not.
    @Test func exportedSchemasAgreeWithTheEngineOnAGeneratedCorpus() throws {
        let venvPython = CLI.repository.appendingPathComponent(".venv-test/bin/python")
        let process = Process()
        process.executableURL = venvPython
        process.arguments = [
            CLI.repository.appendingPathComponent("scripts/differential.py").path, "--binary", CLI.binary.path,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stdout)\n\(stderr)")
        #expect(stdout.contains("differential: 33000 payloads"))
        #expect(stdout.contains(", 0 mismatches,"))
    }
}
