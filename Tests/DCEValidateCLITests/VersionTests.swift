import DCETestSupport
import Foundation
import Testing

/// `--version` on each tool, as CI tools are asked for theirs; the version is the one the CHANGELOG's latest release
/// section or the reports name. And the one exit status every tool gives a usage error.
struct VersionTests {
    @Test(arguments: ["dce-validate", "dce-send", "dce-gateway", "dce-preview"])
    func eachToolPrintsItsVersionAndExitsZero(tool: String) throws {
        let executable = GatewayProcess.executable(tool).path
        let result = try CLI.run(["--version"], executable: executable)
        #expect(result.status == 0, "\(tool): \(result.err)")
        #expect(result.out.firstMatch(of: /^[0-9]+\.[0-9]+\.[0-9]+\n$/) != nil, "\(tool): \(result.out)")
        // The version the reports carry (SARIF's driver) is the same.
        let sarif = try CLI.run([
            "Examples/card-create/invalid-format-currency.json", "--schema", "card-create", "--format", "sarif",
        ])
        #expect(sarif.out.contains(#""name":"dce-validate","version":"\#(result.out.dropLast())""#))
    }

    @Test func sendReachedThroughDCEValidateToo() throws {
        let result = try CLI.run(["send", "--version"])
        #expect(result.status == 0 && !result.out.isEmpty, "\(result.err)")
    }

    /// A usage error is exit status 2 with the reason on standard error, from all three tools (ArgumentParser's own
    /// would be 64, which none of them documents).
    @Test(arguments: [
        ("dce-validate", ["--format", "yaml", "Examples"]), ("dce-send", ["--no-such-option"]),
        ("dce-gateway", ["--port", "eighty"]), ("dce-gateway", ["--validation-threads", "0"]),
        ("dce-preview", ["--schema", "card-create", "--port", "eighty"]),
    ])
    func aUsageErrorIsExitStatusTwo(tool: String, arguments: [String]) throws {
        let executable = GatewayProcess.executable(tool).path
        let result = try CLI.run(arguments, executable: executable)
        #expect(result.status == 2, "\(tool) \(arguments): \(result.status) \(result.err)")
        #expect(result.err.contains("Error:") || result.err.contains("error:"), "\(tool): \(result.err)")
        #expect(result.out.isEmpty, "\(tool): \(result.out)")
    }
}
