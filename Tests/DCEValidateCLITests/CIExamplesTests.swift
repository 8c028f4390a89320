import Foundation
import Testing

/// The ready-made CI jobs in Examples/ci run the command they contain against a fixtures folder, and the reports
/// they publish are valid JUnit and SARIF.
@Suite(.serialized) struct CIExamplesTests {
    /// The `dce-validate` command line of a CI file, as a shell would split it (single quotes kept together).
    private func command(in file: String) throws -> [String] {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent("Examples/ci/\(file)"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.contains(".build/release/dce-validate ") }) else { return [] }
        var joined = lines[start]
        var index = start + 1
        while index < lines.count, lines[index].hasPrefix("--") {
            joined += " " + lines[index]
            index += 1
        }
        joined = String(joined.drop { $0 != "." })  // drop a YAML "- " or "run: >-" prefix
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in joined {
            if character == "'" {
                quoted.toggle()
                continue
            }
            if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    @Test(arguments: ["github-actions.yml", "gitlab-ci.yml"]) func theJobsCommandProducesValidReports(file: String)
        throws
    {
        let words = try command(in: file)
        #expect(words.first == ".dce-validate/.build/release/dce-validate")
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("fixtures"),
            withDestinationURL: CLI.repository.appendingPathComponent("Examples/card-create"))
        let result = try CLI.run(Array(words.dropFirst()), in: directory)
        #expect(result.status == 1)  // the fixtures include the invalid examples
        #expect(try CLI.checkReports("junit", [directory.appendingPathComponent("junit.xml")]).status == 0)
        #expect(try CLI.checkReports("sarif", [directory.appendingPathComponent("dce-validate.sarif")]).status == 0)
    }
}
