import DCETestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `dce-gateway --api-keys` and `dce-gateway keys create|list|revoke`, as an operator uses them: the gateway will not
/// start without a choice of how callers are known, a key is shown once and never listed, and a revoked key is
/// refused by the running gateway.
struct GatewayCallersTests {
    private var gateway: String { GatewayProcess.executable("dce-gateway").path }

    @Test func withoutAChoiceOfAuthenticationTheGatewayDoesNotStart() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys").path
        let none = try CLI.run(["--port", "0", "--keys", keys], executable: gateway)
        #expect(none.status == 2)
        #expect(none.err.contains("say how callers are known: --api-keys"), "\(none.err)")
        let both = try CLI.run(["--port", "0", "--keys", keys, "--api-keys", "--no-auth"], executable: gateway)
        #expect(both.status == 2 && both.err.contains("--no-auth excludes --api-keys and --jwks"), "\(both.err)")
        let half = try CLI.run(
            ["--port", "0", "--keys", keys, "--jwks", "jwks.json", "--issuer", "i"], executable: gateway)
        #expect(half.status == 2 && half.err.contains("--jwks needs --issuer and --audience"), "\(half.err)")
        let symmetric = scratch.appendingPathComponent("jwks.json")
        try Data(#"{"keys": [{"kty": "oct", "kid": "h", "k": "c2VjcmV0"}]}"#.utf8).write(to: symmetric)
        let hmac = try CLI.run(
            ["--port", "0", "--keys", keys, "--jwks", symmetric.path, "--issuer", "i", "--audience", "a"],
            executable: gateway)
        #expect(hmac.status == 2 && hmac.err.contains("key 0 is a symmetric key"), "\(hmac.err)")
    }

