public import DCEEngine

// Models of seed 004 (payment accounts).

/// An address whose zip code rules follow its use (the `addressUse` context), validated by `address`.
public struct Address: ValidatableRequest, Codable, Hashable {
    /// `address`.
    public static let schemaID = "address"
    /// Address line 1.
    public var line1: String
    /// Address line 2.
    public var line2: String?
    /// The city.
    public var city: String
    /// The 2-letter state.
    public var state: String?
    /// The zip code: 9 digits for billing, 5 for a profile.
    public var zipCode: String
    /// The ISO 3166-1 alpha-2 country code.
    public var country: String

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - line1: Address line 1.
    ///   - line2: Address line 2.
    ///   - city: The city.
    ///   - state: The state.
    ///   - zipCode: The zip code.
    ///   - country: The country code.
    public init(
        line1: String, line2: String? = nil, city: String, state: String? = nil, zipCode: String, country: String
    ) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.zipCode = zipCode
        self.country = country
    }
}

/// A payment account to add, validated by `payment-account` with a tender type (credit, debit, gift), given for
/// the call or said by the account itself (``accountType``).
public struct PaymentAccount: ValidatableRequest, Codable, Hashable {
    /// `payment-account`.
    public static let schemaID = "payment-account"

    /// The tender types of seed 004's examples ('based on the payment type, for example, credit, debit, or gift'),
    /// open to tender types a newer service adds (``OpenEnum``): one these models do not know decodes to
    /// ``unknown(_:)`` with the raw value (the seed has no `UNKNOWN` member).
    public enum AccountType: OpenEnum {
        /// `credit`: a credit card.
        case credit
        /// `debit`: a debit card.
        case debit
        /// `gift`: a gift card.
        case gift
        /// A tender type these models do not know, with the raw value as sent.
        case unknown(String)

        /// The tender types these models know, in the seed's order.
        public static let allKnownCases: [AccountType] = [.credit, .debit, .gift]

        /// The raw value: the seed's, or the one sent for ``unknown(_:)``.
        public var rawValue: String {
            switch self {
            case .credit: "credit"
            case .debit: "debit"
            case .gift: "gift"
            case .unknown(let rawValue): rawValue
            }
        }
    }

    /// What the account is: the tender type whose rules check it when the call names none (as in a customer
    /// profile, where each account says its own).
    public var accountType: AccountType?
    /// The card number; never printed.
    public var cardNumber: SensitiveString
    /// The expiry, MM/YY.
    public var expiry: String?
    /// The security code; never printed.
    public var securityCode: SensitiveString?
    /// The cardholder's name.
    public var cardholderName: String?
    /// A nickname.
    public var nickname: String?
    /// The billing address.
    public var billingAddress: Address?

    /// Creates an account.
    ///
    /// - Parameters:
    ///   - cardNumber: The card number.
    ///   - expiry: The expiry.
    ///   - securityCode: The security code.
    ///   - cardholderName: The cardholder's name.
    ///   - nickname: The nickname.
    ///   - billingAddress: The billing address.
    ///   - accountType: What the account is.
    public init(
        cardNumber: SensitiveString, expiry: String? = nil, securityCode: SensitiveString? = nil,
        cardholderName: String? = nil,
        nickname: String? = nil, billingAddress: Address? = nil, accountType: AccountType? = nil
    ) {
        self.accountType = accountType
        self.cardNumber = cardNumber
        self.expiry = expiry
        self.securityCode = securityCode
        self.cardholderName = cardholderName
        self.nickname = nickname
        self.billingAddress = billingAddress
    }

    /// The card number masked for display by the one masking policy (`Masking.mask`): `•••• •••• •••• 1111`.
    public var maskedCardNumber: String { Masking.mask(cardNumber.revealed) }
}

/// A customer with a profile address and payment accounts, validated by `customer-profile`: the profile address with
/// a 5-digit zip code, each account's billing address with 9, each account by its own ``PaymentAccount/accountType``.
public struct CustomerProfile: ValidatableRequest, Codable, Hashable {
    /// `customer-profile`.
    public static let schemaID = "customer-profile"
    /// The customer's name.
    public var name: String
    /// The profile address.
    public var profileAddress: Address
    /// The payment accounts.
    public var paymentAccounts: [PaymentAccount]?

    /// Creates a profile.
    ///
    /// - Parameters:
    ///   - name: The customer's name.
    ///   - profileAddress: The profile address.
    ///   - paymentAccounts: The payment accounts.
    public init(name: String, profileAddress: Address, paymentAccounts: [PaymentAccount]? = nil) {
        self.name = name
        self.profileAddress = profileAddress
        self.paymentAccounts = paymentAccounts
    }
}
