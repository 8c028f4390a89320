import Foundation
import Testing

/// Batches (directories, globs, NDJSON), several reports in one run, and every report format checked against
/// its published schema with an off-the-shelf validator.
@Suite(.serialized) struct BatchAndFormatsTests {
    private func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    private func payloads(_ report: [String: Any]) -> [[String: Any]] { report["payloads"] as? [[String: Any]] ?? [] }

    @Test func aDirectoryIsReadRecursivelyInSortedOrder() throws {
        let result = try CLI.run(["Examples/card-create", "--schema", "card-create", "--format", "json"])
        #expect(result.status == 1)
        let files = payloads(try json(result)).compactMap { $0["file"] as? String }
        let expected = try FileManager.default.contentsOfDirectory(
            atPath: CLI.repository.appendingPathComponent("Examples/card-create").path
        )
        .filter { $0.hasSuffix(".json") }.sorted().map { "Examples/card-create/\($0)" }
        #expect(files == expected)
        #expect(files.count == 14)
    }

    @Test func quotedGlobsAreExpanded() throws {
        let valid = try CLI.run(["Examples/card-create/valid-*.json", "--schema", "card-create", "--format", "json"])
        #expect(valid.status == 0)
        #expect(payloads(try json(valid)).count == 4)
        let recursive = try CLI.run([
            "Examples/**/valid-google-pay-*.json", "--schema", "card-tokenize", "--context", "scheme=VISA",
        ])
        #expect(recursive.status == 0)
        #expect(recursive.out.contains("1 payload checked"))
        let none = try CLI.run(["Examples/*.nothing", "--schema", "card-create"])
        #expect(none.status == 2)
        #expect(none.err.contains("no files match this pattern"))
    }

    @Test func ndjsonRecordsAreReportedByLineNumber() throws {
        let stream = Data(
            """
            {"programName": "P", "currency": "EUR"}

            {"programName": "P", "currency": "EURO"}\r
            {"programName": 1,
            {"programName": "P", "currency": "EUR", "cardPin": "12"}
            """.utf8)
        let result = try CLI.run(["-", "--ndjson", "--schema", "card-create", "--format", "json"], stdin: stream)
        #expect(result.status == 1)
        let records = payloads(try json(result))
        #expect(records.map { $0["line"] as? Int } == [1, 3, 4, 5])
        #expect(records.map { $0["valid"] as? Bool } == [true, false, false, false])
        let errors = records.map { ($0["errors"] as? [[String: Any]]) ?? [] }
        #expect(errors[1].first?["line"] as? Int == 3 && errors[1].first?["column"] as? Int == 34)
        #expect(errors[2].first?["rule"] as? String == "json" && errors[2].first?["line"] as? Int == 4)
        #expect(errors[3].first?["rule"] as? String == "regex" && errors[3].first?["column"] as? Int == 52)
        let text = try CLI.run(["-", "--ndjson", "--schema", "card-create"], stdin: stream)
        #expect(text.out.contains("-:3:34: error: /currency: Currency must be an ISO 4217 currency code [format]"))
    }

