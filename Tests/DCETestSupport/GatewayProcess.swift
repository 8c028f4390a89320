public import Foundation

/// A `dce-gateway` process for tests that need a real one (several instances, a kill, the command-line tools
/// against it), on a free loopback port. Its output goes to a file: Foundation's `Process` waits for every
/// descriptor it handed the child to be closed, and a pipe nobody drains would stall the gateway's access log.
///
/// `@unchecked Sendable`: `url` is written once, before the initializer returns.
public final class GatewayProcess: @unchecked Sendable {
    /// The running process.
    public let process = Process()
    /// The directory of its keys (`--keys`).
    public let keys: URL
    /// Where it listens, once it does.
    public private(set) var url = URL(fileURLWithPath: "/")
    private let log: URL

    /// The key clients pin: `signing.pub`, as the gateway writes it.
    public var signingKey: URL { keys.appendingPathComponent("signing.pub") }

    /// Everything it wrote, standard output and standard error.
    public var output: String { String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self) }

    /// Starts `dce-gateway --port 0 --keys KEYS` (with `--no-auth` unless `arguments` has `--api-keys` or `--jwks`)
    /// with `arguments`, its output in a file of `directory`, and (unless told not to) waits until it listens.
    ///
    /// - Throws: When it cannot start, or exits or does not listen within 60 s.
    public init(keys: URL, in directory: URL, arguments: [String] = [], waitUntilListening: Bool = true) throws {
        self.keys = keys
        log = directory.appendingPathComponent("gateway-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.executableURL = Self.executable("dce-gateway")
        // Without authentication unless the test turns API keys or JWTs on.
        let callers = arguments.contains("--api-keys") || arguments.contains("--jwks") ? [] : ["--no-auth"]
        // No drain before stopping unless the test asks for one: a stop is then as quick as before there was one.
        let drain = arguments.contains("--drain-seconds") ? [] : ["--drain-seconds", "0"]
        process.arguments = ["--port", "0", "--keys", keys.path] + callers + drain + arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        if waitUntilListening { try waitForListening() }
    }

    deinit { stop() }

    private func waitForListening() throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while true {
            let text = output
            if let range = text.range(of: #"listening on (https?://127\.0\.0\.1:\d+)"#, options: .regularExpression),
                let found = URL(string: String(text[range].dropFirst("listening on ".count)))
            {
                url = found
                return
            }
            guard process.isRunning, Date() < deadline else {
                stop()
                throw Failure("dce-gateway did not start: \(text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// SIGTERM, a graceful shutdown, and waits for it: at most `seconds`, then SIGKILL.
    ///
    /// - Returns: Whether it ended by itself within the time (when not, its `terminationStatus` is SIGKILL's).
    @discardableResult
    public func stop(within seconds: TimeInterval = 60) -> Bool {
        if process.isRunning { process.terminate() }
        return process.waitForExit(within: seconds)
    }

    /// SIGKILL: no chance to finish anything.
    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitForExit(within: 60)
    }

    /// A product of the package, from the build products directory the test bundle sits in (or `.build/debug`).
    public static func executable(_ name: String) -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/\(name)")
    }

    /// The package's root.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Why a gateway could not be used.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(_ description: String) { self.description = description }
    }
}

extension Process {
    /// Waits for the process to exit, at most `seconds`, then sends SIGKILL and waits for that: a child that hangs
    /// fails its test instead of stopping the whole run. Polls `isRunning` rather than blocking in `waitUntilExit()`,
    /// which spins the calling thread's run loop and has hung on Linux when called from a task's thread.
    ///
    /// - Returns: Whether it exited by itself within the time.
    @discardableResult
    public func waitForExit(within seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while isRunning, Date() < deadline { usleep(20_000) }
        guard isRunning else { return true }
        kill(processIdentifier, SIGKILL)
        let killed = Date(timeIntervalSinceNow: 10)
        while isRunning, Date() < killed { usleep(20_000) }
        return false
    }
}
