import DCEFingerprint
import Foundation
import Testing

/// `HMACFingerprinter` is the first eight bytes of HMAC-SHA256 under the app's key: held to the published RFC 4231
/// vectors (those whose key the fingerprinter accepts), and to what it must never do (accept a short key, depend on
/// anything but the key and the value).
struct FingerprintTests {
    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    static func fingerprint(_ value: [UInt8], key: [UInt8]) throws -> String {
        let fingerprinter = try HMACFingerprinter(key: Data(key))
        return fingerprinter.fingerprint(value.span)
    }

    /// RFC 4231 test cases 1, 3, 4, 6 and 7 (case 2's four-byte key is refused; 5 truncates the output): the
    /// fingerprint is `hmac:` and the first 16 hex digits of each published HMAC-SHA256.
    @Test func fingerprintsAreThePublishedHMACs() throws {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                Self.bytes(hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"),
                [UInt8](repeating: 0xcd, count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for (key, data, mac) in cases {
            #expect(try Self.fingerprint(data, key: key) == "hmac:" + mac.prefix(16))
        }
    }

    /// RFC 4231 case 2's key ("Jefe") and any key under 16 bytes are refused, saying how long the key was.
    @Test func aKeyShorterThanSixteenBytesIsRefused() {
        #expect(throws: FingerprintKeyError.tooShort(4)) { try HMACFingerprinter(key: Data("Jefe".utf8)) }
        #expect(throws: FingerprintKeyError.tooShort(15)) { try HMACFingerprinter(key: Data(count: 15)) }
        #expect(throws: Never.self) { try HMACFingerprinter(key: Data(count: 16)) }
    }

    /// The same value under the same key always gives the same fingerprint; another value or another key another
    /// one; and the fingerprint never holds the value.
    @Test func aFingerprintNamesTheValueUnderItsKeyOnly() throws {
        let key = [UInt8](repeating: 42, count: 32)
        let card = Array("4111111111111111".utf8)
        let first = try Self.fingerprint(card, key: key)
        #expect(try Self.fingerprint(card, key: key) == first)
        #expect(try Self.fingerprint(Array("4111111111111112".utf8), key: key) != first)
        #expect(try Self.fingerprint(card, key: [UInt8](repeating: 43, count: 32)) != first)
        #expect(try Self.fingerprint([], key: key).count == "hmac:".count + 16)
        #expect(!first.contains("4111"))
    }
}
