public import DCEEngine

/// A request to create a prepaid card (`CardRequest`, seed 002), validated by the `card-create` schema.
///
/// ```swift
/// let request = CardRequest(programName: "SKRILL-VIRTUAL-MC-EEA", currency: "EUR", cardPin: "1234")
/// let report = try validator.validate(request, context: ["region": "EU"])
/// ```
public struct CardRequest: ValidatableRequest, Codable, Hashable {
    /// `card-create`.
    public static let schemaID = "card-create"

    /// The program name retrieved from the card service, such as `SKRILL-VIRTUAL-MC-EEA`.
    public var programName: String
    /// The ISO 4217 currency code.
    public var currency: String
    /// The mobile phone number, as `+1 123456789`.
    public var mobile: String?
    /// The 4-digit PIN (EU customers only); never printed.
    public var cardPin: SensitiveString?
    /// The merchant's identifier for the card.
    public var externalId: String?
    /// Where a physical card is delivered.
    public var deliveryAddress: DeliveryAddress?
    /// Whether the customer accepted the terms and conditions (US customers).
    public var termsAndConditionsAccepted: Bool?
    /// Whether the customer accepted the e-disclosure (US customers).
    public var eDisclosureAccepted: Bool?

    /// Creates a request; `nil` members are left out of the JSON.
    ///
    /// - Parameters:
    ///   - programName: The program name.
    ///   - currency: The ISO 4217 currency code.
    ///   - mobile: The mobile phone number.
    ///   - cardPin: The PIN.
    ///   - externalId: The merchant's identifier.
    ///   - deliveryAddress: The delivery address.
    ///   - termsAndConditionsAccepted: The terms acceptance.
    ///   - eDisclosureAccepted: The e-disclosure acceptance.
    public init(
        programName: String, currency: String, mobile: String? = nil, cardPin: SensitiveString? = nil,
        externalId: String? = nil, deliveryAddress: DeliveryAddress? = nil, termsAndConditionsAccepted: Bool? = nil,
        eDisclosureAccepted: Bool? = nil
    ) {
        self.programName = programName
        self.currency = currency
        self.mobile = mobile
        self.cardPin = cardPin
        self.externalId = externalId
        self.deliveryAddress = deliveryAddress
        self.termsAndConditionsAccepted = termsAndConditionsAccepted
        self.eDisclosureAccepted = eDisclosureAccepted
    }

    /// Decodes a request; the consents also accept 0 and 1, as the `card-create` schema does (`numericBooleans`).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        programName = try container.decode(String.self, forKey: .programName)
        currency = try container.decode(String.self, forKey: .currency)
        mobile = try container.decodeIfPresent(String.self, forKey: .mobile)
        cardPin = try container.decodeIfPresent(SensitiveString.self, forKey: .cardPin)
        externalId = try container.decodeIfPresent(String.self, forKey: .externalId)
        deliveryAddress = try container.decodeIfPresent(DeliveryAddress.self, forKey: .deliveryAddress)
        termsAndConditionsAccepted = try container.decodeNumericBoolean(forKey: .termsAndConditionsAccepted)
        eDisclosureAccepted = try container.decodeNumericBoolean(forKey: .eDisclosureAccepted)
    }

    private enum CodingKeys: String, CodingKey {
        case programName, currency, mobile, cardPin, externalId, deliveryAddress, termsAndConditionsAccepted,
            eDisclosureAccepted
    }
}

extension KeyedDecodingContainer {
    /// A Boolean sent as `true`/`false`, or as 0/1 by an older client that wraps it in `NSNumber` (seed 004).
    func decodeNumericBoolean(forKey key: Key) throws -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        switch try decodeIfPresent(Int.self, forKey: key) {
        case nil: return nil
        case 0: return false
        case 1: return true
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "a Boolean is true, false, 0 or 1")
        }
    }
}

/// A card's delivery address (`DeliveryAddress`, seed 002), validated by the `delivery-address` schema.
public struct DeliveryAddress: ValidatableRequest, Codable, Hashable {
    /// `delivery-address`.
    public static let schemaID = "delivery-address"

    /// Address line 1.
    public var address1: String
    /// Address line 2.
    public var address2: String?
    /// Address line 3.
    public var address3: String?
    /// The city: letters, spaces, hyphens and periods, at most 30 characters.
    public var city: String
    /// The ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    /// The state or province abbreviation (2 or 3 characters for US customers).
    public var state: String?
    /// The postal code: required where the country has postal codes, so `nil` for a country without them (such as
    /// AE), as the `delivery-address` schema decides (seed 002 calls it required).
    public var postalCode: String?

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - address1: Address line 1.
    ///   - address2: Address line 2.
    ///   - address3: Address line 3.
    ///   - city: The city.
    ///   - countryCode: The country code.
    ///   - state: The state.
    ///   - postalCode: The postal code.
    public init(
        address1: String, address2: String? = nil, address3: String? = nil, city: String, countryCode: String,
        state: String? = nil, postalCode: String? = nil
    ) {
        self.address1 = address1
        self.address2 = address2
        self.address3 = address3
        self.city = city
        self.countryCode = countryCode
        self.state = state
        self.postalCode = postalCode
    }
}
