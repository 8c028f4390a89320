import DCEEngine
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Payload arguments that would hang or confuse the tool: link loops, FIFOs, devices, endless lines on an open
/// pipe, files that cannot be read. Each gets a verdict within seconds, and every report lists it.
@Suite(.serialized) struct HostileInputTests {
    private static let valid = #"{"programName": "P", "currency": "EUR"}"#

    private func payloads(_ data: Data) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return report["payloads"] as? [[String: Any]] ?? []
    }

    /// `l` holds two links to itself, a folder `b`, a link `c` to that folder and a link `d.json` to its file: the
    /// walk and `**` see each folder once and each file once, under the first of its paths in sorted order.
    @Test func globsAndDirectoriesVisitEachFolderAndFileOnceThroughLinkLoops() async throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let folder = root.appendingPathComponent("l")
        try manager.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        try Data(Self.valid.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data(Self.valid.utf8).write(to: folder.appendingPathComponent("b/p.json"))
        for (name, destination) in [("x", "."), ("y", "."), ("c", "b"), ("d.json", "b/p.json")] {
            try manager.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path, withDestinationPath: destination)
        }
        for argument in ["l/**/*.json", "l", "l/"] {
            let result = try await CLI.offThePool {
                try CLI.run([argument, "--schema", "card-create", "--format", "json"], in: root, timeout: 20)
            }
            #expect(!result.timedOut, "'\(argument)' did not finish")
            #expect(result.status == 0, "\(argument): \(result.err)")
            let files = try payloads(result.stdout).compactMap { $0["file"] as? String }
            #expect(files == ["l/a.json", "l/b/p.json"], "\(argument)")
        }
    }

    /// Opening a FIFO without a writer blocks, and a device never ends: neither is read, whatever the mode.
    @Test func payloadsThatAreNotRegularFilesAreRefusedWithoutWaiting() async throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("fifo.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var cases = [
            ([fifo], "\(fifo): cannot read the payload: it is a FIFO"),
            ([fifo, "--ndjson"], "\(fifo): cannot read the payload: it is a FIFO"),
        ]
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            cases.append((["/dev/zero", "--ndjson"], "/dev/zero: cannot read the payload: it is a character device"))
            cases.append((["/dev/zero"], "/dev/zero: cannot read the payload: it is a character device"))
        }
        for (arguments, message) in cases {
            let result = try await CLI.offThePool { try CLI.run(arguments + ["--schema", "card-create"], timeout: 20) }
            #expect(!result.timedOut, "\(arguments) did not finish")
            #expect(result.status == 2)
            #expect(result.err.contains(message), "\(result.err)")
        }
    }

    /// A writer that keeps the pipe open after an oversized line: the line's verdict is printed while the tool
    /// waits for the rest, and the lines after it are still checked.
    @Test(arguments: ["1", "2"]) func anOversizedLineOnAnOpenPipeIsReportedAtOnce(jobs: String) async throws {
        let running = try RunningCLI(["-", "--ndjson", "--schema", "card-create", "--jobs", jobs])
        let reported = try await CLI.offThePool {
            try running.write(Data(repeating: UInt8(ascii: "x"), count: JSONLimits.default.maxDocumentBytes + 1))
            return running.waitForOutput(seconds: 10) { $0.contains("-:1:") && $0.contains("[tooLarge]\n") }
        }
        #expect(reported, "nothing printed for line 1 while the pipe stayed open: '\(running.out)'")
        let result = try await CLI.offThePool {
            try running.write(Data("y\n\(Self.valid)\n".utf8))
            try running.closeInput()
            return running.finish()
        }
        #expect(result.status == 1)
        #expect(result.out.components(separatedBy: "[tooLarge]").count == 2)
        #expect(
            result.out.hasSuffix("invalid: 2 payloads checked against card-create, 1 valid, 1 invalid, 1 error\n"),
            "\(result.out)")
    }

    /// Every kind of input that cannot be read is a failed entry, with rule `unreadable`, in every report format,
    /// and the run still exits 2.
    @Test func aPayloadThatCannotBeReadIsAFailedEntryInEveryReport() async throws {
        let root = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("fifo.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let missing = root.appendingPathComponent("missing.json").path
        let pattern = root.appendingPathComponent("none/*.json").path
        let reports = ["json", "junit", "sarif", "github"].map {
            (format: $0, file: root.appendingPathComponent("report.\($0)"))
        }
        let arguments =
            [
                "Examples/card-create/valid-eu-virtual.json", missing, fifo, pattern, "--schema", "card-create",
                "--format", "text",
            ]
            + reports.flatMap { ["--format", $0.format, "--output", $0.file.path] }
        let result = try await CLI.offThePool { try CLI.run(arguments, timeout: 20) }
        #expect(result.status == 2)
        let reasons = [(missing, "no such file"), (fifo, "it is a FIFO"), (pattern, "no files match this pattern")]
        for (file, reason) in reasons {
            #expect(
                result.out.contains("\(file): error: cannot read the payload: \(reason) [unreadable]\n"),
                "\(result.out)")
            #expect(result.err.contains(file))
        }
        #expect(
            result.out.hasSuffix("invalid: 4 payloads checked against card-create, 1 valid, 3 invalid, 3 errors\n"),
            "\(result.out)")

        let json = try Data(contentsOf: reports[0].file)
        #expect((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["valid"] as? Bool == false)
        let entries = try payloads(json)
        #expect(
            entries.map { $0["file"] as? String } == [
                "Examples/card-create/valid-eu-virtual.json", missing, fifo, pattern,
            ])
        #expect(entries.map { $0["valid"] as? Bool } == [true, false, false, false])
        for (entry, (_, reason)) in zip(entries.dropFirst(), reasons) {
            let errors = entry["errors"] as? [[String: Any]] ?? []
            #expect(errors.count == 1)
            #expect(errors.first?["rule"] as? String == "unreadable")
            #expect(errors.first?["message"] as? String == "cannot read the payload: \(reason)")
        }

        let junitCheck = try await CLI.offThePool { try CLI.checkReports("junit", [reports[1].file]) }
        #expect(junitCheck.status == 0, "\(junitCheck.err)")
        let xml = try String(contentsOf: reports[1].file, encoding: .utf8)
        #expect(xml.components(separatedBy: #"type="unreadable""#).count - 1 == 3)
        let sarifCheck = try await CLI.offThePool { try CLI.checkReports("sarif", [reports[2].file]) }
        #expect(sarifCheck.status == 0, "\(sarifCheck.err)")
        let sarif = try String(contentsOf: reports[2].file, encoding: .utf8)
        #expect(sarif.components(separatedBy: #""ruleId":"unreadable""#).count - 1 == 3)
        let github = try String(contentsOf: reports[3].file, encoding: .utf8)
        #expect(
            github.components(separatedBy: "title=dce-validate unreadable::cannot read the payload: ").count - 1 == 3)

        let stream = try await CLI.offThePool {
            try CLI.run([fifo, "--ndjson", "--schema", "card-create", "--format", "json"], timeout: 20)
        }
        #expect(stream.status == 2)
        #expect(
            try payloads(stream.stdout).map { ($0["errors"] as? [[String: Any]])?.first?["rule"] as? String } == [
                "unreadable"
            ])
    }
}
