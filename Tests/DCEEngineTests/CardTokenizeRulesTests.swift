import DCEEngine
import DCEModels
import Foundation
import Testing

/// Every card-tokenize rule of seed 002, through the public API.
struct CardTokenizeRulesTests {
    private func validate(_ json: String, scheme: String? = nil) throws -> ValidationReport {
        try Fixtures.validate(json, schema: "card-tokenize", context: scheme.map { ["scheme": $0] } ?? [:])
    }

    static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBhDCCASmgAwIBAgIUO9pn2DwDHxz+ri0ifMgOhMZ5YXswCgYIKoZIzj0EAwIw
        FzEVMBMGA1UEAwwMRXhhbXBsZSBMZWFmMB4XDTI2MTEyMTA1MzA0MloXDTI2MTEy
        MjA1MzA0MlowFzEVMBMGA1UEAwwMRXhhbXBsZSBMZWFm
        -----END CERTIFICATE-----

        """

    private func applePay(
        leaf: String = "0a1B2c3D", subordinate: String = "MIIBhDCC", nonce: String = "w1koQg==",
        signature: String = "c0ffee"
    ) -> String {
        let encode = { (text: String) in String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
        return
            #"{"walletType": "APPLE_PAY", "leafCertificate": \#(encode(leaf)), "subordinateCertificate": \#(encode(subordinate)), "nonce": \#(encode(nonce)), "nonceSignature": \#(encode(signature))}"#
    }

    @Test func walletTypeIsRequiredAndOneOfTheThreeWallets() throws {
        #expect(try validate("{}").summary == ["required@/walletType"])
        #expect(try validate(#"{"walletType": "UNKNOWN"}"#).summary == ["enum@/walletType"])
        #expect(try validate(#"{"walletType": "apple_pay"}"#).summary == ["enum@/walletType"])
        let message = try validate(#"{"walletType": "PAYPAL"}"#).errors.first?.message
        #expect(message == "Wallet type must be one of APPLE_PAY, GOOGLE_PAY, SAMSUNG_PAY")
    }

    @Test func applePayNeedsCertificatesNonceAndSignature() throws {
        let report = try validate(#"{"walletType": "APPLE_PAY"}"#)
        #expect(
            report.summary == [
                "required@/leafCertificate", "required@/nonce", "required@/nonceSignature",
                "required@/subordinateCertificate",
            ])
        #expect(try validate(applePay()).valid)
        #expect(try validate(applePay(), scheme: "VISA").valid)  // VISA + Apple Pay: no device or account id
    }

    @Test func certificatesMayBeHexBase64OrPEM() throws {
        #expect(try validate(applePay(leaf: "DEADbeef00")).valid)
        #expect(try validate(applePay(leaf: "MIIBhDCCASmgAwIBAgIU")).valid)
        #expect(try validate(applePay(leaf: Self.pem, subordinate: Self.pem)).valid)
        #expect(try validate(applePay(leaf: Self.pem.replacingOccurrences(of: "\n", with: "\r\n"))).valid)
        for bad in [
            "xyz!", "abc", Self.pem.replacingOccurrences(of: "-----END CERTIFICATE-----", with: ""),
            Self.pem.replacingOccurrences(of: "BEGIN CERTIFICATE", with: "BEGIN PRIVATE KEY"),
            Self.pem.replacingOccurrences(of: "-----\n", with: "-----\n\n"),
        ] {
            #expect(try validate(applePay(subordinate: bad)).summary == ["format@/subordinateCertificate"], "\(bad)")
        }
        // Lines longer than 64 characters break PEM's layout.
        let joined = Self.pem.split(separator: "\n").dropFirst().dropLast().joined()
        let wide =
            "-----BEGIN CERTIFICATE-----\n\(joined.prefix(72))\n\(joined.dropFirst(72))\n-----END CERTIFICATE-----"
        #expect(try validate(applePay(leaf: wide)).summary == ["format@/leafCertificate"])
        // Seed 002: "the Base64-encoded value should have lines of length 64"; only the last line is shorter (as
        // in `pem`: 64, 64 and 44). The same base64 in lines of 60 is not PEM's layout.
        let characters = Array(joined)
        let lines = stride(from: 0, to: characters.count, by: 60).map {
            String(characters[$0..<min($0 + 60, characters.count)])
        }
        let narrow = "-----BEGIN CERTIFICATE-----\n\(lines.joined(separator: "\n"))\n-----END CERTIFICATE-----"
        #expect(lines.count == 3)
        #expect(try validate(applePay(leaf: narrow)).summary == ["format@/leafCertificate"])
    }

    @Test func nonceAndSignatureAreHexOrBase64() throws {
        #expect(try validate(applePay(nonce: "A1B2C3D4", signature: "QF7lLU3rlO+/iuscoJE9PdX=")).valid)
        #expect(
            try validate(applePay(nonce: "w1koQg=", signature: "zz")).summary == [
                "format@/nonce", "format@/nonceSignature",
            ])
        #expect(try validate(applePay(nonce: Self.pem)).summary == ["format@/nonce"])
    }

    @Test(arguments: ["GOOGLE_PAY", "SAMSUNG_PAY"]) func visaWithGoogleOrSamsungPayNeedsDeviceAndAccountIds(
        wallet: String
    ) throws {
        #expect(
            try validate(#"{"walletType": "\#(wallet)"}"#, scheme: "VISA").summary == [
                "required@/clientDeviceId", "required@/clientWalletAccountId",
            ])
        #expect(
            try validate(
                #"{"walletType": "\#(wallet)", "clientDeviceId": "d", "clientWalletAccountId": "a"}"#, scheme: "VISA"
            ).valid)
        // Other schemes, or no scheme given: not required.
        #expect(try validate(#"{"walletType": "\#(wallet)"}"#, scheme: "MC").valid)
        #expect(try validate(#"{"walletType": "\#(wallet)"}"#).valid)
    }

    /// Seed 002: the certificates, nonce and signature are "Required for iOS", and the iOS sample sends no walletType.
    @Test func onIOSTheWalletIsApplePayAndItsFieldsAreRequired() throws {
        let ios = ["platform": "ios"]
        let sample = applePay().replacingOccurrences(of: #""walletType": "APPLE_PAY", "#, with: "")
        #expect(try Fixtures.validate(sample, schema: "card-tokenize", context: ios).valid)
        // Without the platform, nothing says the request comes from iOS: the wallet type is required.
        #expect(try validate(sample).summary == ["required@/walletType"])
        // On iOS the four fields are required, and the only wallet is Apple Pay.
        #expect(
            try Fixtures.validate("{}", schema: "card-tokenize", context: ios).summary == [
                "required@/leafCertificate", "required@/nonce", "required@/nonceSignature",
                "required@/subordinateCertificate",
            ])
        let google = sample.replacingOccurrences(of: "{", with: #"{"walletType": "GOOGLE_PAY", "#)
        #expect(try Fixtures.validate(google, schema: "card-tokenize", context: ios).summary == ["enum@/walletType"])
        // On Android, Apple Pay is not a wallet; and Apple Pay named in the request means iOS when the app says nothing.
        #expect(
            try Fixtures.validate(applePay(), schema: "card-tokenize", context: ["platform": "android"]).summary == [
                "enum@/walletType"
            ])
        #expect(try validate(#"{"walletType": "APPLE_PAY"}"#).summary.count == 4)
        // The typed request says the same: the seed's Swift sample, without a wallet type.
        let request = CardTokenizationRequest(
            leafCertificate: "0a1B2c3D", subordinateCertificate: "MIIBhDCC", nonce: "w1koQg==", nonceSignature: "c0ffee"
        )
        #expect(try Fixtures.validator.validate(request, context: ios).valid)
        #expect(try Fixtures.validator.validate(request).summary == ["required@/walletType"])
    }

    /// tokenization-status reads walletType the same way.
    @Test func theTokenizationStatusReadsTheWalletTypeTheSameWay() throws {
        let sample = #"{"dpanRef": "DAPLMC00002125433c0c34a2821f4f86866e7576963baf8b", "status": "COMPLETED"}"#
        #expect(try Fixtures.validate(sample, schema: "tokenization-status", context: ["platform": "ios"]).valid)
        #expect(try Fixtures.validate(sample, schema: "tokenization-status").summary == ["required@/walletType"])
        let withWalletId = sample.replacingOccurrences(of: "{", with: #"{"walletId": "NMZl", "#)
        #expect(
            try Fixtures.validate(withWalletId, schema: "tokenization-status", context: ["platform": "ios"]).summary
                == ["forbidden@/walletId"])
        let google = withWalletId.replacingOccurrences(of: "{", with: #"{"walletType": "GOOGLE_PAY", "#)
        #expect(try Fixtures.validate(google, schema: "tokenization-status").valid)
        #expect(
            try Fixtures.validate(google, schema: "tokenization-status", context: ["platform": "ios"]).summary.sorted()
                == ["enum@/walletType", "forbidden@/walletId"])
    }

    @Test func typedRequestMatchesTheSchema() throws {
        let request = CardTokenizationRequest(walletType: .googlePay, clientDeviceId: "WNkcsfZPiKfa5PrH3jilkQYT")
        let report = try Fixtures.validator.validate(request, context: ["scheme": "VISA"])
        #expect(report.summary == ["required@/clientWalletAccountId"])
    }
}
