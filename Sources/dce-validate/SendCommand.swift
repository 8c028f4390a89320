import ArgumentParser
import DCECommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `dce-validate send`: the process becomes `dce-send`, installed beside `dce-validate`, so that validating never
/// loads what sending needs (FoundationNetworking and libcurl for HTTP, swift-crypto for sealing).
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract:
            "Validate a payload, seal its PCI fields to the gateway's key, and send the envelope (runs dce-send).",
        discussion: """
            Every argument goes to dce-send, installed beside dce-validate: 'dce-validate send --help' lists its \
            options. Exit status: 0 accepted, 1 invalid here or rejected by the gateway, 2 usage or unreadable input \
            (or dce-send missing), 3 the gateway could not be reached or answered something invalid.
            """)

    @Argument(parsing: .captureForPassthrough, help: "The arguments of dce-send.")
    var arguments: [String] = []

    func run() throws {
        try Self.handOver(arguments)
    }

    /// `dce-send`, beside this executable (symbolic links resolved).
    static var executable: String {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dce-send").path
    }

    /// Replaces this process with `dce-send` and `arguments`; throws (after a diagnostic) only when it cannot.
    static func handOver(_ arguments: [String]) throws -> Never {
        let executable = Self.executable
        var argv = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        _ = execv(executable, argv)
        throw cannotRun(executable, errno)
    }

    /// Says why `dce-send` cannot be run (and how to build it when it is missing); exit status 2.
    static func cannotRun(_ executable: String, _ failure: Int32) -> ExitCode {
        Diagnostics.error(
            "cannot run \(executable): \(Descriptor.reason(failure))"
                + (failure == ENOENT ? " (dce-send is built beside dce-validate: swift build --product dce-send)" : ""))
        return ExitStatus.failure
    }
}
