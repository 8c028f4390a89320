import DCEEngine
import DCEEnvelope
import DCEGateway
import DCETestSupport
import Foundation
import Hummingbird
import Testing

/// Bearer JWTs attacked as the issue lists: every forgery and every token for someone else gets the same 401, an
/// honest token of each accepted algorithm is served, and no token reaches a log line.
extension GatewayAttackTests {
    static let cardValues = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#

    @Test func onlyAnHonestTokenForThisGatewayIsAccepted() async throws {
        let issuer = try TokenIssuer()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (tokens, setAside) = try await Self.verifier(of: issuer, in: directory, clockSkew: 30)
        #expect(setAside.isEmpty && tokens.keyCount == 3)
        let now = Date()
        let honest = issuer.claims(subject: "shop-42", scope: "requests:card-tokenize requests:card-create", now: now)
        func with(_ changes: [String: Any?]) -> [String: Any] {
            var claims = honest
            for (name, value) in changes { claims[name] = value }
            return claims
        }
        let refused = try Self.forgeries(of: issuer, honest: honest, now: now)
        try await withGateway(authentication: .tokens(tokens)) { server in
            var accepted = 0
            for algorithm in ["RS256", "ES256", "EdDSA"] {
                let token = try issuer.token(honest, algorithm: algorithm)
                let reply = try await server.post(
                    try sealed(Self.cardValues, id: "honest-\(algorithm)", at: server.clock.now),
                    authorization: "Bearer \(token)")
                #expect(reply.status == 200, "\(algorithm): \(reply.text)")
                accepted += 1
            }
            // Within the skew either side (timed from the moment each is sent: a build under a sanitizer is slow), and
            // an audience among several.
            let cases: [(String, @Sendable (Int) -> [String: Any?])] = [
                ("expired within the skew", { ["exp": $0 - 10] }),
                ("valid soon, within the skew", { ["nbf": $0 + 10] }),
                ("our audience among others", { _ in ["aud": ["another-gateway", issuer.audience]] }),
            ]
            for (name, changes) in cases {
                let claims = with(changes(Int(Date().timeIntervalSince1970)))
                let reply = try await server.post(
                    try sealed(Self.cardValues, id: "skew-\(accepted)", at: server.clock.now),
                    authorization: "Bearer \(try issuer.token(claims))")
                #expect(reply.status == 200, "\(name): \(reply.text)")
                accepted += 1
            }
            for (index, (name, token)) in refused.enumerated() {
                let reply = try await server.post(
                    try sealed(Self.cardValues, id: "forged-\(index)", at: server.clock.now),
                    authorization: "Bearer \(token)")
                #expect(reply.status == 401, "\(name)")
                #expect(reply.challenge == #"Bearer realm="dce-gateway""#, "\(name)")
                #expect(reply.response.errors.map(\.rule) == [.unauthenticated], "\(name)")
            }
            let unscoped = try await server.post(
                try sealed(Self.cardValues, id: "unscoped", at: server.clock.now),
                authorization: "Bearer \(try issuer.token(with(["scope": "requests:card-tokenize"])))")
            #expect(unscoped.status == 403)
            #expect(server.backendCalls == accepted)
            #expect(server.logs.contains { $0.contains("sub:shop-42") })
            let everyToken = refused.map(\.1) + [try issuer.token(honest)]
            #expect(!server.logs.contains { line in everyToken.contains { line.contains($0.suffix(40)) } })
        }
    }

