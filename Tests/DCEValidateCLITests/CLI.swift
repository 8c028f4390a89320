import DCETestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `dce-validate` binary and captures what it prints.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
        /// Whether the tool was still running at the time limit and was killed.
        var timedOut = false
        /// Everything the process wrote, as bytes, for leak searches.
        var allBytes: Data { stdout + stderr }
    }

    /// Whether these tests, and so the tool built beside them, run under ThreadSanitizer or AddressSanitizer
    /// (`scripts/test` runs every suite under both). A file size limit (`ulimit -f`) kills a sanitizer's runtime
    /// with SIGBUS before the tool can report its write error.
    static let underSanitizer = dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil

    static let repository = GatewayProcess.repository

    /// The binary sits next to the test bundle in the build products directory.
    static let binary = GatewayProcess.executable("dce-validate")

    /// Runs the tool from `directory` (the repository by default) with optional standard input. Standard
    /// streams go through temporary files, so neither a large input nor a large report can block either side.
    /// With a `timeout` (seconds), a tool still running then is killed and the result says it timed out, so a
    /// test of a hang fails instead of hanging.
    static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil, environment: [String: String] = [:],
        executable: String? = nil, unsetting: [String] = [], timeout: Double? = nil
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dce-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let error = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repository
        var variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for name in unsetting { variables[name] = nil }
        process.environment = variables
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        var timedOut = false
        if let timeout {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                timedOut = true
            }
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: try Data(contentsOf: errURL), timedOut: timedOut)
    }

    /// Runs an off-the-shelf validator (scripts/check_reports.py in the test virtual environment) over report files.
    static func checkReports(_ kind: String, _ files: [URL]) throws -> Result {
        let venvPython = repository.appendingPathComponent(".venv-test/bin/python")
        let python = FileManager.default.isExecutableFile(atPath: venvPython.path) ? venvPython.path : "/usr/bin/env"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        let script = repository.appendingPathComponent("scripts/check_reports.py").path
        process.arguments = (python == "/usr/bin/env" ? ["python3"] : []) + [script, kind] + files.map(\.path)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: Data(), stderr: stderr)
    }

    /// Runs blocking work (a tool run, waiting for its output) on a thread of its own, and waits for it without
    /// holding a thread of Swift concurrency's pool: the pool has one thread per core, and tests that block them
    /// stall every other test's tasks (on two cores, the gateway tests' server answered after the client's
    /// timeout, and the client retried).
    static func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }

    /// A fresh temporary directory, removed by the caller.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dce-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs the tool with its own process-level accounting: spawned and reaped here (wait4) rather than through
    /// `Process`, so the peak resident memory is that of this one child, not the largest of every child the test
    /// process ever reaped (what `getrusage(RUSAGE_CHILDREN)` gives). Standard output goes to `stdout`.
    static func runMeasuringMemory(_ arguments: [String], stdout: URL) throws -> (status: Int32, maxResidentBytes: Int)
    {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        #if canImport(Darwin)
            let bytes = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            let bytes = Int(usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), bytes)
    }
}

/// A running `dce-validate` whose standard input stays open until the test closes it, for streams that arrive
/// slowly; what it prints is collected as it comes.
final class RunningCLI: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    /// Standard output and standard error so far; guarded by `condition`.
    private var collected = (out: Data(), err: Data(), open: 2)

    init(_ arguments: [String], in directory: URL? = nil) throws {
        // A write to the pipe after the child has gone must fail with EPIPE, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? CLI.repository
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for (pipe, isOut) in [(output, true), (errors, false)] {
            let handle = pipe.fileHandleForReading
            Thread { [self] in
                while true {
                    let data = handle.availableData
                    condition.lock()
                    if data.isEmpty {
                        collected.open -= 1
                    } else if isOut {
                        collected.out += data
                    } else {
                        collected.err += data
                    }
                    condition.broadcast()
                    condition.unlock()
                    if data.isEmpty { return }
                }
            }.start()
        }
    }

    /// Writes to the tool's standard input.
    func write(_ data: Data) throws { try input.fileHandleForWriting.write(contentsOf: data) }

    /// Ends the tool's standard input.
    func closeInput() throws { try input.fileHandleForWriting.close() }

    /// Standard output so far.
    var out: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: collected.out, as: UTF8.self)
    }

    /// Waits until standard output satisfies `predicate`, at most `seconds`; whether it did.
    func waitForOutput(seconds: Double, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(String(decoding: collected.out, as: UTF8.self)) {
            guard condition.wait(until: deadline) else {
                return predicate(String(decoding: collected.out, as: UTF8.self))
            }
        }
        return true
    }

    /// Waits for the tool to end and for its output to be read; its result. A tool still running after `seconds`
    /// is killed, and the result says it timed out.
    func finish(seconds: Double = 30) -> CLI.Result {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        condition.lock()
        defer { condition.unlock() }
        while collected.open > 0 { condition.wait() }
        return CLI.Result(
            status: process.terminationStatus, stdout: collected.out, stderr: collected.err, timedOut: timedOut)
    }
}
