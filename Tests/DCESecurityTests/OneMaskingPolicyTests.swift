import DCEEngine
import DCEForms
import DCELogging
import DCEModels
import Foundation
import Logging
import Testing

/// One masking policy (`Masking`): a card number shows the same masked form in every output that shows it — the
/// masked copy, the as-you-type feedback, the log redactor and handler, `Masking.mask`, `CardBrands.masked` and the
/// typed models — and one test says what a card number is. (`dce-validate mask` has its part in
/// DCEValidateCLITests, `MaskCommandTests`.)
struct OneMaskingPolicyTests {
    /// Card numbers of several brands and lengths, as typed (with and without spaces or dashes), and the one masked
    /// form each must show.
    static let cards: [(number: String, masked: String)] = [
        ("4111111111111111", "•••• •••• •••• 1111"),  // Visa, 16 digits
        ("4111 1111 1111 1111", "•••• •••• •••• 1111"),
        ("4222222222222", "•••• •••• •2222"),  // Visa, 13 digits: 4-4-5
        ("4222-2222-22222", "•••• •••• •2222"),
        ("378282246310005", "•••• •••••• •0005"),  // American Express, 15 digits: 4-6-5
        ("3782 822463 10005", "•••• •••••• •0005"),
        ("5555555555554444", "•••• •••• •••• 4444"),  // Mastercard
        ("5555-5555-5555-4444", "•••• •••• •••• 4444"),
        ("4111111111111111110", "•••• •••• •••• •••1 110"),  // Visa, 19 digits: 4-4-4-4-3
        ("6011 0000 0000 0000 001", "•••• •••• •••• •••0 001"),  // Discover, 19 digits
        ("1234567812345670", "•••• •••• •••• 5670"),  // no known brand, passes the Luhn check
    ]

    @Test func everyOutputShowsACardNumberInTheOneMaskedForm() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["payment-account", "card-details-response"])
        let prepared = try validator.prepare("payment-account", tenderType: "credit")
        let brands = try ReferenceData.load(from: .bundled).cardBrands
        let redactor = Redactor(validator: validator)
        let captured = Captured()
        let logger = Logger(label: "policy") { _ in
            RedactingLogHandler(wrapping: CapturingHandler(captured: captured), redactor: redactor)
        }
        let emptyDraft = try JSONDocument(bytes: Array("{}".utf8))
        for (number, expected) in Self.cards {
            #expect(Masking.isCardNumber(number), "\(number)")
            #expect(Masking.maskCardNumber(number) == expected, "\(number)")
            #expect(!expected.contains(String(number.prefix(6))))

            // The masked copy: a maskingRequired card number field, and a free-text field holding one.
            let payload = #"{"cardNumber": "\#(number)", "nickname": "\#(number)"}"#
            let copy = String(decoding: try prepared.masked(json: Array(payload.utf8)), as: UTF8.self)
            #expect(copy == #"{"cardNumber": "\#(expected)", "nickname": "\#(expected)"}"#)

            // The as-you-type feedback, with and without the form's draft.
            #expect(try prepared.inputFeedback(number, at: "/cardNumber").masked == expected, "\(number)")
            #expect(try prepared.inputFeedback(number, at: "/cardNumber", draft: emptyDraft).masked == expected)

            // The log redactor on a line, and the log handler's message and metadata.
            #expect(redactor.redact("declined card \(number) at 10:42") == "declined card \(expected) at 10:42")
            #expect(Redactor(sensitiveKeys: []).redact("[\(number)]") == "[\(expected)]")
            logger.info("declined card \(number)", metadata: ["note": "card \(number)"])
            #expect(captured.lines.last == "declined card \(expected) note=card \(expected)")

            // The public masking calls and the typed models.
            #expect(Masking.mask(number) == expected)
            #expect(brands.masked(number) == expected)
            #expect(PaymentAccount(cardNumber: SensitiveString(number)).maskedCardNumber == expected)
            let details = try JSONDecoder().decode(
                CardSensitiveDetails.self, from: Data(#"{"pan": "\#(number)", "cvv": "123", "expiry": "09/29"}"#.utf8))
            #expect(details.maskedPAN == expected)
        }
    }

    /// The one test: not a card number with 11 or 20 digits (both passing the Luhn check), nor 16 digits of no brand
    /// that fail it, nor a Visa number failing its check digit; such values are masked as any other text.
    @Test func theOneTestSaysWhatIsNotACardNumber() throws {
        for text in [
            "12345678903", "12345678901234567894", "41111111111111111115", "1234567812345678", "4111111111111112",
        ] {
            #expect(!Masking.isCardNumber(text), "\(text)")
            #expect(!Redactor.containsCardNumber(text), "\(text)")
            #expect(Redactor(sensitiveKeys: []).redact("id \(text)") == "id \(text)")
        }
        #expect(!Masking.isCardNumber("4111  1111 1111 1111") && !Masking.isCardNumber("4111 1111 1111 1111 "))
        #expect(Masking.mask("12345678903") == "•••••••••••")
        #expect(Masking.mask("1234567812345678") == "••••••••••••5678")
        #expect(Masking.mask("4111111111111112") == "••••••••••••1112")
        // Fewer than 12 digits typed: every digit hidden, in the brand's groups.
        #expect(Masking.maskCardNumber("3782 822463") == "•••• ••••••")
        #expect(Masking.hide("8264") == "••••")
    }
}
