internal import Crypto
public import DCEEngine
public import Foundation

/// Tells two rejected sensitive values apart without revealing either: an HMAC-SHA256 with a key the app
/// supplies, shortened to 16 hex digits. A plain hash would not do: there are few enough PINs and card numbers to
/// hash them all and look the value up. The HMAC is swift-crypto's (CryptoKit on Apple platforms, BoringSSL
/// elsewhere).
///
/// ```swift
/// let prepared = try validator.prepare("card-create").fingerprinting(with: HMACFingerprinter(key: debugKey))
/// // violations now carry "fingerprint": "hmac:3f9c0a…"; the same value gives the same fingerprint under one key
/// ```
public struct HMACFingerprinter: ValueFingerprinter {
    /// The key.
    private let key: SymmetricKey

    /// Creates a fingerprinter.
    ///
    /// - Parameter key: At least 16 bytes, kept by the app (never shipped in a report).
    /// - Throws: ``FingerprintKeyError`` when the key is shorter than 16 bytes.
    public init(key: Data) throws {
        guard key.count >= 16 else { throw FingerprintKeyError.tooShort(key.count) }
        self.key = SymmetricKey(data: key)
    }

    /// The fingerprint of a value's bytes.
    ///
    /// - Parameter value: The value (a string's UTF-8 bytes, a number's text).
    /// - Returns: `hmac:` and 16 hex digits: the first eight bytes of the value's HMAC-SHA256.
    public func fingerprint(_ value: Span<UInt8>) -> String {
        let code = value.withUnsafeBufferPointer { bytes in
            HMAC<SHA256>.authenticationCode(for: UnsafeRawBufferPointer(bytes), using: key)
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("hmac:".utf8)
        for byte in code.prefix(8) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A fingerprint key that cannot be used.
public enum FingerprintKeyError: Error, Hashable, Sendable {
    /// The key has fewer than 16 bytes (it has this many).
    case tooShort(Int)
}
