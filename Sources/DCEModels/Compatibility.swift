// What the generated models (Generated/, from Schemas/) cannot say themselves: names the API had before the models
// were generated, kept so that code written against them still builds.

extension GiftCardsResponse {
    /// The gift cards: ``elements``, by the name this type's member had.
    public var entries: [GiftCardEntry] { elements }
}

extension CardArtsResponse {
    /// The card arts: ``elements``, by the name this type's member had.
    public var arts: [CardArt] { elements }
}

extension CardSensitiveDetails {
    /// The card number as the masking policy shows it: ``maskedPan``, by the name it had.
    public var maskedPAN: String { maskedPan }
}

extension CardTokenizationRequest {
    /// The wallet types: the card-tokenize schema's `walletType` options are ``MobileWalletType``'s.
    public typealias WalletType = MobileWalletType
}
