import Foundation
import Testing

/// `--with ID=FILE`: references into another document, from the outside.
struct RelatedDocumentTests {
    private let arts = "card-arts-response=Examples/card-arts-response/valid-seed-example.json"

    @Test func aGiftCardWhoseArtIsMissingFails() throws {
        let result = try CLI.run([
            "Examples/gift-cards-response/valid-seed-example.json", "Examples/gift-cards-response/valid-minimal.json",
            "--schema", "gift-cards-response", "--with", arts,
        ])
        #expect(result.status == 1)
        #expect(
            result.out == """
                Examples/gift-cards-response/valid-minimal.json:6:20: error: /0/value/cardArtId: Card art id has no match in card-arts-response at /*/cardArtId [existsIn]
                invalid: 2 payloads checked against gift-cards-response, 1 valid, 1 invalid, 1 error

                """)
        let unchecked = try CLI.run([
            "Examples/gift-cards-response/valid-minimal.json", "--schema", "gift-cards-response",
        ])
        #expect(unchecked.status == 0)
    }

    /// Seed 002: a card is created "based on the provided programName", a program retrieved from the customer's
    /// eligible programs; given those (`--with card-programs-response=FILE`), a program not among them is refused.
    @Test func aCardOfAProgramTheCustomerIsNotEligibleForFails() throws {
        let programs = "card-programs-response=Examples/card-programs-response/valid-eligible.json"
        let eligible = try CLI.run([
            "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--with", programs,
        ])
        #expect(eligible.status == 0, "\(eligible.out)")
        let none = try CLI.run([
            "Examples/card-create/valid-eu-virtual.json", "--schema", "card-create", "--with",
            "card-programs-response=Examples/card-programs-response/valid-not-eligible.json",
        ])
        #expect(none.status == 1)
        // Eligible, but with no card of the program left to issue (allowableCards 0).
        let exhausted = try CLI.run([
            "Examples/card-create/valid-eu-physical.json", "--schema", "card-create", "--with", programs,
        ])
        #expect(exhausted.status == 1)
        #expect(
            exhausted.out.contains(
                "/programName: Program name is in card-programs-response at /programs/*/programName, but there its allowableCards is less than 1 [existsIn]"
            ), "\(exhausted.out)")
        #expect(
            none.out.hasPrefix(
                "Examples/card-create/valid-eu-virtual.json:2:18: error: /programName: Program name has no match in card-programs-response at /programs/*/programName [existsIn]"
            ), "\(none.out)")
    }

    @Test func aBadOtherDocumentExitsTwo() throws {
        let unknown = try CLI.run([
            "Examples/gift-cards-response/valid-minimal.json", "--schema", "gift-cards-response",
            "--with", "card-list-response=Examples/card-arts-response/valid-seed-example.json",
        ])
        #expect(
            unknown.status == 2
                && unknown.err.contains("'gift-cards-response' refers to no document of 'card-list-response'"))
        let malformed = try CLI.run([
            "Examples/gift-cards-response/valid-minimal.json", "--schema", "gift-cards-response",
            "--with", "card-arts-response=Examples/card-create/invalid-json-trailing-comma.json",
        ])
        #expect(
            malformed.status == 2
                && malformed.err.contains("invalid-json-trailing-comma.json:4:1: not well-formed JSON"),
            "\(malformed.err)")
        let missing = try CLI.run([
            "Examples/gift-cards-response/valid-minimal.json", "--schema", "gift-cards-response", "--with",
            "card-arts-response",
        ])
        #expect(missing.status == 2 && missing.err.contains("--with takes KEY=VALUE"))
    }
}
