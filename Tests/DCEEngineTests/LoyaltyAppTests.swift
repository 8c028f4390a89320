import DCEModels
import DCESwiftGeneration
import Foundation
import LoyaltyApp
import Testing

@testable import DCEEngine

/// A schema folder the project never shipped (Tests/LoyaltyApp/Schemas), whose models the DCEModelsGenerator plugin
/// generates as the LoyaltyApp target builds: they compile under the package's settings, the app's code uses them,
/// and they are what the schemas say.
struct LoyaltyAppTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LoyaltyApp/Schemas")
    static let validator = try! Validator(source: .directory(folder))

    @Test func theAppsCodeValidatesItsRequestForEachTenderType() throws {
        let signUp = LoyaltySignUp(validator: Self.validator)
        let withoutCard = LoyaltySignUp.enrolment(givenName: "Ana", familyName: "Ivanova", city: "Leeds", card: nil)
        #expect(try signUp.check(withoutCard, tenderType: "loyalty").valid)
        // A co-branded card's number is required (the field's tender-type override).
        let cobrand = try signUp.check(withoutCard, tenderType: "cobrand")
        #expect(cobrand.errors.map { "\($0.path) \($0.rule)" } == ["/cardNumber required"])
        let withCard = LoyaltySignUp.enrolment(
            givenName: "Ana", familyName: "Ivanova", city: "Leeds", card: "4111111111111111")
        #expect(try signUp.check(withCard, tenderType: "cobrand").valid)
        let badCard = LoyaltySignUp.enrolment(
            givenName: "Ana", familyName: "Ivanova", city: "Leeds", card: "4111111111111112")
        #expect(try signUp.check(badCard, tenderType: "cobrand").errors.map(\.rule.rawValue) == ["format"])
    }

    /// The generated types have the shapes the schemas give: nested objects in their parents, the shared
    /// definition and the shared options once, the key that is no Swift name renamed, the keyword escaped.
    @Test func theGeneratedTypesAreWhatTheSchemasSay() throws {
        let members = try SwiftModelGenerator(configuration: .init(accessLevel: .package)).members(
            from: .directory(Self.folder))
        #expect(
            Set(members.keys) == [
                "LoyaltyEnrolment", "Member", "Contact", "PreviousCardsItem", "PostalAddress", "LoyaltyStatement",
            ])
        #expect(
            members["LoyaltyEnrolment"]!.map { "\($0.name): \($0.type)" } == [
                "member: Member", "tier: LoyaltyTier", "interests: Optional<Array<InterestsItem>>",
                "addresses: Array<PostalAddress>", "previousCards: Optional<Array<PreviousCardsItem>>",
                "cardNumber: Optional<SensitiveString>", "points: Optional<Int>", "balance: Optional<Double>",
                "marketingConsent: Optional<Bool>", "default: Optional<Bool>",
            ])
        #expect(members["PostalAddress"]!.map(\.name) == ["line1", "city", "countryCode"])
        #expect(members["LoyaltyStatement"]!.map(\.type).contains("Optional<PostalAddress>"))
        // One open enum for both schemas' tiers: the statement's PLATINUM joins the enrolment's options.
        #expect(LoyaltyTier.allKnownCases.map(\.rawValue) == ["BRONZE", "SILVER", "GOLD", "PLATINUM"])
        #expect(LoyaltyTier(rawValue: "UNKNOWN") == .unknown("UNKNOWN"))
        #expect(LoyaltyEnrolment.Member.Contact.PreferredChannel.allKnownCases == [.sms, .email, .post])

        let statement = try JSONDecoder().decode(
            LoyaltyStatement.self,
            from: Data(#"{"memberId": "m-1", "tier": "DIAMOND", "points": 7, "sentTo": null, "extra": 1}"#.utf8))
        #expect(statement.tier == .unknown("DIAMOND") && statement.sentTo == nil)
    }

    /// Payloads of every kind, valid and not, validated as typed requests and as the JSON of the same request.
    @Test(arguments: [
        // Valid as a loyalty enrolment, and a co-branded one without its card number.
        #"{"member": {"givenName": "Ana", "familyName": "Ivanova"}, "tier": "GOLD", "addresses": [{"line1": "1 Main St", "city": "Leeds", "country-code": "GB"}]}"#,
        #"{"member": {"givenName": "", "familyName": "Ivanova", "contact": {"phone": "12", "preferredChannel": "FAX"}}, "tier": "TIN", "addresses": []}"#,
        #"{"member": {"givenName": "Ana", "familyName": "Ivanova", "contact": null}, "tier": "SILVER", "interests": ["TRAVEL", "DINING", "RETAIL", "TRAVEL"], "addresses": [{"line1": "x", "city": "y", "country-code": "ZZ"}], "previousCards": [{"last4": "12a4", "issuedIn": 1980}], "cardNumber": "4111111111111112", "points": -1, "balance": 2.5, "marketingConsent": true, "default": false}"#,
    ])
    func aTypedRequestIsValidatedAsItsJSON(payload: String) throws {
        let request = try JSONDecoder().decode(LoyaltyEnrolment.self, from: Data(payload.utf8))
        for tenderType in ["loyalty", "cobrand"] {
            let typed = try Self.validator.validate(request, tenderType: tenderType)
            #expect(typed.valid == (payload.contains(#""GOLD""#) && tenderType == "loyalty"), "\(typed.errors.count)")
            let json = try Self.validator.validate(
                json: [UInt8](JSONEncoder().encode(request)), schema: "loyalty-enrolment", tenderType: tenderType)
            #expect(Array(typed.errors) == json.errors.map { Violation.withoutPosition($0) })
            #expect(try Self.validator.isValid(request, tenderType: tenderType) == json.valid)
        }
    }

    @Test func aGeneratedTypeNeverPrintsItsCardNumber() throws {
        let card = "4111111111111111"
        let request = LoyaltySignUp.enrolment(givenName: "Ana", familyName: "Ivanova", city: "Leeds", card: card)
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), dumped] {
            #expect(!text.contains(card) && !text.contains("41111111"), "\(text)")
        }
        #expect(request.maskedCardNumber == Masking.mask(card))
    }
}

extension Violation {
    /// A violation as a typed request's report has it: no line and column.
    static func withoutPosition(_ violation: Violation) -> Violation {
        var copy = violation
        copy.line = nil
        copy.column = nil
        return copy
    }
}
