import Crypto
public import Foundation
import JWTKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bearer JWTs from an identity provider, verified against its published keys (a JWKS file or URL).
///
/// A token is accepted only when all of this holds, and refused with the same 401 otherwise:
/// - its header's `alg` is RS256, ES256 or EdDSA and its `kid` names a key of the JWKS of that family (so `none`, and
///   an HMAC "signed" with a public key, are refused before any signature is looked at);
/// - the signature verifies with that key (vapor/jwt-kit);
/// - `iss` is the configured issuer and `aud` holds the configured audience;
/// - it has an `exp`, not past, and its `nbf`, if any, has come, each within the bounded clock skew;
/// - it names a subject (`sub`), the caller's name as `sub:SUBJECT`.
///
/// Its scopes are its `scope` claim, space separated. The JWKS is read again when its file changes (looked at most once
/// a second), or fetched again from its URL every ``Policy/refreshInterval`` and when a token names a key it does not
/// hold (at most once every 30 s, or the refresh interval if shorter); a failed refresh keeps the keys it had. A verified token is remembered until it
/// expires or the keys change, so a caller's next request costs a SHA-256.
///
/// `@unchecked Sendable`: the keys, the times of the last look and fetch, whether a fetch runs and the verified tokens
/// are read and written only under `lock`; the rest is set in `init` and never changes.
public final class BearerTokens: @unchecked Sendable {
    /// Where the JWKS is.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A JSON file (`{"keys": [...]}`).
        case file(URL)
        /// An `https` URL (or `http` on loopback, for tests).
        case url(URL)

