public import DCEEngine

// Models of seeds 000 and 001 (Digital Card Engine).

/// A card's activation status (seed 000 `ActivationStatus`), with the raw values exactly as the service sends them,
/// open to statuses a newer service adds (``OpenEnum``).
///
/// The seed has no `UNKNOWN` member: a status these models do not know decodes to ``unknown(_:)`` with the raw value.
public enum ActivationStatus: OpenEnum {
    /// `sent`: sent.
    case sent
    /// `ACTIVE`: active.
    case activated
    /// `declined`: declined.
    case declined
    /// `expired`: expired.
    case expired
    /// `IN_ACTIVATION`: being activated.
    case inActivation
    /// `NOT_ACTIVATED`: not activated.
    case notActivated
    /// `REJECTED`: rejected.
    case rejected
    /// `IN_PROGRESS`: in progress.
    case inProgress
    /// `FAILED`: failed.
    case failed
    /// `BLOCKED`: blocked.
    case blocked
    /// A status these models do not know, with the raw value as sent.
    case unknown(String)

    /// The statuses these models know, in the seed's order.
    public static let allKnownCases: [ActivationStatus] = [
        .sent, .activated, .declined, .expired, .inActivation, .notActivated, .rejected, .inProgress, .failed, .blocked,
    ]

    /// The raw value: the seed's (mixed case, as sent), or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .sent: "sent"
        case .activated: "ACTIVE"
        case .declined: "declined"
        case .expired: "expired"
        case .inActivation: "IN_ACTIVATION"
        case .notActivated: "NOT_ACTIVATED"
        case .rejected: "REJECTED"
        case .inProgress: "IN_PROGRESS"
        case .failed: "FAILED"
        case .blocked: "BLOCKED"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The type of a card transaction (seed 000 `TransactionType`), open to types a newer service adds (``OpenEnum``).
///
/// The seed has no `UNKNOWN` member: a type these models do not know decodes to ``unknown(_:)`` with the raw value.
public enum TransactionType: OpenEnum {
    /// `LOAD`: funds loaded onto the card.
    case load
    /// `DEDUCTION`: funds taken from the card.
    case deduction
    /// `AUTHORISATION`: an authorisation.
    case authorisation
    /// A type these models do not know, with the raw value as sent.
    case unknown(String)

    /// The types these models know, in the seed's order.
    public static let allKnownCases: [TransactionType] = [.load, .deduction, .authorisation]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .load: "LOAD"
        case .deduction: "DEDUCTION"
        case .authorisation: "AUTHORISATION"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The type of a card lifecycle event (seed 000 `CardEventType`), open to types a newer service adds (``OpenEnum``).
///
/// The seed has no `UNKNOWN` member: a type these models do not know decodes to ``unknown(_:)`` with the raw value.
public enum CardEventType: OpenEnum {
    /// `PURCHASED`: the card was purchased.
    case purchased
    /// `FUNDS_LOADED`: funds were loaded.
    case fundsLoaded
    /// `SENT`: the card was sent.
    case sent
    /// `ACTIVATED`: the card was activated.
    case activated
    /// `DECLINED`: the card was declined.
    case declined
    /// `EXPIRED`: the card expired.
    case expired
    /// A type these models do not know, with the raw value as sent.
    case unknown(String)

    /// The types these models know, in the seed's order.
    public static let allKnownCases: [CardEventType] = [
        .purchased, .fundsLoaded, .sent, .activated, .declined, .expired,
    ]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .purchased: "PURCHASED"
        case .fundsLoaded: "FUNDS_LOADED"
        case .sent: "SENT"
        case .activated: "ACTIVATED"
        case .declined: "DECLINED"
        case .expired: "EXPIRED"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The categorization of a card (seed 000 `AssetType`), open to types a newer service adds (``OpenEnum``).
///
/// The seed has no `UNKNOWN` member: a type these models do not know decodes to ``unknown(_:)`` with the raw value.
public enum AssetType: OpenEnum {
    /// `ORDER`: an order.
    case order
    /// `GIFT_CARD`: a gift card.
    case giftCard
    /// A type these models do not know, with the raw value as sent.
    case unknown(String)

