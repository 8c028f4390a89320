import Crypto
import DCECrypto
import DCEEngine
import DCEEnvelope
import DCEFingerprint
import DCETestSupport
import Foundation
import Testing

/// `pciEncryptionRequired` values are sealed with HPKE before they leave the validator, and only a gateway with
/// the private key opens them; tampering is detected.
struct FieldEncryptionTests {
    private let gatewayKey = Curve25519.KeyAgreement.PrivateKey()
    private let validator: Validator
    private let prepared: PreparedSchema
    private let pin = "8264"
    private var payload: [UInt8] {
        Array(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "\#(pin)"}"#.utf8)
    }

    init() throws {
        validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        prepared = try validator.prepare("card-create", context: ["region": "EU"])
    }

    private func sealer() throws -> HPKEFieldSealer {
        try HPKEFieldSealer(gatewayPublicKey: gatewayKey.publicKey.rawRepresentation, keyID: "gw-1")
    }

    private func envelope(requestID: String = "req-1") throws -> PDRequest {
        guard
            case .valid(let request) = try prepared.makeRequest(
                json: payload, requestID: requestID, sealer: try sealer())
        else {
            Issue.record("a valid request was refused")
            throw CancellationError()
        }
        return request
    }

    @Test func theEnvelopeNeverCarriesTheValueInClearAndTheGatewayOpensIt() throws {
        let request = try envelope()
        let wire = String(decoding: request.json, as: UTF8.self)
        #expect(!Sealed.scrubbed(wire).contains(pin))
        #expect(Sealed.scrubbed(wire).contains(#""ciphertext":"<sealed>""#))
        #expect(request.encryptedFields.map(\.pointer) == ["/cardPin"])
        #expect(request.encryptedFields.first?.algorithm == "HPKE-Base-X25519-SHA256-ChaChaPoly")
        #expect(request.encryptedFields.first?.keyID == "gw-1")
        #expect(wire.contains(#""values":{"programName":"SKRILL-VIRTUAL-MC-EEA","currency":"EUR"}"#))
        #expect(!"\(request)".contains(pin))

        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-1")
        let accepted = try validator.accept(IncomingRequest(json: request.json), opener: opener)
        #expect(accepted.report.valid)
        let whole = try #require(accepted.payload)
        #expect(
            String(decoding: whole, as: UTF8.self)
                == #"{"programName":"SKRILL-VIRTUAL-MC-EEA","currency":"EUR","cardPin":"8264"}"#)
    }

