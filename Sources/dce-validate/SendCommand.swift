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
    static var besideThisExecutable: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("dce-send")
    }

    /// `dce-send`'s path, beside this executable. When it is not there yet and this executable is a SwiftPM build's
    /// (`<package>/.build…/<triple>/<debug|release>/dce-validate`), it is built first, in the same folder and
    /// configuration, with SwiftPM's progress on standard error: the first `send` or `--catalogue` of a checkout
    /// builds it, once.
    static func executable() throws -> String {
        let executable = besideThisExecutable
        guard !FileManager.default.isExecutableFile(atPath: executable.path) else { return executable.path }
        let products = executable.deletingLastPathComponent()
        let configuration = products.lastPathComponent
        let scratch = products.deletingLastPathComponent().deletingLastPathComponent()
        let package = scratch.deletingLastPathComponent()
        guard ["debug", "release"].contains(configuration), scratch.lastPathComponent.hasPrefix(".build"),
            FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path)
        else { return executable.path }  // installed without it: running it says what is missing
        Diagnostics.note("building dce-send (\(configuration)) beside dce-validate, once: it seals and sends")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = [
            "swift", "build", "-c", configuration, "--product", "dce-send", "--package-path", package.path,
            "--scratch-path", scratch.path,
        ]
        build.standardOutput = FileHandle.standardError
        do {
            try build.run()
        } catch {
            Diagnostics.error("cannot build dce-send: cannot run swift: \(error.localizedDescription)")
            throw ExitStatus.failure
        }
        build.waitUntilExit()
        guard build.terminationStatus == 0 else {
            Diagnostics.error(
                "dce-send could not be built (above: SwiftPM's output); build it with: swift build -c \(configuration) "
                    + "--product dce-send --package-path \(package.path)")
            throw ExitStatus.failure
        }
        return executable.path
    }

    /// Replaces this process with `dce-send` and `arguments`; throws (after a diagnostic) only when it cannot.
    static func handOver(_ arguments: [String]) throws -> Never {
        let executable = try Self.executable()
        var argv = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        // `dce-send --help` then names the command as the user typed it.
        setenv(Diagnostics.commandNameVariable, "dce-validate send", 1)
        _ = execv(executable, argv)
        throw cannotRun(executable, errno)
    }

    /// Says why `dce-send` cannot be run (and where it belongs when it is missing); exit status 2.
    static func cannotRun(_ executable: String, _ failure: Int32) -> ExitCode {
        Diagnostics.error(
            "cannot run \(executable): \(Descriptor.reason(failure))"
                + (failure == ENOENT
                    ? " (dce-send belongs beside dce-validate: scripts/install installs both, and "
                        + "swift build -c release --product dce-send builds it beside a release build)" : ""))
        return ExitStatus.failure
    }
}
