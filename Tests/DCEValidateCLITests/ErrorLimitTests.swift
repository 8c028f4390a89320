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

    @Test func aMillionErrorsGiveSmallReportsInFlatMemory() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try Self.wrongTypes(1_000_000, in: directory)
        for format in ["text", "json", "junit", "sarif", "github"] {
            let report = directory.appendingPathComponent("report.\(format)")
            let run = try CLI.runMeasuringMemory([payload.path, "--schema", "card-list-query", "--format", format], stdout: report)
            #expect(run.status == 1, "\(format)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: report.path)[.size] as? Int)
            #expect(size < 256 << 10, "\(format): the report has \(size) bytes")
            #expect(try String(contentsOf: report, encoding: .utf8).contains("999800"), "\(format): the omitted count is not stated")
            // Before the limit, 1,000,000 kept violations took about 400 MB.
            #expect(run.maxResidentBytes < 300 << 20, "\(format): \(run.maxResidentBytes >> 20) MB at peak")
            if (format == "junit" || format == "sarif") && size < 256 << 10 {
                let check = try CLI.checkReports(format, [report])
                #expect(check.status == 0, "\(check.err)")
            }
        }
    }

    @Test func maxErrorsSetsTheLimitAndEveryFormatStatesWhatItLeftOut() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try Self.wrongTypes(1_000, in: directory)
        let arguments = [payload.path, "--schema", "card-list-query", "--max-errors", "3"]

        let text = try CLI.run(arguments)
        #expect(text.status == 1)
        #expect(text.out.components(separatedBy: "[type]\n").count - 1 == 3)
        #expect(text.out.contains("\(payload.path): note: 997 more errors not shown (--max-errors 3)\n"), "\(text.out)")
        #expect(text.out.hasSuffix("invalid: 1 payload checked against card-list-query, 0 valid, 1 invalid, 3 errors, 997 more not shown\n"))

        let json = try CLI.run(arguments + ["--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let entry = try #require((object["payloads"] as? [[String: Any]])?.first)
        #expect((entry["errors"] as? [Any])?.count == 3)
        #expect(entry["omittedErrors"] as? Int == 997)

        let junit = directory.appendingPathComponent("junit.xml")
        let sarif = directory.appendingPathComponent("results.sarif")
        let machine = try CLI.run(arguments + ["--format", "junit", "--output", junit.path, "--format", "sarif", "--output", sarif.path, "--format", "github"])
        #expect(machine.status == 1)
        #expect(try CLI.checkReports("junit", [junit]).status == 0)
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<system-out>997 more errors not shown (--max-errors 3)</system-out>"))
        #expect(try CLI.checkReports("sarif", [sarif]).status == 0)
        let results = try #require(
            ((try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"]
                as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["error", "error", "error", "note"])
        #expect((results.last?["message"] as? [String: Any])?["text"] as? String == "997 more errors not shown (--max-errors 3)")
        #expect(machine.out.contains("::notice file=\(payload.path),title=dce-validate::997 more errors not shown (--max-errors 3)\n"), "\(machine.out)")

        let unlimited = try CLI.run(arguments.dropLast(2) + ["--format", "json"])
        let all = try #require((try JSONSerialization.jsonObject(with: unlimited.stdout) as? [String: Any])?["payloads"] as? [[String: Any]])
        #expect((all.first?["errors"] as? [Any])?.count == 200)
        #expect(all.first?["omittedErrors"] as? Int == 800)

        let zero = try CLI.run(arguments.dropLast() + ["0"])
        #expect(zero.status == 2)
        #expect(zero.err.contains("--max-errors takes a positive number"))
    }
}
