import Foundation
import Testing

/// `dce-validate check-input` from the outside: the three verdicts and their exit statuses, standard input, both
/// formats, usage errors, and bindings on the way to the field.
@Suite(.serialized) struct CheckInputCommandTests {
    private let card = ["check-input", "--schema", "payment-account", "--tender-type", "credit", "--field", "/cardNumber"]

    @Test func theThreeVerdictsAndTheirExitStatuses() throws {
        let incomplete = try CLI.run(card + ["4111"])
        #expect(incomplete.status == 1 && incomplete.out == "/cardNumber: incomplete\n")
        let valid = try CLI.run(card + ["4111111111111111"])
        #expect(valid.status == 0 && valid.out == "/cardNumber: valid\n")
        let invalid = try CLI.run(card + ["41x1"])
        #expect(invalid.status == 1 && invalid.out == "/cardNumber: invalid [format]\n")
        // Credit card numbers have at most 16 digits here: a 17th cannot be taken back by typing more.
        #expect(try CLI.run(card + ["41111111111111111"]).out == "/cardNumber: invalid [maxLength]\n")
    }

    @Test func standardInputAndJSON() throws {
        let json = try CLI.run(card + ["--format", "json", "-"], stdin: Data("4111111111111111\n".utf8))
        #expect(json.status == 0)
        #expect(json.out == #"{"field":"/cardNumber","state":"valid"}"# + "\n")
        let invalid = try CLI.run(card + ["--format", "json", "-"], stdin: Data("41x1\r\n".utf8))
        #expect(invalid.out == #"{"field":"/cardNumber","state":"invalid","rule":"format"}"# + "\n")
        let binary = try CLI.run(card + ["-"], stdin: Data([0xFF, 0x34]))
        #expect(binary.status == 2 && binary.err.contains("standard input is not UTF-8 text"))
    }

    @Test func theBindingsOnTheWayToTheFieldApply() throws {
        let billing = try CLI.run(["check-input", "--schema", "customer-profile", "--field", "/paymentAccounts/-/billingAddress/zipCode", "12345"])
        #expect(billing.out == "/paymentAccounts/-/billingAddress/zipCode: incomplete\n")
        let profile = try CLI.run(["check-input", "--schema", "customer-profile", "--field", "/profileAddress/zipCode", "12345"])
        #expect(profile.status == 0)
        let ios = try CLI.run(["check-input", "--schema", "card-tokenize", "--context", "platform=ios", "--field", "/walletType", "GOOGLE_PAY"])
        #expect(ios.out == "/walletType: invalid [enum]\n")
    }

    @Test func usageErrorsExitTwo() throws {
        let field = try CLI.run(["check-input", "--schema", "payment-account", "--field", "/nope", "1"])
        #expect(field.status == 2 && field.err.contains("has no field at '/nope'"))
        #expect(try CLI.run(card + ["--tender-type", "paypal", "1"]).status == 2)
        #expect(try CLI.run(["check-input", "--schema", "nope", "--field", "/a", "1"]).status == 2)
        #expect(try CLI.run(["check-input", "--schema", "payment-account", "1"]).status == 2)
    }
}
