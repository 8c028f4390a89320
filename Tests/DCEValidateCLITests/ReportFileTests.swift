import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Report files on a bad day: a full disk, a file size limit, a read-only folder, a run killed halfway. A report
/// file is complete or it is the previous one; a device is written in place; a write error is exit status 2.
@Suite(.serialized) struct ReportFileTests {
    private static let previous = Data("<previous report/>\n".utf8)

    /// The names in a folder, sorted.
    private func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func aRunKilledHalfwayLeavesThePreviousReportAndNoTemporaryFile() async throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("junit.xml")
        try Self.previous.write(to: report)
        let running = try RunningCLI([
            "-", "--ndjson", "--schema", "card-create", "--format", "junit", "--output", report.path, "--format",
            "text",
        ])
        let line = #"{"programName": "P", "currency": "EURO"}"# + "\n"
        // The text report shows that the run has read the lines; the JUnit report is being written meanwhile, to
        // a temporary file beside the previous one.
        _ = try await CLI.offThePool {
            try running.write(Data(String(repeating: line, count: 2_000).utf8))
            return running.waitForOutput(seconds: 10) { $0.contains("-:2000:") }
        }
        let during = try names(in: directory)
        #expect(
            during.count == 2 && during.contains { $0.hasPrefix(".junit.xml.") && $0.hasSuffix(".tmp") }, "\(during)")
        running.process.terminate()
        let result = try await CLI.offThePool { running.finish(seconds: 10) }
        #expect(!result.timedOut, "SIGTERM did not end the run")
        #expect(running.process.terminationReason == .uncaughtSignal && result.status == SIGTERM)
        #expect(try Data(contentsOf: report) == Self.previous)
        #expect(try names(in: directory) == ["junit.xml"])
    }

    /// `/dev/full` is a device, written in place, where every write fails with ENOSPC.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskIsExitStatusTwoWithTheFileAndTheReason() async throws {
        let file = try await CLI.offThePool {
            try CLI.run([
                "Examples/card-create", "--schema", "card-create", "--format", "junit", "--output", "/dev/full",
            ])
        }
        #expect(file.status == 2)
        #expect(
            file.err.contains(
                "dce-validate: error: cannot write the junit report to '/dev/full': No space left on device"),
            "\(file.err)")
        let standardOutput = try await CLI.offThePool {
            try CLI.run(
                [
                    "-c", #"exec "$0" "$@" >/dev/full"#, CLI.binary.path, "Examples/card-create", "--schema",
                    "card-create",
                ],
                executable: "/bin/sh")
        }
        #expect(standardOutput.status == 2)
        #expect(
            standardOutput.err.contains("cannot write the text report to standard output: No space left on device"),
            "\(standardOutput.err)")
    }

    /// A file size limit makes the report's writes fail halfway (EFBIG): the previous report is still there and
    /// no temporary file is left.
    @Test(.disabled(if: CLI.underSanitizer, "a file size limit kills the sanitizer's runtime (SIGBUS), not the tool"))
    func aWriteErrorHalfwayLeavesThePreviousReport() async throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        try Self.previous.write(to: report)
        let result = try await CLI.offThePool {
            try CLI.run(
                [
                    "-c", #"ulimit -f 2 && exec "$0" "$@""#, CLI.binary.path, "Examples/card-create", "--schema",
                    "card-create", "--format",
                    "json", "--output", report.path,
                ],
                executable: "/bin/sh")
        }
        #expect(result.status == 2)
        #expect(
            result.err.contains("cannot write the json report to '\(report.path)': File too large"), "\(result.err)")
        #expect(try Data(contentsOf: report) == Self.previous)
        #expect(try names(in: directory) == ["report.json"])
    }

    /// A report cannot be replaced whole in a folder the user may not write, so it is not written at all. Run as
    /// root, the tool runs as `nobody` (root may write anywhere).
    @Test(.enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aReportInAReadOnlyFolderIsRefusedClearly() async throws {
        let directory = try CLI.scratchDirectory()
        defer {
            chmod(directory.path, 0o755)
            try? FileManager.default.removeItem(at: directory)
        }
        let report = directory.appendingPathComponent("report.json")
        try Self.previous.write(to: report)
        chmod(report.path, 0o666)
        chmod(directory.path, 0o555)
        let payload = CLI.repository.appendingPathComponent("Examples/card-create/valid-eu-virtual.json").path
        let arguments = [payload, "--schema", "card-create", "--format", "json", "--output", report.path]
        let result = try await CLI.offThePool {
            geteuid() == 0
                ? try CLI.run(
                    ["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary.path] + arguments, in: directory,
                    executable: "/usr/bin/setpriv")
                : try CLI.run(arguments)
        }
        #expect(result.status == 2)
        #expect(
            result.err.contains("cannot write the json report to '\(report.path)': Permission denied"), "\(result.err)")
        #expect(try Data(contentsOf: report) == Self.previous)
        #expect(try names(in: directory) == ["report.json"])
    }

    /// A report replaces the file a symbolic link points at (the link stays a link) and keeps that file's mode.
    @Test func aLinkedReportStaysALinkAndAReplacedReportKeepsItsMode() async throws {
        let directory = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        let reports = directory.appendingPathComponent("reports")
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: reports, withIntermediateDirectories: true)
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent("target.json")
        try Self.previous.write(to: target)
        chmod(target.path, 0o640)
        let link = reports.appendingPathComponent("link.json")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: "../elsewhere/target.json")
        let dangling = reports.appendingPathComponent("dangling.json")
        try manager.createSymbolicLink(atPath: dangling.path, withDestinationPath: "../elsewhere/new.json")
        let result = try await CLI.offThePool {
            try CLI.run([
                "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--format", "json", "--output",
                link.path,
                "--format", "sarif", "--output", dangling.path,
            ])
        }
        #expect(result.status == 0, "\(result.err)")
        #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == "../elsewhere/target.json")
        #expect(try manager.destinationOfSymbolicLink(atPath: dangling.path) == "../elsewhere/new.json")
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: target)) is [String: Any])
        #expect(
            try JSONSerialization.jsonObject(with: Data(contentsOf: elsewhere.appendingPathComponent("new.json")))
                is [String: Any])
        var status = stat()
        #expect(stat(target.path, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        #expect(try names(in: reports) == ["dangling.json", "link.json"])
        #expect(try names(in: elsewhere) == ["new.json", "target.json"])
    }

    /// Devices are written in place: `/dev/null` stays a device even when the tool runs as root.
    @Test func aDeviceIsWrittenInPlace() async throws {
        let result = try await CLI.offThePool {
            try CLI.run([
                "Examples/card-create", "--schema", "card-create", "--format", "sarif", "--output", "/dev/null",
            ])
        }
        #expect(result.status == 1)
        #expect(result.err.isEmpty)
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }
}
