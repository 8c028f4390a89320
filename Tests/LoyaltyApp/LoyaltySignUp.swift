package import DCEEngine
import DCEModels

/// What an app with schemas of its own writes: its models are generated from `Schemas/` when the target builds (the
/// DCEModelsGenerator plugin, `dce-models.json`), and a request made of them is validated before it is sent.
package struct LoyaltySignUp: Sendable {
    let validator: Validator

    /// A sign-up over the loyalty schemas.
    ///
    /// - Parameter validator: A validator of `Schemas/` beside this file.
    package init(validator: Validator) {
        self.validator = validator
    }

    /// The enrolment a sign-up form makes: a member, an address, the tier chosen and the card the points go to.
    ///
    /// - Parameters:
    ///   - givenName: The member's given name.
    ///   - familyName: The member's family name.
    ///   - city: Where the statements go.
    ///   - card: The card number, as typed.
    /// - Returns: The request.
    package static func enrolment(givenName: String, familyName: String, city: String, card: String?)
        -> LoyaltyEnrolment
    {
        LoyaltyEnrolment(
            member: .init(givenName: givenName, familyName: familyName, contact: .init(preferredChannel: .email)),
            tier: .gold, interests: [.travel, .dining],
            addresses: [PostalAddress(line1: "1 Main Street", city: city, countryCode: "GB")],
            cardNumber: card.map { SensitiveString($0) }, marketingConsent: false)
    }

    /// Checks an enrolment for a tender type.
    ///
    /// - Parameters:
    ///   - enrolment: The enrolment.
    ///   - tenderType: `loyalty` or `cobrand` (whose card number is required).
    /// - Returns: The report.
    /// - Throws: ``ValidatorError`` when the tender type is unknown.
    package func check(_ enrolment: LoyaltyEnrolment, tenderType: String) throws -> ValidationReport {
        try validator.validate(enrolment, tenderType: tenderType)
    }
}
