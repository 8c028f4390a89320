import Foundation

/// Runs the built `dce-validate` binary and captures what it prints.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
        /// Everything the process wrote, as bytes, for leak searches.
        var allBytes: Data { stdout + stderr }
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary sits next to the test bundle in the build products directory.
    static let binary: URL = {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("dce-validate")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        for configuration in ["debug", "release"] {
            let candidate = repository.appendingPathComponent(".build/\(configuration)/dce-validate")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        fatalError("dce-validate is not built: run 'swift build' first")
    }()

    /// Runs the tool from `directory` (the repository by default) with optional standard input. Standard
    /// streams go through temporary files, so neither a large input nor a large report can block either side.
    static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil, environment: [String: String] = [:],
        executable: String? = nil, unsetting: [String] = []
    ) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dce-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inURL = scratch.appendingPathComponent("stdin")
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
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
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: try Data(contentsOf: outURL), stderr: try Data(contentsOf: errURL))
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

    /// A fresh temporary directory, removed by the caller.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dce-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
