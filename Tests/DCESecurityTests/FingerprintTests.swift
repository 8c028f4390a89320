import Crypto
import Foundation
import Testing

@testable import DCEFingerprint

/// The plain-Swift SHA-256 and HMAC behind `HMACFingerprinter` are exactly SHA-256 and HMAC-SHA256: the published
/// vectors, and swift-crypto's answers on generated inputs of every length around the block boundaries.
struct FingerprintTests {
    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
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

    /// FIPS 180-4 examples (and the empty message).
    @Test func sha256MatchesThePublishedVectors() {
        #expect(
            Self.hex(DCEFingerprint.SHA256.hash([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.hex(DCEFingerprint.SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(DCEFingerprint.SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.hex(DCEFingerprint.SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (5 truncates the output).
    @Test func hmacMatchesRFC4231() {
        let cases: [(key: [UInt8], data: [UInt8], mac: String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
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
        for (key, data, mac) in cases { #expect(Self.hex(HMACSHA256.code(for: data, key: key)) == mac) }
    }

    @Test func agreesWithSwiftCryptoOnEveryLengthAroundTheBlocks() {
        var random = SystemRandomNumberGenerator()
        for length in Array(0...200) + [1_000, 4_096, 65_537] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let key = (0..<(length % 150)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(
                Self.hex(DCEFingerprint.SHA256.hash(message)) == Self.hex(Crypto.SHA256.hash(data: message)),
                "length \(length)")
            let theirs = HMAC<Crypto.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
            #expect(
                Self.hex(HMACSHA256.code(for: message, key: key)) == Self.hex(theirs),
                "length \(length), key \(key.count)")
        }
    }

    @Test func fingerprintsAreTheFirstEightBytesOfTheHMAC() throws {
        let key = Data(repeating: 42, count: 32)
        let value = Array("4111111111111111".utf8)
        let expected =
            "hmac:"
            + Self.hex(HMAC<Crypto.SHA256>.authenticationCode(for: value, using: SymmetricKey(data: key)).prefix(8))
        #expect(value.withUnsafeBufferPointer { try! HMACFingerprinter(key: key).fingerprint($0) } == expected)
    }
}
