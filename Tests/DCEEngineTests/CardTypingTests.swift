import DCEForms
import Testing

@testable import DCEEngine

/// The brand a form shows while a card number is typed, as the networks' ranges allow (braintree's
/// credit-card-type and card-validator behave so; CardBrandTablesTests holds their tables): a brand as soon as only
/// one can still match, none but the candidates while several remain, and invalid as soon as none can.
@Suite struct CardTypingTests {
    private let brands = ReferenceData.bundled.cardBrands

    /// What the digits typed say: the brand shown, the candidates (in the data's order) and the state of the number
    /// in payment-account's `/cardNumber` (format `card-number`, 12 to 19 characters, no tender type).
    private static let table: [(typed: String, brand: String?, candidates: [String], state: InputVerdict)] = [
        ("4", nil, ["visa", "maestro", "elo"], .incomplete),  // Visa's 4, or Elo's 401178 …, Maestro's 493698
        ("41", "visa", ["visa"], .incomplete),
        ("43", nil, ["visa", "elo"], .incomplete),  // Elo's 431274 and 438935
        ("27", "mastercard", ["mastercard"], .incomplete),  // only 2221–2720 starts so
        ("272", "mastercard", ["mastercard"], .incomplete),
        ("2721", nil, [], .invalid(.format)),  // past 2720, and no other brand
        ("22", nil, ["mastercard", "mir"], .incomplete),  // no prefix whole yet
        ("220", "mir", ["mir"], .incomplete),
        ("3", nil, ["american-express", "diners-club", "jcb", "hipercard"], .incomplete),
        ("34", "american-express", ["american-express"], .incomplete),
        ("38", nil, ["diners-club", "hipercard"], .incomplete),  // Hipercard's 384100 inside 38
        ("5", nil, ["mastercard", "maestro", "elo", "verve", "naranja"], .incomplete),
        ("50", nil, ["maestro", "elo", "verve"], .incomplete),  // Maestro's 50, Elo's 504175, Verve's 506099 …
        ("65", nil, ["discover", "elo", "troy"], .incomplete),  // Discover's 65, Elo's 650031 …, Troy's 650052 …
        ("62", nil, ["unionpay", "maestro", "elo"], .incomplete),  // Maestro's 62183 between UnionPay's ranges
        ("6", nil, ["discover", "unionpay", "maestro", "elo", "hiper", "hipercard", "troy"], .incomplete),
        ("6011", "discover", ["discover"], .incomplete),
        ("6012", "maestro", ["maestro"], .incomplete),  // Maestro's 60-69 hold what no other network's range does
        ("9", "troy", ["troy"], .incomplete),
        ("91", nil, [], .invalid(.format)),
        ("1", "jcb", ["jcb"], .incomplete),  // JCB's 1800
        ("19", nil, [], .invalid(.format)),
        ("123", nil, [], .invalid(.format)),
        ("7", nil, [], .invalid(.format)),
        ("4111 1111 1111 1111", "visa", ["visa"], .valid),
        ("4111111111111111", "visa", ["visa"], .valid),
        ("4111111111111112", "visa", ["visa"], .incomplete),  // a Visa number may still grow to 19 digits
        ("41111111111111111111", "visa", ["visa"], .invalid(.maxLength)),  // 20: the field's maximum is 19
        ("378282246310005", "american-express", ["american-express"], .valid),
        ("3782822463100051", "american-express", ["american-express"], .invalid(.format)),
        ("5555555555554444", "mastercard", ["mastercard"], .valid),
        ("2221000000000009", "mastercard", ["mastercard"], .valid),
        ("6011111111111117", "discover", ["discover"], .valid),
        ("62000000000000", "unionpay", ["unionpay"], .valid),  // 14 digits, and no check digit: UnionPay's rules
        ("6200000000000", "unionpay", ["unionpay"], .incomplete),  // 13
        ("1234567812345670", nil, [], .invalid(.format)),  // a valid check digit, but no brand's number
    ]

    @Test(arguments: table.indices) func theBrandShownAndTheCandidatesFollowTheRanges(row: Int) {
        let (typed, brand, candidates, _) = Self.table[row]
        let typing = brands.typing(typed)
        #expect(typing.brand?.id == brand, "\(typed)")
        #expect(typing.candidates.map(\.id) == candidates, "\(typed)")
    }

    @Test(arguments: table.indices) func theStateFollowsTheCandidatesLengthsAndCheckDigit(row: Int) throws {
        let (typed, brand, candidates, state) = Self.table[row]
        let form = try Validator().prepare("payment-account")
        let feedback = try form.inputFeedback(typed, at: "/cardNumber")
        #expect(feedback.verdict == state, "\(typed)")
        #expect(feedback.cardBrand?.id == brand, "\(typed)")
        #expect(feedback.cardBrands?.map(\.id) == candidates, "\(typed)")
    }

    /// Before a digit is typed every brand is possible and none is shown.
    @Test func nothingTypedLeavesEveryBrandPossible() {
        let typing = brands.typing("")
        #expect(typing.brand == nil && typing.candidates.map(\.id) == brands.brands.map(\.id))
    }

    /// Validation agrees with typing: a complete number of no known brand is not a card number of this format, as
    /// the form showed it invalid from its first digit; free text still hides such a number (it may be a brand the
    /// data does not know yet).
    @Test func validationRefusesANumberOfNoKnownBrandThatMaskingStillHides() throws {
        let form = try Validator().prepare("payment-account")
        let report = form.validate(json: Array(#"{"cardNumber": "1234567812345670"}"#.utf8))
        #expect(report.errors.contains { $0.path == "/cardNumber" && $0.rule == .format })
        #expect(Masking.isCardNumber("1234567812345670"))
        #expect(Redactor(sensitiveKeys: []).redact("card 1234567812345670 here") == "card •••• •••• •••• 5670 here")
    }
}
