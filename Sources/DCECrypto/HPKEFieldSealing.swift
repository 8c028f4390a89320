public import Crypto
import DCEEngine
public import DCEEnvelope
public import Foundation

/// Seals `pciEncryptionRequired` values to a gateway's X25519 public key with HPKE (RFC 9180, base mode,
/// DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305): each value on its own, bound to its request, its
/// place and the clear values beside it, so a value that is changed, moved or replayed in another request does not
/// open.
///
/// ```swift
/// let sealer = try HPKEFieldSealer(gatewayPublicKey: publicKeyBytes, keyID: "gw-2026-11")
/// let built = try prepared.makeRequest(json: payload, requestID: UUID().uuidString, sealer: sealer)
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct HPKEFieldSealer: FieldSealing {
    /// The algorithm named in every sealed value.
    public static let algorithm = "HPKE-Base-X25519-SHA256-ChaChaPoly"
    static var ciphersuite: HPKE.Ciphersuite { .Curve25519_SHA256_ChachaPoly }
    static let info = Data("dce-validate field encryption v1".utf8)

    /// The id of the gateway key, carried in every sealed value.
    public let keyID: String
    /// The key's raw bytes, checked in `init` (swift-crypto 3's key types are not `Sendable`).
    private let recipient: Data

    /// Creates a sealer for one gateway key.
    ///
    /// - Parameters:
    ///   - gatewayPublicKey: The key's 32 raw bytes.
    ///   - keyID: The key's id.
    /// - Throws: When the bytes are not an X25519 public key.
    public init(gatewayPublicKey: Data, keyID: String) throws {
        _ = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: gatewayPublicKey)
        self.recipient = gatewayPublicKey
        self.keyID = keyID
    }

    /// Seals one value.
    ///
    /// - Parameters:
    ///   - field: The value.
    ///   - associatedData: What it is bound to.
    /// - Returns: The sealed value.
    /// - Throws: When HPKE fails.
    public func seal(_ field: SensitiveField, associatedData: [UInt8]) throws -> EncryptedField {
        let key = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: recipient)
        var sender = try HPKE.Sender(recipientKey: key, ciphersuite: Self.ciphersuite, info: Self.info)
        let ciphertext = try sender.seal(field.json, authenticating: associatedData)
        return EncryptedField(
            pointer: field.pointer, algorithm: Self.algorithm, keyID: keyID,
            encapsulatedKey: sender.encapsulatedKey.base64EncodedString(), ciphertext: ciphertext.base64EncodedString())
    }
}

/// Opens values sealed by ``HPKEFieldSealer``, with the gateway's private key: the server side.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct HPKEFieldOpener: FieldOpening {
    /// The id of the key this opener holds.
    public let keyID: String
    /// The key's raw bytes (swift-crypto 3's key types are not `Sendable`).
    private let privateKey: Data

    /// Creates an opener.
    ///
    /// - Parameters:
    ///   - privateKey: The gateway's private key.
    ///   - keyID: Its id; values sealed to another key are refused.
    public init(privateKey: Curve25519.KeyAgreement.PrivateKey, keyID: String) {
        self.privateKey = privateKey.rawRepresentation
        self.keyID = keyID
    }

    /// Creates an opener from the private key's 32 raw bytes.
    ///
    /// - Parameters:
    ///   - privateKey: The raw key.
    ///   - keyID: Its id.
    /// - Throws: When the bytes are not an X25519 private key.
    public init(privateKey: Data, keyID: String) throws {
        self.init(privateKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey), keyID: keyID)
    }

    /// Opens one value.
    ///
    /// - Parameters:
    ///   - field: The sealed value.
    ///   - associatedData: The binding the sender used.
    /// - Returns: The value.
    /// - Throws: ``FieldEncryptionError`` when the algorithm or key differ, or the value does not authenticate.
    public func open(_ field: EncryptedField, associatedData: [UInt8]) throws -> SensitiveField {
        guard field.algorithm == HPKEFieldSealer.algorithm else {
            throw FieldEncryptionError.unsupportedAlgorithm(field.algorithm)
        }
        guard field.keyID == keyID else { throw FieldEncryptionError.unknownKey(field.keyID) }
        guard let encapsulated = Data(base64Encoded: field.encapsulatedKey),
            let ciphertext = Data(base64Encoded: field.ciphertext)
        else {
            throw FieldEncryptionError.malformed
        }
        do {
            var recipient = try HPKE.Recipient(
                privateKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey),
                ciphersuite: HPKEFieldSealer.ciphersuite, info: HPKEFieldSealer.info,
                encapsulatedKey: encapsulated)
            return SensitiveField(
                pointer: field.pointer, json: [UInt8](try recipient.open(ciphertext, authenticating: associatedData)))
        } catch {
            throw FieldEncryptionError.authenticationFailed
        }
    }
}

/// Why a sealed value could not be opened.
public enum FieldEncryptionError: Error, Hashable, Sendable {
    /// The value names an algorithm this opener does not implement.
    case unsupportedAlgorithm(String)
    /// The value is sealed to a key this opener does not hold.
    case unknownKey(String)
    /// The key or ciphertext is not base64.
    case malformed
    /// The value, its place or its request was changed after sealing (or the key is wrong).
    case authenticationFailed
}
