public import DCEEngine

// Models of seeds 000 and 001 (Digital Card Engine).

/// A card's activation status, with the raw values exactly as the service sends them (`ActivationStatus`).
public enum ActivationStatus: String, Codable, Sendable, Hashable, CaseIterable {
    /// Sent.
    case sent = "sent"
    /// Active.
    case activated = "ACTIVE"
    /// Declined.
    case declined = "declined"
    /// Expired.
    case expired = "expired"
    /// Being activated.
    case inActivation = "IN_ACTIVATION"
    /// Not activated.
    case notActivated = "NOT_ACTIVATED"
    /// Rejected.
    case rejected = "REJECTED"
    /// In progress.
    case inProgress = "IN_PROGRESS"
    /// Failed.
    case failed = "FAILED"
    /// Blocked.
    case blocked = "BLOCKED"
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
    public init(from decoder: any Decoder) throws { entries = try decoder.singleValueContainer().decode([GiftCardEntry].self) }
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
    /// LOAD, DEDUCTION or AUTHORISATION.
    public let transactionType: String
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
    /// PURCHASED, FUNDS_LOADED, SENT, ACTIVATED, DECLINED or EXPIRED.
    public let eventType: String
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
    /// ORDER or GIFT_CARD.
    public let assetType: String?
    /// The paging.
    public let metadata: CardMetadata?
}
