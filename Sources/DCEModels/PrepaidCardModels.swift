public import DCEEngine

// Models of seed 002 (prepaid cards): requests with public initialisers, responses decoded from the service.

/// The status of a card (seed 002 `CardStatus`), open to statuses a newer service adds (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the status of the card is unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`,
/// as does a status these models do not know, keeping its raw value: either way the app cannot tell the status.
public enum CardStatus: OpenEnum {
    /// `ACTIVE`: active and usable for transactions.
    case active
    /// `APPLIED`: the application is in progress or awaiting approval.
    case applied
    /// `EXPIRED`: expired, no longer valid for use.
    case expired
    /// `DIGITAL`: in a digital format (virtual or electronic).
    case digital
    /// The seed's `UNKNOWN`, or a status these models do not know: the raw value as sent.
    case unknown(String)

    /// The statuses these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [CardStatus] = [.active, .applied, .expired, .digital]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .active: "ACTIVE"
        case .applied: "APPLIED"
        case .expired: "EXPIRED"
        case .digital: "DIGITAL"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The type of a card (seed 002 `CardType`), open to types a newer service adds (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the type of the card is unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`,
/// as does a type these models do not know, keeping its raw value: either way the app cannot tell the type.
public enum CardType: OpenEnum {
    /// `PHYSICAL`: a physical card.
    case physical
    /// `VIRTUAL`: a virtual card.
    case virtual
    /// The seed's `UNKNOWN`, or a type these models do not know: the raw value as sent.
    case unknown(String)

    /// The types these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [CardType] = [.physical, .virtual]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .physical: "PHYSICAL"
        case .virtual: "VIRTUAL"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The scheme of a card (seed 002 `CardScheme`), open to schemes a newer service adds (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the scheme of the card is unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`,
/// as does a scheme these models do not know, keeping its raw value: either way the app cannot tell the scheme.
public enum CardScheme: OpenEnum {
    /// `MC`: Mastercard.
    case mastercard
    /// `VISA`: Visa.
    case visa
    /// The seed's `UNKNOWN`, or a scheme these models do not know: the raw value as sent.
    case unknown(String)

    /// The schemes these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [CardScheme] = [.mastercard, .visa]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .mastercard: "MC"
        case .visa: "VISA"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The type of a mobile wallet (seed 002 `MobileWalletType`), open to wallet types a newer service adds (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the wallet type is unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`, as
/// does a wallet type these models do not know, keeping its raw value: either way the app cannot tell the wallet type.
public enum MobileWalletType: OpenEnum {
    /// `APPLE_PAY`: Apple Pay (the iOS in-app provisioning flow).
    case applePay
    /// `GOOGLE_PAY`: Google Pay.
    case googlePay
    /// `SAMSUNG_PAY`: Samsung Pay.
    case samsungPay
    /// The seed's `UNKNOWN`, or a wallet type these models do not know: the raw value as sent.
    case unknown(String)

    /// The wallet types these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [MobileWalletType] = [.applePay, .googlePay, .samsungPay]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .applePay: "APPLE_PAY"
        case .googlePay: "GOOGLE_PAY"
        case .samsungPay: "SAMSUNG_PAY"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The status of a mobile wallet tokenization (seed 002 `MobileWalletStatus`), open to statuses a newer service adds
/// (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`, as does a status these
/// models do not know, keeping its raw value: either way the app cannot tell the status.
public enum MobileWalletStatus: OpenEnum {
    /// `COMPLETED`: the tokenization request is completed.
    case completed
    /// `INITIATED`: the tokenization request is initiated.
    case initiated
    /// The seed's `UNKNOWN`, or a status these models do not know: the raw value as sent.
    case unknown(String)

    /// The statuses these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [MobileWalletStatus] = [.completed, .initiated]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .completed: "COMPLETED"
        case .initiated: "INITIATED"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// Extra information to include in a card list or card (seed 002 `CardIncludesParam`), open to parameters a newer
/// service adds (``OpenEnum``).
///
/// The seed has no `UNKNOWN` member: a parameter these models do not know decodes to ``unknown(_:)`` with the raw
/// value.
public enum CardIncludesParam: OpenEnum {
    /// `TOKENIZATIONS`: the mobile wallet tokenizations.
    case tokenizations
    /// A parameter these models do not know, with the raw value as sent.
    case unknown(String)

    /// The parameters these models know, in the seed's order.
    public static let allKnownCases: [CardIncludesParam] = [.tokenizations]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .tokenizations: "TOKENIZATIONS"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The network of a tokenized card (seed 002 `CardNetworkType`), open to networks a newer service adds (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the network of the card is unknown or cannot be determined') decodes to
/// `.unknown("UNKNOWN")`, as does a network these models do not know, keeping its raw value: either way the app cannot
/// tell the network.
public enum CardNetworkType: OpenEnum {
    /// `CARD_NETWORK_VISA`: the Visa card network.
    case cardNetworkVisa
    /// `CARD_NETWORK_MASTERCARD`: the Mastercard card network.
    case cardNetworkMastercard
    /// The seed's `UNKNOWN`, or a network these models do not know: the raw value as sent.
    case unknown(String)

    /// The networks these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [CardNetworkType] = [.cardNetworkVisa, .cardNetworkMastercard]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .cardNetworkVisa: "CARD_NETWORK_VISA"
        case .cardNetworkMastercard: "CARD_NETWORK_MASTERCARD"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The token provider of a tokenized card (seed 002 `CardTokenProvider`), open to token providers a newer service adds
/// (``OpenEnum``).
///
/// The seed's `UNKNOWN` ('the token provider is unknown or cannot be determined') decodes to `.unknown("UNKNOWN")`, as
/// does a token provider these models do not know, keeping its raw value: either way the app cannot tell the token
/// provider.
public enum CardTokenProvider: OpenEnum {
    /// `TOKEN_PROVIDER_VISA`: the Visa token provider.
    case tokenProviderVisa
    /// `TOKEN_PROVIDER_MASTERCARD`: the Mastercard token provider.
    case tokenProviderMastercard
    /// The seed's `UNKNOWN`, or a token provider these models do not know: the raw value as sent.
    case unknown(String)

    /// The token providers these models know, in the seed's order (the seed's `UNKNOWN` is ``unknown(_:)``).
    public static let allKnownCases: [CardTokenProvider] = [.tokenProviderVisa, .tokenProviderMastercard]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .tokenProviderVisa: "TOKEN_PROVIDER_VISA"
        case .tokenProviderMastercard: "TOKEN_PROVIDER_MASTERCARD"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// Filters for listing cards (`CardParameters`), validated by `card-list-query`.
public struct CardParameters: ValidatableRequest, Codable, Hashable {
    /// `card-list-query`.
    public static let schemaID = "card-list-query"
    /// Only cards of this type.
    public var cardType: CardType?
    /// At most this many cards.
    public var limit: Int?
    /// Skip this many cards.
    public var offset: Int?
    /// Only cards in these statuses.
    public var status: [CardStatus]?
    /// Extra information to include (`TOKENIZATIONS`).
    public var include: [CardIncludesParam]?

    /// Creates filters; `nil` members are left out.
    ///
    /// - Parameters:
    ///   - cardType: The card type.
    ///   - limit: The page size.
    ///   - offset: The starting position.
    ///   - status: The statuses.
    ///   - include: The extra information.
    public init(
        cardType: CardType? = nil, limit: Int? = nil, offset: Int? = nil, status: [CardStatus]? = nil,
        include: [CardIncludesParam]? = nil
    ) {
        self.cardType = cardType
        self.limit = limit
        self.offset = offset
        self.status = status
        self.include = include
    }
}

/// A card status change or PIN update (`CardUpdateRequest`), validated by `card-update`.
public struct CardUpdateRequest: ValidatableRequest, Codable, Hashable {
    /// `card-update`.
    public static let schemaID = "card-update"
    /// The new status.
    public var status: CardStatus?
    /// Why the status changes.
    public var statusReason: String?
    /// The new 4-digit PIN; never printed.
    public var pin: SensitiveString?

    /// Creates an update; `nil` members are left out.
    ///
    /// - Parameters:
    ///   - status: The new status.
    ///   - statusReason: The reason.
    ///   - pin: The new PIN.
    public init(status: CardStatus? = nil, statusReason: String? = nil, pin: SensitiveString? = nil) {
        self.status = status
        self.statusReason = statusReason
        self.pin = pin
    }
}

/// A tokenization status update (`MobileWallet`), validated by `tokenization-status` with the device's platform as
/// the `platform` context.
public struct MobileWallet: ValidatableRequest, Codable, Hashable {
    /// `tokenization-status`.
    public static let schemaID = "tokenization-status"
    /// The device PAN reference.
    public var dpanRef: String
    /// The Google Pay wallet id.
    public var walletId: String?
    /// The wallet: required but on iOS, where `nil` means Apple Pay (seed 002's Swift sample sends none).
    public var walletType: MobileWalletType?
    /// The new status.
    public var status: MobileWalletStatus

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - dpanRef: The device PAN reference.
    ///   - walletId: The Google Pay wallet id.
    ///   - walletType: The wallet.
    ///   - status: The new status.
    public init(
        dpanRef: String, walletId: String? = nil, walletType: MobileWalletType? = nil, status: MobileWalletStatus
    ) {
        self.dpanRef = dpanRef
        self.walletId = walletId
        self.walletType = walletType
        self.status = status
    }
}

/// A card's tokenization for a mobile wallet (`MobileWalletTokenization`).
public struct MobileWalletTokenization: Codable, Sendable, Hashable {
    /// The device PAN reference.
    public let dpanRef: String
    /// The wallet id (Google Pay).
    public let walletId: String?
    /// The wallet (`APPLE_PAY`, `GOOGLE_PAY`, `SAMSUNG_PAY`, `UNKNOWN`).
    public let walletType: MobileWalletType?
    /// The tokenization's status.
    public let status: MobileWalletStatus?
}

/// A prepaid card (`Card`), validated by `card-response`.
public struct Card: ValidatableRequest, Codable, Hashable {
    /// `card-response`.
    public static let schemaID = "card-response"
    /// The card id.
    public let cardId: String
    /// The status.
    public let status: CardStatus
    /// The expiry.
    public let expiry: String?
    /// The last four digits of the card number.
    public let lastFour: String?
    /// The first six to eight digits of the card number.
    public let bin: String?
    /// The customer id.
    public let customerId: String?
    /// The card type.
    public let cardType: CardType?
    /// The program name.
    public let programName: String?
    /// The ISO 4217 currency code.
    public let currency: String?
    /// The mobile phone number.
    public let mobile: String?
    /// The delivery address.
    public let deliveryAddress: DeliveryAddress?
    /// When the card was created (ISO 8601).
    public let createdDate: String?
    /// The account id.
    public let accountId: String?
    /// The scheme.
    public let scheme: CardScheme?
    /// When the card was activated (ISO 8601).
    public let activationDate: String?
    /// Whether a PIN is set.
    public let isPinSet: Bool?
    /// The merchant's identifier.
    public let externalId: String?
    /// Mobile wallet tokenizations (with `include=TOKENIZATIONS`).
    public let tokenizations: [MobileWalletTokenization]?
}

/// A program the customer may have a card of (an element of seed 002's `getPrograms()` `programs`).
public struct CardProgram: Codable, Sendable, Hashable {
    /// What ``CardRequest/programName`` takes (`SKRILL-VIRTUAL-MC-EEA`).
    public let programName: String
    /// The program type the list can be filtered by.
    public let cardType: CardType?
    /// The ISO 4217 currency code.
    public let currency: String?
    /// How many more cards of the program may be issued: 0 for none.
    public let allowableCards: Int
}

/// The customer's eligible prepaid card programs (seed 002, `cardService.getPrograms()`), validated by
/// `card-programs-response`: empty when the customer is eligible for none.
public struct CardProgramsResponse: ValidatableRequest, Codable, Hashable {
    /// `card-programs-response`.
    public static let schemaID = "card-programs-response"
    /// The programs.
    public let programs: [CardProgram]
}

/// Paging information of a card list (`PagingResultMeta`).
public struct PagingResultMeta: Codable, Sendable, Hashable {
    /// The total number of records.
    public let numberOfRecords: Int
    /// The page size.
    public let limit: Int
    /// The current page.
    public let page: Int
}

/// A page of cards (`CardList`), validated by `card-list-response`.
public struct CardList: ValidatableRequest, Codable, Hashable {
    /// `card-list-response`.
    public static let schemaID = "card-list-response"
    /// The cards.
    public let cards: [Card]
    /// The paging information.
    public let meta: PagingResultMeta?
}

/// The card holder details of a tokenization.
public struct TokenizationCustomer: Codable, Sendable, Hashable {
    /// Address line 1.
    public let address1: String?
    /// Address line 2.
    public let address2: String?
    /// Address line 3.
    public let address3: String?
    /// The city.
    public let city: String?
    /// The ISO 3166-1 alpha-2 country code.
    public let countryCode: String?
    /// The state.
    public let state: String?
    /// The postal code.
    public let postalCode: String?
    /// The name.
    public let name: String?
    /// The mobile phone number.
    public let mobile: String?
}

/// What a wallet needs to add a card (`CardTokenization`), validated by `card-tokenization-response`.
public struct CardTokenization: ValidatableRequest, Codable, Hashable {
    /// `card-tokenization-response`.
    public static let schemaID = "card-tokenization-response"
    /// Activation data (base64).
    public let activationData: String?
    /// Apple Pay's encrypted pass data (base64).
    public let encryptedPassData: String?
    /// Apple Pay's ephemeral public key (base64).
    public let ephemeralPublicKey: String?
    /// Google Pay's opaque payment card.
    public let opaquePaymentCard: String?
    /// The card network.
    public let cardNetwork: CardNetworkType?
    /// The token provider.
    public let tokenProvider: CardTokenProvider?
    /// The card's last digits.
    public let cardLastDigits: String?
    /// The card holder.
    public let customer: TokenizationCustomer?
}

/// A card's sensitive details, validated by `card-details-response`: the number and security code are
/// ``/DCEEngine/SensitiveString``s, which print as `<redacted>`.
public struct CardSensitiveDetails: ValidatableRequest, Codable, Hashable {
    /// `card-details-response`.
    public static let schemaID = "card-details-response"
    /// The card number.
    public let pan: SensitiveString
    /// The security code.
    public let cvv: SensitiveString
    /// The expiry (MM/YY).
    public let expiry: String
    /// The card holder's name.
    public let cardHolderName: String?

    /// The card number masked for display by the one masking policy (`Masking.mask`): `•••• •••• •••• 4444`.
    public var maskedPAN: String { Masking.mask(pan.revealed) }
}