    @Test func largeNDJSONFilesStreamWithEveryVerdictInOrder() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("batch.ndjson")
        var lines: [String] = []
        for index in 0..<20_000 {
            lines.append(
                index % 7 == 0
                    ? #"{"programName": "P", "currency": "XX\#(index)"}"#
                    : #"{"programName": "P\#(index)", "currency": "EUR"}"#)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        let result = try CLI.run([file.path, "--ndjson", "--schema", "card-create", "--format", "json"])
        #expect(result.status == 1)
        let records = payloads(try json(result))
        #expect(records.count == 20_000)
        #expect(records.enumerated().allSatisfy { $0.element["line"] as? Int == $0.offset + 1 })
        #expect(records.filter { $0["valid"] as? Bool == false }.count == (0..<20_000).filter { $0 % 7 == 0 }.count)
        #expect(!result.err.contains("\r"))  // no progress display in a pipe
    }

    @Test func oneJobAndAllJobsWriteTheSameReports() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mixed.ndjson")
        let lines = (0..<5_000).map { index in
            index % 3 == 0
                ? #"{"programName": "P", "currency": "EURO", "mobile": "1"}"#
                : #"{"programName": "P\#(index)", "currency": "EUR"}"#
        }
        try Data((lines.joined(separator: "\n") + "\n\n").utf8).write(to: file)
        var outputs: [String] = []
        for jobs in ["1", "2", "7"] {
            for format in ["text", "json", "junit", "sarif", "github"] {
                let result = try CLI.run([
                    file.path, "--ndjson", "--schema", "card-create", "--format", format, "--jobs", jobs,
                ])
                #expect(result.status == 1)
                outputs.append(
                    format + ":"
                        + result.out.replacingOccurrences(
                            of: #"timestamp="[^"]*""#, with: "", options: .regularExpression))
            }
        }
        #expect(outputs[0..<5] == outputs[5..<10] && outputs[5..<10] == outputs[10..<15])
    }

    /// Many more work items than the workers hold at once (a file is one item; three workers hold 48): the
    /// reports still come out in input order, the same as with one job.
    @Test func manyFilesComeOutInInputOrderWithAnyNumberOfJobs() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<300 {
            let payload =
                index % 4 == 0
                ? #"{"programName": "P", "currency": "EURO"}"# : #"{"programName": "P\#(index)", "currency": "EUR"}"#
            try Data(payload.utf8).write(to: directory.appendingPathComponent(String(format: "p%03d.json", index)))
        }
        var outputs: [String] = []
        for jobs in ["1", "3"] {
            let result = try CLI.run([directory.path, "--schema", "card-create", "--format", "json", "--jobs", jobs])
            #expect(result.status == 1)
            let records = payloads(try json(result))
            #expect(records.count == 300)
            #expect(
                records.map { ($0["file"] as? String)?.suffix(8) }
                    == (0..<300).map { String(format: "p%03d.json", $0).suffix(8) })
            #expect(records.map { $0["valid"] as? Bool } == (0..<300).map { $0 % 4 != 0 })
            outputs.append(result.out)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func anOversizedNDJSONLineIsReportedAndTheNextLinesStillChecked() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("oversized.ndjson")
        var bytes = Data("{\"programName\": \"".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 17 << 20))
        bytes.append(Data("\"}\n{\"programName\": \"P\", \"currency\": \"EUR\"}\n".utf8))
        try bytes.write(to: file)
        let result = try CLI.run([file.path, "--ndjson", "--schema", "card-create", "--format", "json"])
        #expect(result.status == 1)
        let records = payloads(try json(result))
        #expect(records.map { $0["line"] as? Int } == [1, 2])
        #expect(records.map { $0["valid"] as? Bool } == [false, true])
        #expect(
            ((records[0]["errors"] as? [[String: Any]])?.first?["message"] as? String)?.contains("limit is 16777216")
                == true)
    }

    /// Reports and exports are written into the file named, as a shell's `>` does: a symbolic link keeps pointing
    /// at its file (and, run as root, `--output /dev/null` leaves the device a device).
    @Test func anOutputThroughASymbolicLinkWritesTheLinkedFile() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        for (index, arguments) in [
            ["Examples/card-create", "--schema", "card-create", "--format", "json", "--output"],
            ["export", "--schema", "card-create", "--to", "json-schema", "--output"],
        ].enumerated() {
            let target = directory.appendingPathComponent("target-\(index).json")
            let link = directory.appendingPathComponent("link-\(index).json")
            try Data("stale".utf8).write(to: target)
            try manager.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
            let result = try CLI.run(arguments + [link.path])
            #expect(result.err.isEmpty, "\(result.err)")
            #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: target)) is [String: Any])
        }
        let unwritable = try CLI.run([
            "Examples/card-create", "--schema", "card-create", "--format", "json", "--output",
            directory.appendingPathComponent("no/such/dir.json").path,
        ])
        #expect(unwritable.status == 2)
        #expect(
            unwritable.err.contains(
                "cannot write the json report to '\(directory.path)/no/such/dir.json': No such file or directory"))
    }

    @Test func severalReportsInOneRunAndEachValidatesAgainstItsSchema() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml")
        let sarif = directory.appendingPathComponent("results.sarif")
        let jsonReport = directory.appendingPathComponent("report.json")
        let result = try CLI.run([
            "Examples/card-create", "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create",
            "--format", "text", "--format", "junit", "--output", junit.path, "--output", sarif.path, "--format",
            "sarif",
            "--format=json", "--output=\(jsonReport.path)",
        ])
        #expect(result.status == 1, "\(result.err)")
        #expect(
            result.out.hasSuffix("invalid: 15 payloads checked against card-create, 5 valid, 10 invalid, 10 errors\n"))
        #expect(!result.out.contains("\u{1B}["))  // no colour outside a terminal

        let junitCheck = try CLI.checkReports("junit", [junit])
        #expect(junitCheck.status == 0, "\(junitCheck.err)")
        let sarifCheck = try CLI.checkReports("sarif", [sarif])
        #expect(sarifCheck.status == 0, "\(sarifCheck.err)")

        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testsuite ").count - 1 == 15)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 10)
        #expect(
            xml.contains(
                #"<testcase name="/currency format" classname="Examples/card-create/invalid-format-currency.json" time="0"><failure message="Currency must be an ISO 4217 currency code" type="format">Examples/card-create/invalid-format-currency.json:3:15:"#
            ))

        let log = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        #expect(
            Set(rules.compactMap { $0["id"] as? String }).isSuperset(of: ["required", "format", "json", "duplicateKey"])
        )
        let results = run["results"] as? [[String: Any]] ?? []
        #expect(results.count == 10)
        let currency = try #require(
            results.first { $0["ruleId"] as? String == "format" && "\($0)".contains("invalid-format-currency") })
        let location = try #require((currency["locations"] as? [[String: Any]])?.first)
        let region = (location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        #expect(region?["startLine"] as? Int == 3 && region?["startColumn"] as? Int == 15)
        #expect(
            ((location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String) == "/currency"
        )
        #expect(run["columnKind"] as? String == "unicodeCodePoints")

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: jsonReport)) as? [String: Any])
        #expect(payloads(report).count == 15)
    }

    @Test func reportsForNDJSONRecordsAndTheRootPathAreSchemaValidToo() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml")
        let sarif = directory.appendingPathComponent("results.sarif")
        let stream = Data("{\"programName\": \"<&>\\\"'\", \"currency\": \"EU\"}\n[1]\n{\"a\":\n".utf8)
        // With the failing records' masked copies attached, whose text needs XML's and JSON's escapes.
        let result = try CLI.run(
            [
                "-", "--ndjson", "--schema", "card-create", "--format", "junit", "--output", junit.path,
                "--format", "sarif", "--output", sarif.path, "--attach-masked",
            ], stdin: stream)
        #expect(result.status == 1)
        #expect(try CLI.checkReports("junit", [junit]).status == 0)
        #expect(try CLI.checkReports("sarif", [sarif]).status == 0)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="-:2""#) && xml.contains(#"name="(document) type""#))
        #expect(
            xml.contains("masked payload:&#10;{&quot;programName&quot;: &quot;&lt;&amp;&gt;\\&quot;&apos;&quot;"),
            "\(xml)")
        #expect(try String(contentsOf: sarif, encoding: .utf8).contains(#""maskedPayload":"[1]""#))
    }

    @Test func theCheckersRejectABrokenReport() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("bad.xml")
        try Data(#"<testsuites name="x"><testsuite name="a"/></testsuites>"#.utf8).write(to: junit)
        #expect(try CLI.checkReports("junit", [junit]).status != 0)
        let sarif = directory.appendingPathComponent("bad.sarif")
        try Data(#"{"version": "2.1.0", "runs": [{"results": []}]}"#.utf8).write(to: sarif)
        #expect(try CLI.checkReports("sarif", [sarif]).status != 0)
    }

    @Test func githubWorkflowCommandsAreEscapedAndSummarised() throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payloadDirectory = directory.appendingPathComponent("a,b:c")
        try FileManager.default.createDirectory(at: payloadDirectory, withIntermediateDirectories: true)
        let payload = payloadDirectory.appendingPathComponent("p%.json")
        try Data(#"{"programName": "P", "currency": "EURO", "x\ny": 1}"#.utf8).write(to: payload)
        let summary = directory.appendingPathComponent("summary.md")
        try Data("# before\n".utf8).write(to: summary)
        let result = try CLI.run(
            [payload.path, "--schema", "card-create", "--format", "github"],
            environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(result.status == 1)
        let escapedFile = payload.path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(
            of: ":", with: "%3A"
        )
        .replacingOccurrences(of: ",", with: "%2C")
        #expect(
            result.out.contains(
                "::error file=\(escapedFile),line=1,col=34,title=dce-validate format::/currency: Currency must be an ISO 4217 currency code\n"
            ))
        #expect(result.out.contains("/x%0Ay: 'x%0Ay' is not a field"))
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(
            markdown.hasPrefix(
                "# before\n### dce-validate: card-create\n\n1 payload checked against card-create, 0 valid, 1 invalid, 2 errors\n"
            ), "\(markdown)")
        #expect(markdown.contains("| payload | line | path | rule | message |"))
        #expect(markdown.contains("| format | Currency must be an ISO 4217 currency code |"))
        // In the run's language, like the other reports.
        try Data().write(to: summary)
        let german = try CLI.run(
            [payload.path, "--schema", "card-create", "--format", "github", "--language", "de"],
            environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(german.status == 1)
        let deutsch = try String(contentsOf: summary, encoding: .utf8)
        #expect(deutsch.contains("1 Anfrage gegen card-create geprüft, 0 gültig, 1 ungültig, 2 Fehler\n"), "\(deutsch)")
        #expect(deutsch.contains("| Anfrage | Zeile | Pfad | Regel | Meldung |"))
        #expect(deutsch.contains("| format | Währung muss ein Währungscode nach ISO 4217 sein |"))
    }

    @Test func formatAndOutputPairingErrorsAreUsageErrors() throws {
        let twoToStdout = try CLI.run([
            "Examples/card-create", "--schema", "card-create", "--format", "text", "--format", "json",
        ])
        #expect(twoToStdout.status == 2)
        #expect(twoToStdout.err.contains("only one --format can go to standard output"))
        let orphan = try CLI.run([
            "Examples/card-create", "--schema", "card-create", "--format", "json", "--output", "/tmp/a", "--output",
            "/tmp/b",
        ])
        #expect(orphan.status == 2)
    }

    @Test func colourAndProgressAppearOnlyOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.ndjson")
        let line =
            #"{"programName": "SKRILL-PHYSICAL-MC-US", "currency": "EURO", "mobile": "+1 2", "deliveryAddress": {"address1": "a", "city": "Washington", "countryCode": "US", "state": "DC", "postalCode": "20500"}}"#
        try Data(Array(repeating: line, count: 150_000).joined(separator: "\n").utf8).write(to: file)
        let command = "\(CLI.binary.path) \(file.path) --ndjson --schema card-create --format json --output /dev/null"
        let terminal = try CLI.run(
            ["-q", "-e", "-c", command, "/dev/null"], environment: ["CI": "", "TERM": "xterm"],
            executable: "/usr/bin/script", unsetting: ["CI"])
        #expect(terminal.out.contains("payloads, ") && terminal.out.contains("/s"), "\(terminal.out.suffix(200))")
        let colour = try CLI.run(
            [
                "-q", "-e", "-c",
                "\(CLI.binary.path) Examples/card-create/invalid-format-currency.json --schema card-create",
                "/dev/null",
            ],
            environment: ["TERM": "xterm"], executable: "/usr/bin/script", unsetting: ["CI", "NO_COLOR"])
        #expect(colour.out.contains("\u{1B}[1;31merror\u{1B}[0m"))
    }
}