    @Test func aJWKSWithASymmetricOrPrivateKeyIsRefusedAtStartAndOtherKindsAreSetAside() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let issuer = try TokenIssuer()
        let honest = try JSONSerialization.jsonObject(with: try issuer.jwks()) as! [String: [[String: String]]]
        let rsa = honest["keys"]![0]
        func load(_ keys: [[String: Any]]) async throws -> [String] {
            let file = directory.appendingPathComponent("jwks-\(UUID().uuidString).json")
            try JSONSerialization.data(withJSONObject: ["keys": keys]).write(to: file)
            return try await BearerTokens.load(.file(file), policy: .init(issuer: "i", audience: "a")).setAside
        }
        var privateRSA: [String: Any] = rsa
        privateRSA["d"] = "AQAB"
        var shortRSA: [String: Any] = rsa
        shortRSA["n"] = String(rsa["n"]!.prefix(170))
        var noKid: [String: Any] = rsa
        noKid["kid"] = nil
        for (name, keys) in [
            ("a symmetric key", [["kty": "oct", "kid": "h", "k": "c2VjcmV0"]]), ("a private key", [privateRSA]),
            ("RSA under 2,048 bits", [shortRSA]), ("no kid", [noKid]), ("one kid twice", [rsa, rsa]),
            ("no signing key", [["kty": "EC", "kid": "p384", "crv": "P-384", "x": "AA", "y": "AA"]]),
        ] as [(String, [[String: Any]])] {
            await #expect(throws: TokenConfigurationError.self, "\(name)") { _ = try await load(keys) }
        }
        var encryption: [String: Any] = rsa
        encryption["kid"] = "enc-1"
        encryption["use"] = "enc"
        var declaredPS: [String: Any] = rsa
        declaredPS["kid"] = "ps-1"
        declaredPS["alg"] = "PS256"
        let setAside = try await load([rsa, encryption, declaredPS])
        #expect(setAside == ["kid enc-1: use enc", "kid ps-1: alg PS256 is not accepted (RSA verifies RS256)"])
        await #expect(throws: TokenConfigurationError.self) {
            _ = try await BearerTokens.load(
                .file(directory.appendingPathComponent("missing.json")), policy: .init(issuer: "i", audience: "a"))
        }
        #expect(throws: TokenConfigurationError.self) { _ = try BearerTokens.Source("http://keys.example.test/") }
        #expect(
            try BearerTokens.Source("https://keys.example.test/jwks")
                == .url(URL(string: "https://keys.example.test/jwks")!))
    }

    /// Keys rotate: a JWKS file changed, or a URL that now serves a new key, is read again, and a token of a key no
    /// longer published is refused even if it was served before.
    @Test func rotatedKeysAreReadAgainFromAFileAndFromAURL() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = try TokenIssuer()
        let new = try TokenIssuer(issuer: old.issuer, audience: old.audience)
        let file = directory.appendingPathComponent("jwks.json")
        try old.jwks().write(to: file)
        let served = Served(try old.jwks())
        let router = Router()
        router.get("/jwks") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: .init(bytes: served.value)))
        }
        try await withRunningServer({ onServerRunning in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning)
        }) { port in
            let policy = BearerTokens.Policy(issuer: old.issuer, audience: old.audience, refreshInterval: 1)
            let fromFile = try await BearerTokens.load(.file(file), policy: policy).tokens
            let fromURL = try await BearerTokens.load(
                try BearerTokens.Source("http://127.0.0.1:\(port)/jwks"), policy: policy
            ).tokens
            let oldToken = try old.token(old.claims(subject: "a", scope: "requests:*"))
            let newToken = try new.token(new.claims(subject: "a", scope: "requests:*"))
            for tokens in [fromFile, fromURL] {
                try await withGateway(authentication: .tokens(tokens)) { server in
                    let first = try await server.post(
                        try sealed(Self.cardValues, id: "old-1", at: server.clock.now),
                        authorization: "Bearer \(oldToken)")
                    #expect(first.status == 200)
                }
            }
            try await Task.sleep(for: .milliseconds(1_100))
            try new.jwks().write(to: file)
            served.value = try new.jwks()
            try await Task.sleep(for: .milliseconds(1_100))
            for tokens in [fromFile, fromURL] {
                try await withGateway(authentication: .tokens(tokens)) { server in
                    // The URL's refresh is started by a request and lands for the next.
                    _ = try await server.post(
                        try sealed(Self.cardValues, id: "nudge", at: server.clock.now),
                        authorization: "Bearer \(newToken)")
                    try await Task.sleep(for: .milliseconds(300))
                    let fresh = try await server.post(
                        try sealed(Self.cardValues, id: "new-1", at: server.clock.now),
                        authorization: "Bearer \(newToken)")
                    #expect(fresh.status == 200, "\(tokens.source)")
                    let stale = try await server.post(
                        try sealed(Self.cardValues, id: "old-2", at: server.clock.now),
                        authorization: "Bearer \(oldToken)")
                    #expect(stale.status == 401, "\(tokens.source)")
                }
            }
        }
    }

    /// Every token a gateway for `issuer` with a clock skew of 30 s must refuse, named: expired, not yet valid, for
    /// another audience or issuer, without a subject, signed by another key, `alg: none`, HS256 with the public key,
    /// a key of another family, an unknown or missing kid, a `crit` header, an algorithm not accepted.
    static func forgeries(of issuer: TokenIssuer, honest: [String: Any], now: Date) throws -> [(String, String)] {
        func with(_ changes: [String: Any?]) -> [String: Any] {
            var claims = honest
            for (name, value) in changes { claims[name] = value }
            return claims
        }
        let stranger = try TokenIssuer(issuer: issuer.issuer, audience: issuer.audience)
        let parts = try issuer.token(honest).split(separator: ".")
        let otherClaims = try issuer.token(with(["sub": "someone-else"])).split(separator: ".")
        return [
            ("expired beyond the skew", try issuer.token(with(["exp": Int(now.timeIntervalSince1970) - 120]))),
            ("not yet valid beyond the skew", try issuer.token(with(["nbf": Int(now.timeIntervalSince1970) + 600]))),
            ("no exp", try issuer.token(with(["exp": nil]))),
            ("another audience", try issuer.token(with(["aud": "another-gateway"]))),
            ("other audiences only", try issuer.token(with(["aud": ["a", "b"]]))),
            ("another issuer", try issuer.token(with(["iss": "https://evil.example.test/"]))),
            ("no subject", try issuer.token(with(["sub": nil]))),
            ("a subject with a control character", try issuer.token(with(["sub": "shop\n42"]))),
            ("a bad signature: another key with the same kid", try stranger.token(honest)),
            ("a bad signature: claims swapped", "\(parts[0]).\(otherClaims[1]).\(parts[2])"),
            ("a bad signature: ES256", try stranger.token(honest, algorithm: "ES256")),
            ("a bad signature: EdDSA", try stranger.token(honest, algorithm: "EdDSA")),
            ("alg none", try issuer.unsignedToken(honest)),
            ("HS256 with the public key (modulus)", try issuer.hmacWithPublicKey(honest)[0]),
            ("HS256 with the public key (DER)", try issuer.hmacWithPublicKey(honest)[1]),
            ("RS256 naming the EC key", try issuer.token(honest, header: ["kid": TokenIssuer.keyIDs["ES256"]!])),
            ("an unknown kid", try issuer.token(honest, header: ["kid": "rsa-2"])),
            ("no kid", try issuer.token(honest, header: ["kid": NSNull()])),
            ("a crit extension", try issuer.token(honest, header: ["crit": ["b64"], "b64": false])),
            ("ES384, not accepted", try issuer.token(honest, header: ["alg": "ES384"])),
            ("not a JWT", "a.b.c"),
        ]
    }

    /// A verifier of `issuer`'s tokens, its JWKS written in `directory`.
    static func verifier(of issuer: TokenIssuer, in directory: URL, clockSkew: TimeInterval = 60) async throws -> (
        tokens: BearerTokens, setAside: [String]
    ) {
        let jwks = directory.appendingPathComponent("jwks.json")
        try issuer.jwks().write(to: jwks)
        return try await BearerTokens.load(
            .file(jwks), policy: .init(issuer: issuer.issuer, audience: issuer.audience, clockSkew: clockSkew))
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// What the test JWKS endpoint serves, changed by the test.
    final class Served: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data
        init(_ data: Data) { self.data = data }
        var value: Data {
            get { lock.withLock { data } }
            set { lock.withLock { data = newValue } }
        }
    }
}
