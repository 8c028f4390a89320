import Foundation
import Testing

/// One payload with a million violations: every report keeps the first `--max-errors` (200 unless told) and
/// states how many it left out, and memory stays flat.
@Suite(.serialized) struct ErrorLimitTests {
    /// A card-list-query filter whose `status` array holds `count` numbers where strings belong: one `type`
    /// violation each.
    private static func wrongTypes(_ count: Int, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("many.json")
        var bytes = Data(#"{"status": ["#.utf8)
        bytes.append(Data(String(repeating: "1,", count: count - 1).utf8))
        bytes.append(Data("1]}".utf8))
        try bytes.write(to: file)
        return file
    }

    /// Every format in one run (text on standard output, the others in files), so that the payload is read and
    /// checked once: each report is small and states the omitted count, and the run's peak memory stays flat.
    @Test func aMillionErrorsGiveSmallReportsInFlatMemory() async throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try Self.wrongTypes(1_000_000, in: directory)
        let files = ["json", "junit", "sarif", "github"].map {
            (format: $0, url: directory.appendingPathComponent("report.\($0)"))
        }
        let text = directory.appendingPathComponent("report.text")
        let arguments =
            [payload.path, "--schema", "card-list-query", "--format", "text"]
            + files.flatMap { ["--format", $0.format, "--output", $0.url.path] }
        let run = try await CLI.offThePool { try CLI.runMeasuringMemory(arguments, stdout: text) }
        #expect(run.status == 1)
        // Before the limit, the 1,000,000 kept violations took 0.5 to 1.2 GB, depending on the format. (A sanitizer's
        // shadow memory and quarantine say nothing about the tool's own memory.)
        if !CLI.underSanitizer {
            #expect(run.maxResidentBytes < 300 << 20, "\(run.maxResidentBytes >> 20) MB at peak")
        }
        for (format, report) in [("text", text)] + files {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: report.path)[.size] as? Int)
            #expect(size < 256 << 10, "\(format): the report has \(size) bytes")
            #expect(
                try String(contentsOf: report, encoding: .utf8).contains("999800"),
                "\(format): the omitted count is not stated")
            if (format == "junit" || format == "sarif") && size < 256 << 10 {
                let check = try await CLI.offThePool { try CLI.checkReports(format, [report]) }
                #expect(check.status == 0, "\(check.err)")
            }
        }
    }

    @Test func maxErrorsSetsTheLimitAndEveryFormatStatesWhatItLeftOut() async throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try Self.wrongTypes(1_000, in: directory)
        let arguments = [payload.path, "--schema", "card-list-query", "--max-errors", "3"]

        let text = try await CLI.offThePool { try CLI.run(arguments) }
        #expect(text.status == 1)
        #expect(text.out.components(separatedBy: "[type]\n").count - 1 == 3)
        #expect(text.out.contains("\(payload.path): note: 997 more errors not shown (--max-errors 3)\n"), "\(text.out)")
        #expect(
            text.out.hasSuffix(
                "invalid: 1 payload checked against card-list-query, 0 valid, 1 invalid, 3 errors, 997 more not shown\n"
            ))

        let json = try await CLI.offThePool { try CLI.run(arguments + ["--format", "json"]) }
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let entry = try #require((object["payloads"] as? [[String: Any]])?.first)
        #expect((entry["errors"] as? [Any])?.count == 3)
        #expect(entry["omittedErrors"] as? Int == 997)

        let junit = directory.appendingPathComponent("junit.xml")
        let sarif = directory.appendingPathComponent("results.sarif")
        let machine = try await CLI.offThePool {
            try CLI.run(
                arguments + [
                    "--format", "junit", "--output", junit.path, "--format", "sarif", "--output", sarif.path,
                    "--format", "github",
                ])
        }
        #expect(machine.status == 1)
        let checks = try await CLI.offThePool {
            (try CLI.checkReports("junit", [junit]), try CLI.checkReports("sarif", [sarif]))
        }
        #expect(checks.0.status == 0, "\(checks.0.err)")
        #expect(
            try String(contentsOf: junit, encoding: .utf8).contains(
                "<system-out>997 more errors not shown (--max-errors 3)</system-out>"))
        #expect(checks.1.status == 0, "\(checks.1.err)")
        let results = try #require(
            ((try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])?["runs"]
                as? [[String: Any]])?.first?["results"]
                as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["error", "error", "error", "note"])
        #expect(
            (results.last?["message"] as? [String: Any])?["text"] as? String
                == "997 more errors not shown (--max-errors 3)")
        #expect(
            machine.out.contains(
                "::notice file=\(payload.path),title=dce-validate::997 more errors not shown (--max-errors 3)\n"),
            "\(machine.out)")

        let unlimited = try await CLI.offThePool { try CLI.run(arguments.dropLast(2) + ["--format", "json"]) }
        let all = try #require(
            (try JSONSerialization.jsonObject(with: unlimited.stdout) as? [String: Any])?["payloads"]
                as? [[String: Any]])
        #expect((all.first?["errors"] as? [Any])?.count == 200)
        #expect(all.first?["omittedErrors"] as? Int == 800)

        let zero = try await CLI.offThePool { try CLI.run(arguments.dropLast() + ["0"]) }
        #expect(zero.status == 2)
        #expect(zero.err.contains("--max-errors takes a positive number"))
    }
}
