public import DCEEngine

// Models of seed 003 (virtual cards).

/// A billing address with seed 003's field names.
public struct BillingAddress: Codable, Sendable, Hashable {
    /// Address line 1.
    public var addressLine1: String
    /// Address line 2.
    public var addressLine2: String?
    /// The city.
    public var city: String
    /// The state.
    public var state: String
    /// The postal code.
    public var postalCode: String
    /// The ISO 3166-1 alpha-2 country code.
    public var country: String

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - addressLine1: Address line 1.
    ///   - addressLine2: Address line 2.
    ///   - city: The city.
    ///   - state: The state.
    ///   - postalCode: The postal code.
    ///   - country: The country code.
    public init(
        addressLine1: String, addressLine2: String? = nil, city: String, state: String, postalCode: String,
        country: String
    ) {
        self.addressLine1 = addressLine1
        self.addressLine2 = addressLine2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }
}

/// A request to provision a virtual card (`ProvisionVirtualCardInput`), validated by `virtual-card-provision`.
public struct ProvisionVirtualCardInput: ValidatableRequest, Codable, Hashable {
    /// `virtual-card-provision`.
    public static let schemaID = "virtual-card-provision"
    /// Proofs that the Sudo owns the card (at least one).
    public var ownershipProofs: [String]
    /// The funding source.
    public var fundingSourceId: String
    /// The name on the card.
    public var cardHolder: String
    /// The billing address; `nil` lets the platform set it.
    public var billingAddress: BillingAddress?
    /// The ISO 4217 currency (only USD today).
    public var currency: String
    /// Free-form application metadata.
    public var metadata: JSONValue?
    /// Deprecated: use `metadata`.
    public var alias: String?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - ownershipProofs: The ownership proofs.
    ///   - fundingSourceId: The funding source.
    ///   - cardHolder: The name on the card.
    ///   - billingAddress: The billing address.
    ///   - currency: The currency.
    ///   - metadata: The metadata.
    ///   - alias: The deprecated alias.
    public init(
        ownershipProofs: [String], fundingSourceId: String, cardHolder: String, billingAddress: BillingAddress? = nil,
        currency: String = "USD", metadata: JSONValue? = nil, alias: String? = nil
    ) {
        self.ownershipProofs = ownershipProofs
        self.fundingSourceId = fundingSourceId
        self.cardHolder = cardHolder
        self.billingAddress = billingAddress
        self.currency = currency
        self.metadata = metadata
        self.alias = alias
    }
}

/// A change to a virtual card (`UpdateVirtualCardInput`), validated by `virtual-card-update`: each field is a
/// ``Patch`` — left out (no change), removed (`null`), or set.
public struct UpdateVirtualCardInput: ValidatableRequest, Codable, Hashable {
    /// `virtual-card-update`.
    public static let schemaID = "virtual-card-update"
    /// The card to update.
    public var id: String
    /// The name on the card (removing it is an error: it is needed for transactions).
    public var cardHolder: Patch<String>
    /// The billing address.
    public var billingAddress: Patch<BillingAddress>
    /// The metadata, replaced as a whole.
    public var metadata: Patch<JSONValue>
    /// Deprecated: use `metadata`.
    public var alias: Patch<String>

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - id: The card id.
    ///   - cardHolder: The card holder change.
    ///   - billingAddress: The billing address change.
    ///   - metadata: The metadata change.
    ///   - alias: The alias change.
    public init(
        id: String, cardHolder: Patch<String> = .absent, billingAddress: Patch<BillingAddress> = .absent,
        metadata: Patch<JSONValue> = .absent, alias: Patch<String> = .absent
    ) {
        self.id = id
        self.cardHolder = cardHolder
        self.billingAddress = billingAddress
        self.metadata = metadata
        self.alias = alias
    }
}