    /// `dce-gateway --jwks FILE --issuer ISS --audience AUD` beside `--api-keys`: `dce-validate send` presents a JWT
    /// from its credential file, and the access log names the token's subject; an expired token is refused.
    @Test func aJWTFromTheConfiguredIssuerIsAcceptedBesideAPIKeys() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys")
        let issuer = try TokenIssuer()
        let jwks = scratch.appendingPathComponent("jwks.json")
        try issuer.jwks().write(to: jwks)
        let running = try GatewayProcess(
            keys: keys, in: scratch,
            arguments: ["--api-keys", "--jwks", jwks.path, "--issuer", issuer.issuer, "--audience", issuer.audience])
        defer { running.stop() }
        let send = [
            "send", "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "region=EU",
            "--gateway", running.url.absoluteString, "--gateway-keys", keys.path,
        ]
        let token = try issuer.token(
            issuer.claims(subject: "checkout-7", scope: "requests:card-create"), algorithm: "ES256")
        let file = scratch.appendingPathComponent("token")
        try Data(token.utf8).write(to: file)
        let accepted = try CLI.run(send + ["--credential-file", file.path])
        #expect(accepted.status == 0, "\(accepted.err)")
        let expired = try issuer.token(issuer.claims(subject: "checkout-7", scope: "requests:*", lifetime: -120))
        let refused = try CLI.run(send, environment: ["DCE_GATEWAY_CREDENTIAL": expired])
        #expect(refused.out.contains("[unauthenticated]"), "\(refused.out) \(refused.err)")
        #expect(running.output.contains("caller=sub:checkout-7"), "\(running.output)")
        #expect(running.output.contains("JWTs: 3 keys from \(jwks.path)"))
        for text in [running.output, accepted.out, accepted.err, refused.out, refused.err] {
            #expect(!text.contains(token.suffix(40)) && !text.contains(expired.suffix(40)))
        }
    }

    @Test func aKeyIsShownOnceAcceptedWithItsScopeAndRefusedOnceRevoked() async throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys")
        let created = try CLI.run(
            ["keys", "create", "--name", "ci-batch", "--scopes", "requests:card-create", "--keys", keys.path],
            executable: gateway)
        #expect(created.status == 0, "\(created.err)")
        let key = created.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("dce_"))
        let listed = try CLI.run(["keys", "list", "--keys", keys.path], executable: gateway)
        #expect(listed.out.hasPrefix("ci-batch\trequests:card-create\tcreated "), "\(listed.out)")
        #expect(!listed.out.contains(key))
        let again = try CLI.run(
            ["keys", "create", "--name", "ci-batch", "--scopes", "requests:*", "--keys", keys.path], executable: gateway
        )
        #expect(again.status == 2 && again.err.contains("a key named 'ci-batch' exists"), "\(again.err)")

        let running = try GatewayProcess(keys: keys, in: scratch, arguments: ["--api-keys"])
        defer { running.stop() }
        func post(_ authorization: String?) async throws -> (Int, String?) {
            var request = URLRequest(url: running.url.appendingPathComponent("v1/requests"))
            request.httpMethod = "POST"
            request.httpBody = Data("x".utf8)
            // Not JSON: an authenticated caller gets 415, so the status says whether the key was taken.
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "WWW-Authenticate"))
        }
        #expect(try await post(nil) == (401, #"Bearer realm="dce-gateway""#))
        #expect(try await post("Bearer \(key)").0 == 415)
        let revoked = try CLI.run(["keys", "revoke", "--name", "ci-batch", "--keys", keys.path], executable: gateway)
        #expect(revoked.status == 0, "\(revoked.err)")
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(try await post("Bearer \(key)").0 == 401)
        #expect(!running.output.contains(key))
        #expect(running.output.contains("caller=ci-batch"), "\(running.output)")
    }

    /// `dce-validate send --credential-file` (or `DCE_GATEWAY_CREDENTIAL`) presents the key; without it, or with a
    /// key lacking the schema's scope, the gateway's refusal is shown and nothing is accepted; the key is never
    /// printed.
    @Test func sendPresentsTheCredentialFromAFileOrTheEnvironment() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys")
        func create(_ name: String, _ scopes: String) throws -> String {
            let created = try CLI.run(
                ["keys", "create", "--name", name, "--scopes", scopes, "--keys", keys.path], executable: gateway)
            return created.out.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let key = try create("app", "requests:card-create")
        let other = try create("tokenizer", "requests:card-tokenize")
        let file = scratch.appendingPathComponent("credential")
        try Data((key + "\n").utf8).write(to: file)
        let running = try GatewayProcess(keys: keys, in: scratch, arguments: ["--api-keys"])
        defer { running.stop() }
        let send = [
            "send", "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--context", "region=EU",
            "--gateway", running.url.absoluteString, "--gateway-keys", keys.path,
        ]
        let accepted = try CLI.run(send + ["--credential-file", file.path])
        #expect(accepted.status == 0, "\(accepted.err)")
        #expect(accepted.out.contains(#""status":"accepted""#))
        let anonymous = try CLI.run(send)
        #expect(anonymous.status != 0)
        #expect(anonymous.out.contains("[unauthenticated]"), "\(anonymous.out)")
        let unscoped = try CLI.run(send, environment: ["DCE_GATEWAY_CREDENTIAL": other])
        #expect(unscoped.out.contains("[missingScope]"), "\(unscoped.out) \(unscoped.err)")
        let missing = try CLI.run(send + ["--credential-file", scratch.appendingPathComponent("none").path])
        #expect(missing.status == 2 && missing.err.contains("cannot read the credential file"), "\(missing.err)")
        for result in [accepted, anonymous, unscoped, missing] {
            #expect(!result.out.contains(key) && !result.err.contains(key))
            #expect(!result.out.contains(other) && !result.err.contains(other))
        }
        #expect(!running.output.contains(key) && running.output.contains("caller=app"))
    }

    /// `--max-cards-per-caller-per-minute`: a second card within the minute is a rejection `send` shows (exit 1, rule
    /// `cardVelocity`), not a failure it retries; the card numbers reach no output.
    @Test func aCardOverTheCallersLimitIsARejectionSendShows() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys")
        let running = try GatewayProcess(
            keys: keys, in: scratch, arguments: ["--max-cards-per-caller-per-minute", "1"])
        defer { running.stop() }
        let example = try String(contentsOfFile: "Examples/payment-account/valid-credit.json", encoding: .utf8)
            .replacingOccurrences(of: "01/20", with: "12/39")
        var results: [CLI.Result] = []
        for card in ["4111111111111111", "4012888888881881"] {
            let file = scratch.appendingPathComponent("\(card).json")
            try Data(example.replacingOccurrences(of: "4111111111111111", with: card).utf8).write(to: file)
            results.append(
                try CLI.run([
                    "send", file.path, "--schema", "payment-account", "--tender-type", "credit", "--gateway",
                    running.url.absoluteString, "--gateway-keys", keys.path,
                ]))
        }
        #expect(results[0].status == 0, "\(results[0].err)")
        #expect(results[1].status == 1, "\(results[1].err)")
        #expect(
            results[1].out.contains("[cardVelocity]") && results[1].out.contains("retry after"), "\(results[1].out)")
        #expect(running.output.contains("refusal=cardsPerCaller"))
        for text in [running.output] + results.flatMap({ [$0.out, $0.err] }) {
            #expect(!text.contains("4111111111111111") && !text.contains("4012888888881881"))
        }
    }
}
