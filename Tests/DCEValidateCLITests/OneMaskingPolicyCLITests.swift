import DCEEngine
import Foundation
import Testing

/// The one masking policy from the outside: `mask` and `check-input` print each card number in the one masked form
/// (`Masking.maskCardNumber`), whatever its brand, length or spacing; the API's outputs are in DCESecurityTests,
/// `OneMaskingPolicyTests`.
struct OneMaskingPolicyCLITests {
    static let cards: [(number: String, masked: String)] = [
        ("4111111111111111", "•••• •••• •••• 1111"),  // Visa, 16 digits
        ("4222-2222-22222", "•••• •••• •2222"),  // Visa, 13 digits
        ("3782 822463 10005", "•••• •••••• •0005"),  // American Express
        ("5555555555554444", "•••• •••• •••• 4444"),  // Mastercard
        ("4111 1111 1111 1111 110", "•••• •••• •••• •••1 110"),  // Visa, 19 digits
    ]

    @Test func maskAndCheckInputPrintTheOneMaskedForm() throws {
        for (number, expected) in Self.cards {
            #expect(Masking.maskCardNumber(number) == expected && Masking.isCardNumber(number))
            let copy = try CLI.run(
                ["mask", "-", "--schema", "payment-account", "--tender-type", "credit"],
                stdin: Data(#"{"cardNumber": "\#(number)", "nickname": "\#(number)"}"#.utf8))
            #expect(copy.status == 0)
            #expect(copy.out == #"{"cardNumber": "\#(expected)", "nickname": "\#(expected)"}"#, "\(copy.err)")
            let typed = try CLI.run(
                ["check-input", "--schema", "payment-account", "--field", "/cardNumber", "--format", "json", "-"],
                stdin: Data(number.utf8))
            let feedback = try JSONSerialization.jsonObject(with: Data(typed.out.utf8)) as? [String: Any]
            #expect(feedback?["masked"] as? String == expected, "\(typed.out)")
        }
    }
}