    /// A customer profile: every account's card number and security code sealed where it is in the array, and the
    /// gateway applies the same bindings (profile and billing zip codes, each account's tender type) as the app.
    @Test func contextsBoundInTheSchemaTravelWithItsVersion() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["customer-profile"])
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Examples/customer-profile/valid-profile-with-credit-and-gift.json")
        let payload = try [UInt8](Data(contentsOf: url))
        guard
            case .valid(let request) = try validator.prepare("customer-profile").makeRequest(
                json: payload, requestID: "r-1", sealer: try sealer())
        else {
            Issue.record("a valid profile was refused")
            return
        }
        #expect(
            request.encryptedFields.map(\.pointer).sorted() == [
                "/paymentAccounts/0/cardNumber", "/paymentAccounts/0/securityCode", "/paymentAccounts/1/cardNumber",
            ])
        #expect(request.header.context.isEmpty && request.header.tenderType == nil)
        let wire = String(decoding: request.json, as: UTF8.self)
        #expect(!wire.contains("4111111111111111") && !wire.contains("6006491234567890"))
        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-1")
        #expect(try validator.accept(IncomingRequest(json: request.json), opener: opener).report.valid)
    }

    @Test func anInvalidRequestIsNeverSealedNorEnveloped() throws {
        struct RefusingSealer: FieldSealing {
            func seal(_ field: SensitiveField, associatedData: [UInt8]) throws -> EncryptedField {
                Issue.record("sealed a value of an invalid request")
                throw CancellationError()
            }
        }
        let built = try prepared.makeRequest(
            json: Array(#"{"currency": "EUR", "cardPin": "12"}"#.utf8), requestID: "r", sealer: RefusingSealer())
        guard case .invalid(let report) = built else {
            Issue.record("an invalid request got an envelope")
            return
        }
        #expect(report.errors.map(\.rule) == [.regex, .required])
    }

    /// Each way of tampering with a sealed request, as an edit of its JSON.
    @Test(arguments: [
        ("a flipped ciphertext byte", "ciphertext"),
        ("a changed clear value", "currency"),
        ("another request id", "requestId"),
        ("the value moved to another field", "pointer"),
        ("another context", "context"),
    ])
    func tamperingIsDetected(what: String, edit: String) throws {
        let request = try envelope()
        var object = try #require(try JSONSerialization.jsonObject(with: Data(request.json)) as? [String: Any])
        var fields = try #require(object["encryptedFields"] as? [[String: Any]])
        switch edit {
        case "ciphertext":
            let text = try #require(fields[0]["ciphertext"] as? String)
            var bytes = try #require(Data(base64Encoded: text))
            bytes[bytes.startIndex] ^= 0x01
            fields[0]["ciphertext"] = bytes.base64EncodedString()
        case "currency":
            object["values"] = ["programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "GBP"]
        case "requestId":
            object["requestId"] = "req-2"
        case "pointer":
            fields[0]["pointer"] = "/externalId"
        default:
            object["context"] = ["region": "US"]
        }
        object["encryptedFields"] = fields
        let tampered = try JSONSerialization.data(withJSONObject: object)
        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-1")
        let error = try #require(throws: EnvelopeError.self, "\(what)") {
            try validator.accept(IncomingRequest(json: [UInt8](tampered)), opener: opener)
        }
        #expect(error.code == .tampered, "\(what): \(error)")
        #expect(!error.message.contains(pin))
    }

    @Test func aValueSealedToAnotherKeyDoesNotOpen() throws {
        let request = try envelope()
        let stranger = HPKEFieldOpener(privateKey: Curve25519.KeyAgreement.PrivateKey(), keyID: "gw-1")
        let error = try #require(throws: EnvelopeError.self) {
            try validator.accept(IncomingRequest(json: request.json), opener: stranger)
        }
        #expect(error.code == .tampered)
        let otherID = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-2")
        #expect(throws: EnvelopeError.self) {
            try validator.accept(IncomingRequest(json: request.json), opener: otherID)
        }
    }

    @Test func aGatewayRefusesASealedValueForAFieldThatIsSentInClear() throws {
        // A sender with the public key seals a value for /currency: it opens, but it has no place there.
        let sealer = try sealer()
        let fake = try prepared.makeRequest(
            json: payload, requestID: "req-1", sealer: PointerSwappingSealer(inner: sealer, pointer: "/currency"))
        guard case .valid(let request) = fake else { return }
        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-1")
        #expect(throws: EnvelopeError.self) {
            try validator.accept(IncomingRequest(json: request.json), opener: opener)
        }
    }

    @Test func envelopeErrorsSayWhatIsWrongAndKeepTheCallErrorBehindThem() throws {
        let opener = HPKEFieldOpener(privateKey: gatewayKey, keyID: "gw-1")
        let malformed = try #require(throws: EnvelopeError.self) {
            try IncomingRequest(json: Array("{\"values\": {}}".utf8))
        }
        #expect(malformed.code == .encoding && malformed.cause == nil)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(try envelope().json)) as? [String: Any])
        object["context"] = ["region": "Mars"]
        let body = [UInt8](try JSONSerialization.data(withJSONObject: object))
        let error = try #require(throws: EnvelopeError.self) {
            try validator.accept(IncomingRequest(json: body), opener: opener)
        }
        #expect(error.code == .invalidContextValue)
        #expect(error.cause?.code == .invalidContextValue)
        #expect(error.message == error.cause?.message)
    }

    @Test func fingerprintsTellValuesApartWithoutRevealingThem() throws {
        let key = Data((0..<32).map { UInt8($0) })
        let fingerprinted = prepared.fingerprinting(with: try HMACFingerprinter(key: key))
        func fingerprint(_ pin: String) -> String? {
            fingerprinted.validate(json: Array(#"{"programName": "P", "currency": "EUR", "cardPin": "\#(pin)"}"#.utf8))
                .errors.first?.fingerprint
        }
        let first = try #require(fingerprint("12a4"))
        #expect(first.hasPrefix("hmac:") && first.count == 21)
        #expect(fingerprint("12a4") == first)
        #expect(fingerprint("12b4") != first)
        #expect(!first.contains("12a4"))
        let otherKey = prepared.fingerprinting(with: try HMACFingerprinter(key: Data(repeating: 7, count: 32)))
        #expect(
            otherKey.validate(json: Array(#"{"programName": "P", "currency": "EUR", "cardPin": "12a4"}"#.utf8)).errors
                .first?.fingerprint != first)
        #expect(throws: FingerprintKeyError.tooShort(4)) { try HMACFingerprinter(key: Data([1, 2, 3, 4])) }
        // Without a fingerprinter, no fingerprint.
        #expect(
            prepared.validate(json: Array(#"{"programName": "P", "currency": "EUR", "cardPin": "12a4"}"#.utf8)).errors
                .first?.fingerprint == nil)
    }
}

/// Seals honestly but claims another place for the value, as a hostile client could.
private struct PointerSwappingSealer: FieldSealing {
    let inner: HPKEFieldSealer
    let pointer: String

    func seal(_ field: SensitiveField, associatedData: [UInt8]) throws -> EncryptedField {
        let text = String(decoding: associatedData, as: UTF8.self).replacingOccurrences(
            of: "\n\(field.pointer)\n", with: "\n\(pointer)\n")
        var sealed = try inner.seal(
            SensitiveField(pointer: pointer, json: field.json), associatedData: Array(text.utf8))
        sealed.pointer = pointer
        return sealed
    }
}
