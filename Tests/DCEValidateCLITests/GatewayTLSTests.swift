import DCETestSupport
import Foundation
import Testing

/// `dce-gateway --tls-cert --tls-key`: HTTPS with TLS 1.2 or 1.3 and nothing older, checked with Python's `ssl`
/// (OpenSSL) as a client; files that do not make a TLS server stop the start with a clear message.
struct GatewayTLSTests {
    private var gateway: String { GatewayProcess.executable("dce-gateway").path }

    /// Connects with each TLS version and prints what became of it, then fetches the catalogue over TLS 1.3.
    private static let client = """
        import ssl, socket, sys, urllib.request
        url, cafile = sys.argv[1], sys.argv[2]
        host, port = url.split("//")[1].split(":")
        for version in ["TLSv1", "TLSv1_1", "TLSv1_2", "TLSv1_3"]:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.load_verify_locations(cafile)
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
            context.minimum_version = context.maximum_version = getattr(ssl.TLSVersion, version)
            try:
                with context.wrap_socket(socket.create_connection((host, int(port))), server_hostname=host) as tls:
                    print(version, "accepted", tls.version())
            except ssl.SSLError as error:
                print(version, "refused", error.reason)
        context = ssl.create_default_context(cafile=cafile)
        with urllib.request.urlopen(url + "/v1/schemas", context=context) as response:
            print("catalogue", response.status)
        """

    @Test func onlyTLS12AndLaterAreServed() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (certificate, key) = try TestCertificate.write(in: scratch)
        let running = try GatewayProcess(
            keys: scratch.appendingPathComponent("keys"), in: scratch,
            arguments: ["--tls-cert", certificate.path, "--tls-key", key.path])
        defer { running.stop() }
        #expect(running.url.scheme == "https")
        let result = try CLI.run(
            ["python3", "-c", Self.client, running.url.absoluteString, certificate.path], executable: "/usr/bin/env")
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.out)")
        #expect(lines.first?.hasPrefix("TLSv1 refused") == true, "\(result.out)")
        #expect(lines.dropFirst().first?.hasPrefix("TLSv1_1 refused") == true, "\(result.out)")
        #expect(
            lines.contains("TLSv1_2 accepted TLSv1.2") && lines.contains("TLSv1_3 accepted TLSv1.3"), "\(result.out)")
        #expect(lines.last == "catalogue 200")
    }

    @Test func filesThatDoNotMakeATLSServerStopTheStart() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (certificate, _) = try TestCertificate.write(in: scratch)
        let other = scratch.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let (_, otherKey) = try TestCertificate.write(in: other)
        let keys = scratch.appendingPathComponent("keys").path
        let base = ["--port", "0", "--keys", keys, "--no-auth"]
        let alone = try CLI.run(base + ["--tls-cert", certificate.path], executable: gateway)
        #expect(alone.status == 2 && alone.err.contains("--tls-cert and --tls-key go together"), "\(alone.err)")
        let mismatched = try CLI.run(
            base + ["--tls-cert", certificate.path, "--tls-key", otherKey.path], executable: gateway)
        #expect(mismatched.status == 2 && mismatched.err.contains("is the key the certificate's?"), "\(mismatched.err)")
        let missing = try CLI.run(
            base + ["--tls-cert", scratch.appendingPathComponent("none.pem").path, "--tls-key", otherKey.path],
            executable: gateway)
        #expect(
            missing.status == 2 && missing.err.contains("none.pem is not a PEM certificate chain"), "\(missing.err)")
    }
}
