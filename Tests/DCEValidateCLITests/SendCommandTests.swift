import Foundation
import Testing

/// `dce-validate send` against the reference `dce-gateway`, both as a user starts them.
struct SendCommandTests {
    /// Starts `dce-gateway --port 0` with fresh keys (and any other options) and returns its URL once it listens.
    static func startGateway(keys: URL, options: [String] = []) throws -> (Process, URL) {
        let gateway = CLI.binary.deletingLastPathComponent().appendingPathComponent("dce-gateway")
        let process = Process()
        process.executableURL = gateway
        process.arguments = ["--port", "0", "--keys", keys.path] + options
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "http://127.0.0.1:"), let url = URL(string: String(text[range.lowerBound...].prefix { !$0.isWhitespace })) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        return (process, url)
    }

    @Test func aValidPayloadIsSentAndAcceptedAnInvalidOneIsNeverSent() throws {
        let scratch = try CLI.scratchDirectory()
        let keys = scratch.appendingPathComponent("keys")
        let (gateway, url) = try Self.startGateway(keys: keys)
        defer { gateway.terminate() }
        #expect(FileManager.default.fileExists(atPath: keys.appendingPathComponent("encryption.pub").path))

        let sent = try CLI.run([
            "send", "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "region=EU",
            "--gateway", url.absoluteString, "--gateway-keys", keys.path,
        ])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(sent.out.contains(#""status":"accepted""#))
        #expect(sent.out.contains(#""isPinSet":true"#))

        let invalid = try CLI.run([
            "send", "Examples/card-create/invalid-regex-pin.json", "--schema", "card-create",
            "--gateway", url.absoluteString, "--gateway-keys", keys.path,
        ])
        #expect(invalid.status == 1)
        #expect(invalid.out.contains("not sent: the payload is invalid (1 error)"))

        let down = try CLI.run([
            "send", "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create",
            "--gateway", "http://127.0.0.1:9", "--gateway-keys", keys.path, "--timeout", "2",
        ])
        #expect(down.status == 3)
        #expect(down.err.contains("could not be used"))
    }
}
