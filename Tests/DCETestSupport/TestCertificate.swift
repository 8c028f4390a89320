import Crypto
public import Foundation
import SwiftASN1
import X509

/// A self-signed certificate for `127.0.0.1` (P-256, valid for an hour), written as the PEM files
/// `dce-gateway --tls-cert --tls-key` reads.
public enum TestCertificate {
    /// Writes `cert.pem` and `key.pem` in `directory`, and returns their URLs.
    public static func write(in directory: URL) throws -> (certificate: URL, key: URL) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("127.0.0.1") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - 60, notValidAfter: now + 3_600, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            }, issuerPrivateKey: .init(key))
        let urls = (directory.appendingPathComponent("cert.pem"), directory.appendingPathComponent("key.pem"))
        try Data(try certificate.serializeAsPEM().pemString.utf8).write(to: urls.0)
        try Data(key.pemRepresentation.utf8).write(to: urls.1)
        return urls
    }
}
