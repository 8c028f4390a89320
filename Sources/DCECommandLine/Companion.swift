package import ArgumentParser
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tools `dce-validate` hands work to, installed beside it, so that validating never loads what they need:
/// `dce-send` (FoundationNetworking and libcurl for HTTP, swift-crypto for sealing) and `dce-preview` (an HTTP
/// server).
package enum Companion: String, Sendable {
    case send = "dce-send"
    case preview = "dce-preview"

    /// What it does, for the note while it is built and for the error when it is missing.
    private var purpose: String {
        switch self {
        case .send: "it seals and sends"
        case .preview: "it serves the form preview"
        }
    }

    /// Its path beside this executable (symbolic links resolved).
    package var besideThisExecutable: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(rawValue)
    }

    /// Its path, beside this executable. When it is not there yet and this executable is a SwiftPM build's
    /// (`<package>/.build…/<triple>/<debug|release>/dce-validate`), it is built first, in the same folder and
    /// configuration, with SwiftPM's progress on standard error: the first use in a checkout builds it, once.
    package func executable() throws -> String {
        let executable = besideThisExecutable
        guard !FileManager.default.isExecutableFile(atPath: executable.path) else { return executable.path }
        let products = executable.deletingLastPathComponent()
        let configuration = products.lastPathComponent
        let scratch = products.deletingLastPathComponent().deletingLastPathComponent()
        let package = scratch.deletingLastPathComponent()
        guard ["debug", "release"].contains(configuration), scratch.lastPathComponent.hasPrefix(".build"),
            FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path)
        else { return executable.path }  // installed without it: running it says what is missing
        Diagnostics.note("building \(rawValue) (\(configuration)) beside dce-validate, once: \(purpose)")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments =
            ["swift", "build", "-c", configuration, "--product", rawValue, "--package-path", package.path]
            + ["--scratch-path", scratch.path] + Self.buildFlags(configuration)
        build.standardOutput = FileHandle.standardError
        do {
            try build.run()
        } catch {
            Diagnostics.error("cannot build \(rawValue): cannot run swift: \(error.localizedDescription)")
            throw ExitStatus.failure
        }
        build.waitUntilExit()
        guard build.terminationStatus == 0 else {
            Diagnostics.error(
                "\(rawValue) could not be built (above: SwiftPM's output); build it with: swift build -c \(configuration) "
                    + "--product \(rawValue) --package-path \(package.path)"
                    + Self.buildFlags(configuration).map { " " + $0 }.joined())
            throw ExitStatus.failure
        }
        return executable.path
    }

    /// The flags of a build beyond its configuration, as scripts/release-flags.sh gives them to the scripts that build
    /// in release: on Linux, a release build links the Swift runtime and Foundation into each executable, so that the
    /// companion builds into the same folder without relinking what is there.
    static func buildFlags(_ configuration: String) -> [String] {
        #if os(Linux)
            configuration == "release" ? ["--static-swift-stdlib"] : []
        #else
            []
        #endif
    }

    /// Replaces this process with the companion and `arguments`; throws (after a diagnostic) only when it cannot.
    ///
    /// - Parameter commandName: How its `--help` and diagnostics name the command (`dce-validate send`).
    package func handOver(_ arguments: [String], as commandName: String) throws -> Never {
        let executable = try executable()
        var argv = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        setenv(Diagnostics.commandNameVariable, commandName, 1)
        _ = execv(executable, argv)
        throw cannotRun(executable, errno)
    }

    /// Says why the companion cannot be run (and where it belongs when it is missing); exit status 2.
    package func cannotRun(_ executable: String, _ failure: Int32) -> ExitCode {
        let build = (["swift", "build", "-c", "release", "--product", rawValue] + Self.buildFlags("release"))
            .joined(separator: " ")
        Diagnostics.error(
            "cannot run \(executable): \(Descriptor.reason(failure))"
                + (failure == ENOENT
                    ? " (\(rawValue) belongs beside dce-validate: scripts/install installs both, and "
                        + "\(build) builds it beside a release build)" : ""))
        return ExitStatus.failure
    }
}
