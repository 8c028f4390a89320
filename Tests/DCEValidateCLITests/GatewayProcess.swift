import Foundation

/// A `dce-gateway` on a free loopback port with fresh keys. Its output goes to a file: `Process` waits for every
/// descriptor it handed the child to be closed, and a pipe nobody drains would stall the gateway's access log.
final class GatewayProcess {
    let process = Process()
    let keys: URL
    let url: URL
    /// The key clients pin: `signing.pub`, as the gateway writes it.
    var signingKey: URL { keys.appendingPathComponent("signing.pub") }

    /// Starts the gateway with its keys and log in `directory`, and waits until it listens.
    init(in directory: URL, options: [String] = []) throws {
        keys = directory.appendingPathComponent("keys")
        let log = directory.appendingPathComponent("gateway-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        process.executableURL = CLI.binary.deletingLastPathComponent().appendingPathComponent("dce-gateway")
        process.arguments = ["--port", "0", "--keys", keys.path] + options
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 60)
        while true {
            let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            if let start = text.range(of: "listening on http://")?.lowerBound,
                let found = URL(
                    string: String(text[start...].dropFirst("listening on ".count).prefix { !$0.isWhitespace }))
            {
                url = found
                return
            }
            guard process.isRunning, Date() < deadline else {
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
                throw CocoaError(
                    .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "dce-gateway did not start: \(text)"])
            }
            usleep(20_000)
        }
    }

    /// Ends the gateway and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