/// The state of a provisioned virtual card (seed 003 `VirtualCard` state), open to states a newer service adds
/// (``OpenEnum``): the seed names `CLOSED`; `ISSUED`, `FAILED` and `SUSPENDED` are the other states of the SDK it
/// documents, as the `virtual-card-response` schema records.
///
/// The seed has no `UNKNOWN` member: a state these models do not know decodes to ``unknown(_:)`` with the raw value.
public enum VirtualCardState: OpenEnum {
    /// `ISSUED`: issued and usable.
    case issued
    /// `FAILED`: failed.
    case failed
    /// `CLOSED`: closed (expired, cancelled, or its Sudo deleted); it cannot be reactivated.
    case closed
    /// `SUSPENDED`: suspended.
    case suspended
    /// A state these models do not know, with the raw value as sent.
    case unknown(String)

    /// The states these models know, in the schema's order.
    public static let allKnownCases: [VirtualCardState] = [.issued, .failed, .closed, .suspended]

    /// The raw value: the schema's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .issued: "ISSUED"
        case .failed: "FAILED"
        case .closed: "CLOSED"
        case .suspended: "SUSPENDED"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// The state of a card being provisioned (seed 003 `ProvisionalCard.State`, `ProvisioningState` on Android), open to
/// states a newer service adds (``OpenEnum``).
///
/// The seed's Swift sample handles `.unknown` beside `.failed` but gives it no raw value: any state these models do not
/// know decodes to ``unknown(_:)`` with the raw value as sent.
public enum ProvisioningState: OpenEnum {
    /// `PROVISIONING`: being provisioned.
    case provisioning
    /// `COMPLETED`: provisioned; the provisional card holds the card.
    case completed
    /// `FAILED`: provisioning failed.
    case failed
    /// The seed's `.unknown`: a state these models do not know, with the raw value as sent.
    case unknown(String)

    /// The states these models know, in the seed's order.
    public static let allKnownCases: [ProvisioningState] = [.provisioning, .completed, .failed]

    /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
    public var rawValue: String {
        switch self {
        case .provisioning: "PROVISIONING"
        case .completed: "COMPLETED"
        case .failed: "FAILED"
        case .unknown(let rawValue): rawValue
        }
    }
}

/// An owner of a virtual card.
public struct CardOwner: Codable, Sendable, Hashable {
    /// The owner's id.
    public let id: String
    /// Who issued the ownership (`sudoplatform.sudoservice` for a Sudo).
    public let issuer: String
}

/// A provisioned virtual card (`VirtualCard`), validated by `virtual-card-response`.
public struct VirtualCard: ValidatableRequest, Codable, Hashable {
    /// `virtual-card-response`.
    public static let schemaID = "virtual-card-response"
    /// The card id.
    public let id: String
    /// ISSUED, FAILED, CLOSED or SUSPENDED; a state these models do not know is ``VirtualCardState/unknown(_:)``.
    public let state: VirtualCardState
    /// The owners; none for an orphan card.
    public let owners: [CardOwner]?
    /// The name on the card.
    public let cardHolder: String?
    /// Deprecated alias.
    public let alias: String?
    /// The last four digits.
    public let last4: String?
    /// The currency.
    public let currency: String?
    /// The billing address.
    public let billingAddress: BillingAddress?
    /// The metadata.
    public let metadata: JSONValue?
    /// When the card was created.
    public let createdAt: String?
    /// When the card was last updated.
    public let updatedAt: String?
}

/// A card being provisioned (`ProvisionalVirtualCard`), validated by `provisional-card-response`.
public struct ProvisionalVirtualCard: ValidatableRequest, Codable, Hashable {
    /// `provisional-card-response`.
    public static let schemaID = "provisional-card-response"
    /// The provisional card id.
    public let id: String
    /// PROVISIONING, COMPLETED or FAILED; a state these models do not know is ``ProvisioningState/unknown(_:)``.
    public let state: ProvisioningState
    /// The card, once COMPLETED.
    public let card: VirtualCard?
}