    /// The types these models know, in the seed's order.
    public static let allKnownCases: [AssetType] = [.order, .giftCard]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .order: "ORDER"
        case .giftCard: "GIFT_CARD"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// A message on a gift card (`CardMessage`).
public struct CardMessage: Codable, Sendable, Hashable {
    /// The greeting.
    public let receiver: String
    /// The message.
    public let text: String
}

/// A received gift card (`ReceivedCard`).
public struct ReceivedCard: Codable, Sendable, Hashable {
    /// The card id.
    public let giftCardId: String
    /// The expiry date (ISO 8601).
    public let expiryDate: String
    /// The id of the card's artwork.
    public let cardArtId: String
    /// The balance.
    public let balance: Double?
    /// The first name.
    public let name: String?
    /// The last name.
    public let lastName: String?
    /// The last four digits.
    public let last4: String?
    /// The message.
    public let message: CardMessage?
    /// The activation status.
    public let status: ActivationStatus?
    /// The label to show.
    public let cardLabel: String?
}

/// One entry of `GET /receiver/v2/gift-cards`.
public struct GiftCardEntry: Codable, Sendable, Hashable {
    /// The card.
    public let value: ReceivedCard
}

/// The `GET /receiver/v2/gift-cards` response (a JSON array), validated by `gift-cards-response`.
public struct GiftCardsResponse: ValidatableRequest, Codable, Hashable {
    /// `gift-cards-response`.
    public static let schemaID = "gift-cards-response"
    /// The entries.
    public let entries: [GiftCardEntry]

    /// Decodes the array.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the array does not decode.
    public init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([GiftCardEntry].self)
    }
    /// Encodes the array.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(entries)
    }
}

/// A card artwork (`GET /receiver/v1/card-arts` element).
public struct CardArt: Codable, Sendable, Hashable {
    /// The artwork's id.
    public let cardArtId: String
    /// The image, base64.
    public let cardArt: String
}

/// The `GET /receiver/v1/card-arts` response (a JSON array), validated by `card-arts-response`.
public struct CardArtsResponse: ValidatableRequest, Codable, Hashable {
    /// `card-arts-response`.
    public static let schemaID = "card-arts-response"
    /// The artworks.
    public let arts: [CardArt]

    /// Decodes the array.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the array does not decode.
    public init(from decoder: any Decoder) throws { arts = try decoder.singleValueContainer().decode([CardArt].self) }
    /// Encodes the array.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: When the encoder fails.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(arts)
    }
}

/// A card transaction (`Transaction`).
public struct Transaction: Codable, Sendable, Hashable {
    /// LOAD, DEDUCTION or AUTHORISATION; a type these models do not know is ``TransactionType/unknown(_:)``.
    public let transactionType: TransactionType
    /// The merchant category code (ISO 18245).
    public let merchantCategoryCode: String?
    /// When (ISO 8601).
    public let transactionDate: String
    /// The absolute amount.
    public let transactionAmount: Double
    /// The transaction id.
    public let transactionId: String?
    /// The description or merchant name.
    public let transactionDescription: String
}

/// A card lifecycle event (`CardEvent`).
public struct CardEvent: Codable, Sendable, Hashable {
    /// When (ISO 8601).
    public let eventTime: String
    /// PURCHASED, FUNDS_LOADED, SENT, ACTIVATED, DECLINED or EXPIRED; a type these models do not know is
    /// ``CardEventType/unknown(_:)``.
    public let eventType: CardEventType
    /// The balance at the time of the event.
    public let initialBalance: Double
}

/// Paging of transactions and events (`CardMetadata`).
public struct CardMetadata: Codable, Sendable, Hashable {
    /// The current page.
    public let page: Int
    /// The number of pages.
    public let totalPages: Int
    /// The number of elements.
    public let totalElements: Int
    /// Whether more pages exist.
    public let hasNext: Bool
}

/// A card with its history (`CardEntity`), validated by `transaction-history-response`.
public struct CardEntity: ValidatableRequest, Codable, Hashable {
    /// `transaction-history-response`.
    public static let schemaID = "transaction-history-response"
    /// The card.
    public let receivedCard: ReceivedCard
    /// The card front, base64.
    public let cardArt: String?
    /// Whether the current user is the receiver.
    public let isReceiver: Bool?
    /// The transactions.
    public let transactionHistory: [Transaction]?
    /// The events.
    public let events: [CardEvent]?
    /// ORDER or GIFT_CARD; a type these models do not know is ``AssetType/unknown(_:)``.
    public let assetType: AssetType?
    /// The paging.
    public let metadata: CardMetadata?
}
