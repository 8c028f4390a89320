import DCETestSupport
import Foundation
import Testing

/// `dce-validate send` against the reference `dce-gateway`, both as a user starts them.
struct SendCommandTests {
    @Test func aValidPayloadIsSentAndAcceptedAnInvalidOneIsNeverSent() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(in: scratch)
        defer { gateway.stop() }
        let (keys, url) = (gateway.keys, gateway.url)
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