        /// The source `dce-gateway --jwks` names: a URL when it starts with `http://` or `https://`, else a file.
        public init(_ argument: String) throws(TokenConfigurationError) {
            guard argument.hasPrefix("https://") || argument.hasPrefix("http://") else {
                self = .file(URL(fileURLWithPath: argument))
                return
            }
            guard let url = URL(string: argument), let host = url.host, !host.isEmpty else {
                throw TokenConfigurationError("--jwks \(argument) is not a URL")
            }
            guard url.scheme == "https" || ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) else {
                throw TokenConfigurationError("--jwks \(argument): keys are fetched over https (http only on loopback)")
            }
            self = .url(url)
        }

        /// The file's path or the URL.
        public var description: String {
            switch self {
            case .file(let url): url.path
            case .url(let url): url.absoluteString
            }
        }
    }

    /// What a token must say, and how the keys are kept fresh.
    public struct Policy: Sendable, Hashable {
        /// The `iss` a token must carry.
        public var issuer: String
        /// A value a token's `aud` must hold.
        public var audience: String
        /// How far `exp` and `nbf` may be off the gateway's clock, in seconds: 0 to 300, 60 by default.
        public var clockSkew: TimeInterval
        /// How often a JWKS URL is fetched again, in seconds (300 by default).
        public var refreshInterval: TimeInterval

        /// A policy.
        ///
        /// - Parameters:
        ///   - issuer: The `iss` a token must carry.
        ///   - audience: A value a token's `aud` must hold.
        ///   - clockSkew: How far `exp` and `nbf` may be off, in seconds (at most 300).
        ///   - refreshInterval: How often a JWKS URL is fetched again, in seconds.
        public init(issuer: String, audience: String, clockSkew: TimeInterval = 60, refreshInterval: TimeInterval = 300)
        {
            self.issuer = issuer
            self.audience = audience
            self.clockSkew = min(max(clockSkew, 0), Self.maximumClockSkew)
            self.refreshInterval = max(refreshInterval, 1)
        }

        /// The largest clock skew a policy allows.
        public static let maximumClockSkew: TimeInterval = 300
    }

    /// The signature algorithms a token may use, each with the JWK family that verifies it.
    static let algorithms: [String: String] = ["RS256": "RSA", "ES256": "EC P-256", "EdDSA": "OKP Ed25519"]
    /// The longest token read; a longer one is refused unread.
    static let maximumTokenBytes = 8 << 10

    /// The JWKS's source.
    public let source: Source
    /// What a token must say.
    public let policy: Policy

    private struct Keys {
        var collection: JWTKeyCollection
        /// The algorithm each key id verifies.
        var algorithms: [String: String]
        /// The file's modification date when it was read.
        var modified: Date?
        var loaded: Date
    }

    private let lock = NSLock()
    private var keys: Keys
    private var lastLooked = Date.distantPast
    private var lastFetchAttempt: Date
    private var fetching = false
    /// Verified tokens, by their SHA-256: who they name and until when.
    private var verified: [SHA256Digest: (caller: Caller, expires: Date)] = [:]
    private static let rememberedTokens = 10_000

    private init(source: Source, policy: Policy, keys: Keys) {
        self.source = source
        self.policy = policy
        self.keys = keys
        lastFetchAttempt = keys.loaded
    }

    /// Reads the JWKS once, so that a gateway with keys it cannot read does not start.
    ///
    /// - Returns: The verifier, and what it set aside (keys of another use or kind), to log at start.
    /// - Throws: ``TokenConfigurationError`` for a JWKS that cannot be read, a symmetric or private key in it, or no
    ///   key a token could be verified with.
    public static func load(_ source: Source, policy: Policy) async throws(TokenConfigurationError) -> (
        tokens: BearerTokens, setAside: [String]
    ) {
        let (keys, setAside) = try await read(source)
        return (BearerTokens(source: source, policy: policy, keys: keys), setAside)
    }

    /// The number of keys tokens are verified with now.
    public var keyCount: Int { lock.withLock { keys.algorithms.count } }

    /// Who a token names, or `nil` when it is refused for any reason (not said: 401 is the whole answer).
    func caller(presenting token: String, now: Date = Date()) async -> Caller? {
        guard token.utf8.count <= Self.maximumTokenBytes else { return nil }
        let digest = SHA256.hash(data: Data(token.utf8))
        await refreshIfDue(now: now)
        let remembered = lock.withLock { verified[digest] }
        if let remembered {
            return remembered.expires.addingTimeInterval(policy.clockSkew) > now ? remembered.caller : nil
        }
        guard let header = Self.header(of: token) else { return nil }
        var current = lock.withLock { keys }
        if current.algorithms[header.kid] == nil, case .url = source,
            await refetch(now: now, minimumGap: min(30, policy.refreshInterval))
        {
            current = lock.withLock { keys }
        }
        guard current.algorithms[header.kid] == header.alg else { return nil }
        guard let claims = try? await current.collection.verify(token, as: Claims.self),
            let accepted = accept(claims, now: now)
        else { return nil }
        lock.withLock {
            if verified.count >= Self.rememberedTokens { verified.removeAll(keepingCapacity: true) }
            verified[digest] = accepted
        }
        return accepted.caller
    }

    /// The caller a verified token's claims name, until when; `nil` when the claims refuse it.
    private func accept(_ claims: Claims, now: Date) -> (caller: Caller, expires: Date)? {
        guard claims.iss == policy.issuer, claims.aud?.value.contains(policy.audience) == true,
            let expires = claims.exp?.value, expires.addingTimeInterval(policy.clockSkew) > now,
            (claims.nbf?.value ?? .distantPast).addingTimeInterval(-policy.clockSkew) <= now,
            let subject = claims.sub, (1...200).contains(subject.count),
            !subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let scopes = (claims.scope ?? "").split(separator: " ").map(String.init)
        return (Caller(name: "sub:" + subject, scopes: scopes), expires)
    }

    /// A token's header as far as choosing its key goes: its algorithm, if one allowed, and its key id. A header with
    /// `crit` (extensions the gateway would have to understand) is refused.
    private static func header(of token: String) -> (alg: String, kid: String)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = base64URLDecoded(parts[0]),
            let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let alg = object["alg"] as? String, algorithms[alg] != nil, let kid = object["kid"] as? String,
            object["crit"] == nil
        else { return nil }
        return (alg, kid)
    }

    /// Looks at the file again when a second has passed, and starts a fetch of the URL when the refresh interval has.
    private func refreshIfDue(now: Date) async {
        switch source {
        case .file(let url):
            let due: Bool = lock.withLock {
                guard now.timeIntervalSince(lastLooked) >= 1 else { return false }
                lastLooked = now
                return true
            }
            guard due else { return }
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            guard modified != lock.withLock({ keys.modified }), let (fresh, _) = try? await Self.read(source) else {
                return
            }
            install(fresh)
        case .url:
            let due = lock.withLock { now.timeIntervalSince(lastFetchAttempt) >= policy.refreshInterval && !fetching }
            if due { Task { _ = await self.refetch(now: now, minimumGap: self.policy.refreshInterval) } }
        }
    }

    /// Fetches the URL again unless it was tried within `minimumGap` seconds or a fetch is under way; whether the keys
    /// were replaced.
    private func refetch(now: Date, minimumGap: TimeInterval) async -> Bool {
        let go: Bool = lock.withLock {
            guard !fetching, now.timeIntervalSince(lastFetchAttempt) >= minimumGap else { return false }
            fetching = true
            lastFetchAttempt = now
            return true
        }
        guard go else { return false }
        defer { lock.withLock { fetching = false } }
        guard let (fresh, _) = try? await Self.read(source) else { return false }
        install(fresh)
        return true
    }

    private func install(_ fresh: Keys) {
        lock.withLock {
            keys = fresh
            verified.removeAll()
        }
    }

    /// Reads and checks a JWKS.
    private static func read(_ source: Source) async throws(TokenConfigurationError) -> (Keys, setAside: [String]) {
        let data: Data
        var modified: Date?
        switch source {
        case .file(let url):
            do {
                data = try Data(contentsOf: url)
                modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            } catch {
                throw TokenConfigurationError("the JWKS \(url.path) cannot be read: \(error.localizedDescription)")
            }
        case .url(let url):
            var request = URLRequest(url: url, timeoutInterval: 10)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            do {
                let (body, response) = try await URLSession.shared.data(for: request)
                guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
                    throw TokenConfigurationError("the JWKS \(url.absoluteString) answered other than 200")
                }
                data = body
            } catch let error as TokenConfigurationError {
                throw error
            } catch {
                throw TokenConfigurationError(
                    "the JWKS \(url.absoluteString) cannot be fetched: \(error.localizedDescription)")
            }
        }
        let (jwks, algorithms, setAside) = try parse(data, from: source)
        let collection = JWTKeyCollection()
        for jwk in jwks {
            do {
                try await collection.add(jwk: jwk)
            } catch {
                throw TokenConfigurationError("the JWKS \(source) has a key jwt-kit cannot use: \(error)")
            }
        }
        return (Keys(collection: collection, algorithms: algorithms, modified: modified, loaded: Date()), setAside)
    }

    /// The signing keys of a JWKS document, each with the one algorithm it verifies, and what was set aside.
    static func parse(_ data: Data, from source: Source) throws(TokenConfigurationError) -> (
        [JWK], algorithms: [String: String], setAside: [String]
    ) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["keys"] as? [Any]
        else {
            throw TokenConfigurationError("the JWKS \(source) is not a JSON object with a \"keys\" array")
        }
        var jwks: [JWK] = []
        var algorithms: [String: String] = [:]
        var setAside: [String] = []
        for (index, entry) in entries.enumerated() {
            let place = "the JWKS \(source), key \(index)"
            guard let key = entry as? [String: Any], let kty = key["kty"] as? String else {
                throw TokenConfigurationError("\(place) is not a JWK with a \"kty\"")
            }
            if kty == "oct" {
                throw TokenConfigurationError(
                    "\(place) is a symmetric key: a gateway verifies with public keys only (HMAC tokens are refused)")
            }
            if ["d", "p", "q", "dp", "dq", "qi", "k"].contains(where: { key[$0] != nil }) {
                throw TokenConfigurationError("\(place) holds a private key: publish only the public part")
            }
            guard let kid = key["kid"] as? String, !kid.isEmpty else {
                throw TokenConfigurationError("\(place) has no \"kid\": every key needs one")
            }
            guard algorithms[kid] == nil else { throw TokenConfigurationError("\(place): kid \(kid) appears twice") }
            if let use = key["use"] as? String, use != "sig" {
                setAside.append("kid \(kid): use \(use)")
                continue
            }
            let crv = key["crv"] as? String
            let family = crv.map { kty + " " + $0 } ?? kty
            guard let algorithm = Self.algorithms.first(where: { $0.value == family })?.key else {
                setAside.append("kid \(kid): \(family) keys are not accepted (RSA, EC P-256 or OKP Ed25519)")
                continue
            }
            if let declared = key["alg"] as? String, declared != algorithm {
                setAside.append("kid \(kid): alg \(declared) is not accepted (\(family) verifies \(algorithm))")
                continue
            }
            let identifier = JWKIdentifier(string: kid)
            let string = { (name: String) in key[name] as? String }
            switch algorithm {
            case "RS256":
                guard let modulus = string("n"), let exponent = string("e"),
                    let bytes = base64URLDecoded(Substring(modulus)), bytes.drop(while: { $0 == 0 }).count >= 256
                else {
                    throw TokenConfigurationError("\(place) (kid \(kid)) is not an RSA key of 2,048 bits or more")
                }
                jwks.append(.rsa(.rs256, identifier: identifier, modulus: modulus, exponent: exponent))
            case "ES256":
                guard let x = string("x"), let y = string("y") else {
                    throw TokenConfigurationError("\(place) (kid \(kid)) is an EC key without x and y")
                }
                jwks.append(.ecdsa(.es256, identifier: identifier, x: x, y: y, curve: .p256))
            default:
                guard let x = string("x") else {
                    throw TokenConfigurationError("\(place) (kid \(kid)) is an OKP key without x")
                }
                jwks.append(.octetKeyPair(.eddsa, identifier: identifier, x: x, y: nil, curve: .ed25519))
            }
            algorithms[kid] = algorithm
        }
        guard !algorithms.isEmpty else {
            throw TokenConfigurationError("the JWKS \(source) has no RS256, ES256 or EdDSA signing key")
        }
        return (jwks, algorithms, setAside)
    }

    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// The claims the gateway reads; their checks are ``accept(_:now:)``'s, against the configured policy.
    private struct Claims: JWTPayload {
        var iss: String?
        var sub: String?
        var aud: AudienceClaim?
        var exp: ExpirationClaim?
        var nbf: NotBeforeClaim?
        var scope: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// Why bearer tokens cannot be verified as configured: a JWKS that cannot be read or holds a key it must not.
public struct TokenConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
