import Crypto
import CryptoExtras
public import Foundation

/// An identity provider for tests: signing keys of each accepted kind, their JWKS, and tokens, honest or forged,
/// signed here by hand (not by jwt-kit, which the gateway verifies with).
public struct TokenIssuer: Sendable {
    /// The `iss` its tokens carry.
    public let issuer: String
    /// The `aud` its tokens carry unless told otherwise.
    public let audience: String
    private let rsa: _RSA.Signing.PrivateKey
    private let ec: P256.Signing.PrivateKey
    private let ed: Curve25519.Signing.PrivateKey

    /// The key ids of its JWKS, one per algorithm.
    public static let keyIDs = ["RS256": "rsa-1", "ES256": "ec-1", "EdDSA": "ed-1"]

    /// A provider with new keys (an RSA key of 2,048 bits, a P-256 key, an Ed25519 key).
    public init(issuer: String = "https://id.example.test/", audience: String = "dce-gateway") throws {
        self.issuer = issuer
        self.audience = audience
        rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        ec = P256.Signing.PrivateKey()
        ed = Curve25519.Signing.PrivateKey()
    }

    /// Its public keys as a JWKS document.
    public func jwks() throws -> Data {
        let primitives = try rsa.publicKey.getKeyPrimitives()
        let point = ec.publicKey.x963Representation.dropFirst()
        let keys: [[String: String]] = [
            [
                "kty": "RSA", "kid": Self.keyIDs["RS256"]!, "use": "sig", "alg": "RS256",
                "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent),
            ],
            [
                "kty": "EC", "kid": Self.keyIDs["ES256"]!, "crv": "P-256",
                "x": Self.base64URL(point.prefix(32)), "y": Self.base64URL(point.suffix(32)),
            ],
            [
                "kty": "OKP", "kid": Self.keyIDs["EdDSA"]!, "crv": "Ed25519",
                "x": Self.base64URL(ed.publicKey.rawRepresentation),
            ],
        ]
        return try JSONSerialization.data(withJSONObject: ["keys": keys], options: [.sortedKeys])
    }

    /// The claims of an honest token for `subject`: this issuer and audience, issued now, expiring in `lifetime`.
    public func claims(subject: String, scope: String, now: Date = Date(), lifetime: TimeInterval = 600) -> [String:
        Any]
    {
        [
            "iss": issuer, "aud": audience, "sub": subject, "scope": scope,
            "iat": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970 + lifetime),
        ]
    }

    /// A token of `claims`, signed with the key of `algorithm` (RS256, ES256 or EdDSA), its header naming that key
    /// unless `header` says otherwise.
    public func token(_ claims: [String: Any], algorithm: String = "RS256", header: [String: Any] = [:]) throws
        -> String
    {
        var fields: [String: Any] = ["alg": algorithm, "typ": "JWT", "kid": Self.keyIDs[algorithm] ?? "none"]
        fields.merge(header) { $1 }
        let input = try Self.segment(fields) + "." + Self.segment(claims)
        let data = Data(input.utf8)
        let signature: Data
        switch algorithm {
        case "RS256": signature = try rsa.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
        case "ES256": signature = try ec.signature(for: data).rawRepresentation
        case "EdDSA": signature = try ed.signature(for: data)
        default: signature = Data()
        }
        return input + "." + Self.base64URL(signature)
    }

    /// `alg: none`: claims with no signature at all, the header naming the RSA key.
    public func unsignedToken(_ claims: [String: Any]) throws -> String {
        try Self.segment(["alg": "none", "typ": "JWT", "kid": Self.keyIDs["RS256"]!]) + "." + Self.segment(claims) + "."
    }

    /// The algorithm-confusion forgery: HS256 "signed" with the RSA public key's bytes as the HMAC secret, as a
    /// verifier that takes the algorithm from the token would check it. Forged twice, with the key as the JWKS's
    /// base64url modulus and as its DER; both are returned.
    public func hmacWithPublicKey(_ claims: [String: Any]) throws -> [String] {
        let input =
            try Self.segment(["alg": "HS256", "typ": "JWT", "kid": Self.keyIDs["RS256"]!]) + "."
            + Self.segment(claims)
        let primitives = try rsa.publicKey.getKeyPrimitives()
        let secrets = [Data(Self.base64URL(primitives.modulus).utf8), rsa.publicKey.derRepresentation]
        return secrets.map { secret in
            let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: secret))
            return input + "." + Self.base64URL(Data(mac))
        }
    }

    private static func segment(_ object: [String: Any]) throws -> String {
        base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Base64url without padding, as JOSE writes it.
    public static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
