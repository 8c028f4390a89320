public import DCEEngine

/// A request to add a card to a mobile wallet (`CardTokenizationRequest`, seed 002), validated by the
/// `card-tokenize` schema with the card's scheme as the `scheme` context and the device's as `platform`.
public struct CardTokenizationRequest: ValidatableRequest, Codable, Hashable {
    /// `card-tokenize`.
    public static let schemaID = "card-tokenize"

    /// The wallets a card can be tokenized for: seed 002's ``MobileWalletType``, which the tokenization status and a
    /// card's tokenizations use too (the `card-tokenize` schema accepts `APPLE_PAY`, `GOOGLE_PAY` and `SAMSUNG_PAY`).
    public typealias WalletType = MobileWalletType

    /// The wallet; on iOS it may be left out, and is then Apple Pay (seed 002's iOS sample sends none).
    public var walletType: WalletType?
    /// The device id (required for VISA cards with Google Pay or Samsung Pay).
    public var clientDeviceId: String?
    /// The wallet account id (required for VISA cards with Google Pay or Samsung Pay).
    public var clientWalletAccountId: String?
    /// Apple Pay's leaf certificate: hex, base64 or PEM.
    public var leafCertificate: String?
    /// Apple Pay's subordinate certificate: hex, base64 or PEM.
    public var subordinateCertificate: String?
    /// Apple Pay's nonce: hex or base64.
    public var nonce: String?
    /// Apple Pay's nonce signature: hex or base64.
    public var nonceSignature: String?

    /// Creates a request; `nil` members are left out of the JSON.
    ///
    /// - Parameters:
    ///   - walletType: The wallet (on iOS, `nil` means Apple Pay).
    ///   - clientDeviceId: The device id.
    ///   - clientWalletAccountId: The wallet account id.
    ///   - leafCertificate: The leaf certificate.
    ///   - subordinateCertificate: The subordinate certificate.
    ///   - nonce: The nonce.
    ///   - nonceSignature: The nonce signature.
    public init(
        walletType: WalletType? = nil, clientDeviceId: String? = nil, clientWalletAccountId: String? = nil,
        leafCertificate: String? = nil, subordinateCertificate: String? = nil, nonce: String? = nil,
        nonceSignature: String? = nil
    ) {
        self.walletType = walletType
        self.clientDeviceId = clientDeviceId
        self.clientWalletAccountId = clientWalletAccountId
        self.leafCertificate = leafCertificate
        self.subordinateCertificate = subordinateCertificate
        self.nonce = nonce
        self.nonceSignature = nonceSignature
    }
}
