public import DCEEngine
public import Observation

/// One field of a ``FormModel``, observed on its own: a row bound to it re-renders only when this field changes.
///
/// Everything a screen needs comes from the schema's metadata and the rules in force: the label in the form's
/// language, the ``kind`` of input and its ``contentType`` for autofill, whether the entry is secret, the text as
/// typed and as shown, the state and its message, a card number's brand, and what a screen reader says.
@Observable
@MainActor
public final class FormField: Identifiable {
    /// The JSON Pointer of the value (`/paymentAccounts/0/cardNumber`): the field's identity.
    public let path: String
    /// The label in the form's language (the schema's `name`).
    public fileprivate(set) var label = ""
    /// What the empty input shows (the schema's `placeholder`), in the form's language: `MM/YY`.
    public fileprivate(set) var placeholder: String?
    /// What to enter, in a sentence (the schema's `help`), in the form's language; it may follow the rules in force
    /// (a security code's help follows the card's brand).
    public fileprivate(set) var help: String?
    /// What input the field takes.
    public fileprivate(set) var kind = Kind.text
    /// The autofill hint an app maps to `UITextContentType`, when one fits.
    public fileprivate(set) var contentType: ContentType?
    /// The fewest characters the value may have under the rules in force (the schema's `minLength`, or what its
    /// pattern implies), when it says.
    public fileprivate(set) var minLength: Int?
    /// The most characters the value may have under the rules in force: a security code's follows the card's brand
    /// (4 for American Express, 3 for the others, 3 to 4 while the brand is not known).
    public fileprivate(set) var maxLength: Int?
    /// Whether the entry is secret (secure entry, nothing shown back): a value encrypted or not to be stored and not
    /// to be masked, a security code or a PIN, as the one masking policy decides (``/DCEEngine/Masking``).
    public fileprivate(set) var isSecret = false
    /// Whether the field must be given now, given the draft.
    public fileprivate(set) var isRequired = false
    /// Whether no value may be given now (the field is listed only while the draft still holds one).
    public fileprivate(set) var isForbidden = false
    /// What the value is now.
    public fileprivate(set) var state = FormSession.State.empty
    /// For an invalid or incomplete value: validation's message, in the form's language (never the value).
    public fileprivate(set) var message: String?
    /// The rule the value breaks now, for an invalid or incomplete value.
    public fileprivate(set) var rule: ViolationCode?
    /// For a card number: the brand its digits decide, `nil` while they do not.
    public fileprivate(set) var brand: CardBrands.Brand?
    /// For a card number: the brands it can still be (every brand before a digit is typed); empty for other fields.
    public fileprivate(set) var candidateBrands: [CardBrands.Brand] = []
    /// The allowed values of a choice (the schema's, or another document's, ``/DCEEngine/PreparedSchema/relating(_:)``).
    public fileprivate(set) var options: [String]?
    /// The data group (`CARD_INFORMATION`), `nil` for a field without one.
    public fileprivate(set) var dataGroup: String?
    /// The group's title in the form's language (`Card information`).
    public fileprivate(set) var groupTitle = ""
    /// For a list: how many items it holds.
    public fileprivate(set) var itemCount: Int?
    /// What was typed, as typed; the value in the draft is its canonical form.
    fileprivate var typedText = ""
    /// As shown: a card number in its brand's groups, an expiry as `MM/YY`, the masked form of a value to be
    /// masked while the field is not being edited, `•` for each character of a secret.
    public fileprivate(set) var display = ""
    /// What a screen reader says the field is: its label, and whether it is required.
    public fileprivate(set) var accessibilityLabel = ""
    /// What a screen reader says of the value: never a secret's or a masked value's characters (`Ending in 1111`).
    public fileprivate(set) var accessibilityValue = ""
    /// Whether the field is being edited.
    fileprivate var editing = false

    @ObservationIgnored private weak var model: FormModel?
    /// The path's tokens, read once.
    @ObservationIgnored let tokens: [String]
    /// What the field was last brought in line with (``apply(_:in:form:)``): the same again changes nothing.
    @ObservationIgnored private var applied: Applied?
    /// The session's state of the field as last applied: what a tool that shows every field reads besides what an
    /// app's screen does (`dce-preview`: an address part's examples and states).
    package var sessionField: FormSession.Field? { applied?.state }
    /// How much of the value may be shown, by the one masking policy (a card number anywhere shows its masked form).
    @ObservationIgnored package private(set) var exposure = Sensitivity.Exposure.value
    /// Whether the field is in ``FormModel/fields``: not one a rule forbids while empty, nor one validation skips.
    @ObservationIgnored package private(set) var isInForce = true
    /// The compiled field at the path in the schema of the form's generation, found once per schema.
    @ObservationIgnored private var compiled: (generation: Int, field: CompiledField?)?

    init(path: String, model: FormModel) {
        self.path = path
        self.model = model
        tokens = JSONPointer.tokens(of: path) ?? []
    }

    /// The field's identity: its ``path``.
    public nonisolated var id: String { path }

    /// What was typed, as typed; setting it edits the form as ``FormModel/set(_:at:)`` does.
    public var text: String {
        get { typedText }
        set { try? model?.set(newValue, at: path) }
    }

    /// What a text field shows and takes: ``display`` as shown, and on setting what a person types
    /// (``text``). Bind a `TextField` to it for a card number grouped as it is typed.
    public var entry: String {
        get { display }
        set { text = newValue }
    }

    /// Whether the field is being edited (has the focus): a value to be masked is shown whole only meanwhile.
    /// Setting it true ends the editing of any other field.
    public var isEditing: Bool {
        get { editing }
        set { model?.setEditing(path, newValue) }
    }

    /// What input a field takes, from its type, format, choices and address part.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Free text.
        case text
        /// Digits only (`numeric` in the form description).
        case digits
        /// A card number: grouped by its brand as typed.
        case cardNumber
        /// A card's expiry, `MM/YY`.
        case expiry
        /// A card's security code (`autofill: cc-csc`): secret, digits.
        case securityCode
        /// A PIN: secret digits no autofill may fill (`autofill: off`, or a secret of digits only).
        case pin
        /// An email address (`autofill: email`).
        case email
        /// A postal code (an address's `postalCode` part).
        case postalCode
        /// A country code (ISO 3166-1 alpha-2).
        case country
        /// A state, province or other subdivision (an address's `state` part).
        case region
        /// A currency code (ISO 4217).
        case currency
        /// One of a list of values.
        case choice
        /// `true` or `false`.
        case toggle
        /// A phone number in international form (`+…`).
        case phone
        /// A calendar date, or a date and time.
        case date
        /// A number.
        case amount
        /// A list of items.
        case list
        /// An object: nested fields.
        case group
    }

    /// Autofill hints: each is a `UITextContentType` (its name) and an HTML `autocomplete` token (``htmlToken``), the
    /// schema's `autofill` attribute.
    public enum ContentType: String, Sendable, Hashable, CaseIterable {
        /// `cc-number`.
        case creditCardNumber
        /// `cc-exp`.
        case creditCardExpiration
        /// `cc-csc`.
        case creditCardSecurityCode
        /// `cc-name`.
        case creditCardName
        /// `postal-code`.
        case postalCode
        /// `country`.
        case countryName
        /// `address-level1`.
        case addressState
        /// `address-level2`.
        case addressCity
        /// `address-line1`.
        case streetAddressLine1
        /// `address-line2`.
        case streetAddressLine2
        /// `street-address`.
        case fullStreetAddress
        /// `email`.
        case emailAddress
        /// `tel`.
        case telephoneNumber
        /// `name`.
        case name
        /// `given-name`.
        case givenName
        /// `family-name`.
        case familyName
        /// `bday`.
        case birthdate

        /// The HTML `autocomplete` token (what the browser preview sets).
        public var htmlToken: String {
            switch self {
            case .creditCardNumber: "cc-number"
            case .creditCardExpiration: "cc-exp"
            case .creditCardSecurityCode: "cc-csc"
            case .creditCardName: "cc-name"
            case .postalCode: "postal-code"
            case .countryName: "country"
            case .addressState: "address-level1"
            case .addressCity: "address-level2"
            case .streetAddressLine1: "address-line1"
            case .streetAddressLine2: "address-line2"
            case .fullStreetAddress: "street-address"
            case .emailAddress: "email"
            case .telephoneNumber: "tel"
            case .name: "name"
            case .givenName: "given-name"
            case .familyName: "family-name"
            case .birthdate: "bday"
            }
        }

        /// The hint an HTML `autocomplete` token names; `nil` for `off` and for a token no case names.
        public init?(htmlToken: String) {
            guard let found = Self.allCases.first(where: { $0.htmlToken == htmlToken }) else { return nil }
            self = found
        }
    }
}

// MARK: - Working it out

extension FormField {
    /// Brings the field in line with the session's state of it: only what changed is assigned, so that only what
    /// changed is observed to.
    func apply(_ state: FormSession.Field, in group: FormSession.Group, form: FormModel) {
        let value = form.value(at: tokens) ?? ""
        let typed = form.typedText(at: path) ?? value
        let editing = form.isEditing(path)
        if let applied, applied.generation == form.generation, applied.editing == editing, applied.value == value,
            applied.typed == typed, applied.dataGroup == group.dataGroup, applied.groupTitle == group.title,
            applied.state == state
        {
            return
        }
        let described = state.description
        // What follows from the description alone stays while it does (a keystroke changes the value and the state).
        let previous = applied.flatMap {
            $0.generation == form.generation && $0.state.description == described ? $0 : nil
        }
        let brands = form.schema.schema.reference.cardBrands
        if compiled?.generation != form.generation {
            compiled = (form.generation, form.schema.schema.field(at: path))
        }
        let compiled = compiled?.field
        let declared = compiled?.sensitivity.exposure ?? .value
        let kind =
            previous?.kind
            ?? Self.kind(of: described, formats: compiled?.base.formatList ?? [], secret: declared == .nothing)
        applied = Applied(
            state: state, dataGroup: group.dataGroup, groupTitle: group.title, typed: typed, value: value,
            editing: editing, generation: form.generation, kind: kind)
        // A card number is masked wherever it is given, as in every output (a number typed into a phone field).
        let isCardNumber = !value.isEmpty && Masking.isCardNumber(value, brands: brands)
        var exposure = declared
        if exposure == .value && isCardNumber { exposure = .maskedForm }
        let words = form.words
        let display: String
        switch (exposure, kind) {
        case (.nothing, _): display = Masking.hide(value)
        case (.maskedForm, _) where !editing && !value.isEmpty:
            display = state.masked ?? Masking.mask(value, brands: brands)
        case (_, .cardNumber): display = brands.grouped(value)
        default: display = value
        }
        let spoken: String
        if value.isEmpty {
            spoken = words.phrase("field.empty")
        } else {
            switch exposure {
            case .value: spoken = display
            case .maskedForm where isCardNumber || (kind == .cardNumber && value.count >= 12):
                spoken = words.phrase("field.endingIn", ["last": String(value.suffix(4))])
            case .maskedForm, .nothing: spoken = words.phrase("field.hidden")
            }
        }
        self.exposure = exposure
        isInForce = !state.ignored && (!state.forbidden || state.state != .empty)
        let required = state.required && !state.forbidden
        if previous == nil {
            assign(\.label, described.label)
            assign(\.placeholder, described.placeholder)
            assign(\.help, described.help)
            assign(\.minLength, described.inputMinLength)
            assign(\.maxLength, described.inputMaxLength)
            assign(\.kind, kind)
            assign(
                \.contentType,
                Self.contentType(of: kind, autofill: described.autofill, address: described.address?.part))
        }
        assign(\.isSecret, exposure == .nothing)
        assign(\.isRequired, required)
        assign(\.isForbidden, state.forbidden)
        assign(\.state, state.state)
        assign(\.message, state.forbidden ? state.forbiddenReason ?? state.message : state.message)
        assign(\.rule, state.rule)
        assign(\.brand, state.cardBrand)
        assign(\.candidateBrands, state.cardBrands ?? [])
        assign(\.options, state.choices ?? described.options)
        assign(\.dataGroup, group.dataGroup)
        assign(\.groupTitle, group.title)
        assign(\.itemCount, state.itemCount)
        assign(\.typedText, typed)
        assign(\.editing, editing)
        assign(\.display, display)
        if previous.map({ $0.state.required != state.required || $0.state.forbidden != state.forbidden }) ?? true {
            assign(
                \.accessibilityLabel,
                required ? words.phrase("field.required", ["label": described.label]) : described.label)
        }
        assign(\.accessibilityValue, spoken)
    }

    /// What a field's properties are worked out from.
    private struct Applied {
        var state: FormSession.Field
        var dataGroup: String?
        var groupTitle: String
        var typed: String
        var value: String
        var editing: Bool
        /// The form's schema and words (``FormModel/generation``).
        var generation: Int
        /// The kind of input the description and the schema's field decide.
        var kind: Kind
    }

    /// Sets a property only when the value differs: an observer hears of a change only when there is one.
    private func assign<Value: Equatable>(_ keyPath: ReferenceWritableKeyPath<FormField, Value>, _ value: Value) {
        if self[keyPath: keyPath] != value { self[keyPath: keyPath] = value }
    }

    /// The kind of input of the field at a pointer in a prepared schema (`.text` for a pointer that names none).
    static func kind(at pointer: String, in schema: PreparedSchema) -> Kind {
        guard let field = schema.schema.field(at: pointer) else { return .text }
        return kind(
            dataType: field.dataType, formats: field.base.formatList, hint: nil, part: nil,
            autofill: field.metadata.autofill, secret: field.sensitivity.exposure == .nothing)
    }

    /// The kind of input a described field of these formats takes.
    static func kind(of described: FormDescription.Field, formats: [Format], secret: Bool) -> Kind {
        kind(
            dataType: DataType(rawValue: described.dataType) ?? .string, formats: formats, hint: described.inputHint,
            part: described.address?.part, autofill: described.autofill, secret: secret)
    }

    /// The schema's `autofill` decides first; then the type, the format, the address part and the input hint.
    private static func kind(
        dataType: DataType, formats: [Format], hint: String?, part: String?, autofill: String?, secret: Bool
    ) -> Kind {
        switch autofill {
        case "cc-number": return .cardNumber
        case "cc-exp": return .expiry
        case "cc-csc": return .securityCode
        case "email": return .email
        case "tel": return .phone
        case "postal-code": return .postalCode
        case "country": return .country
        case "address-level1": return .region
        default: break
        }
        if secret && (autofill == "off" || hint == "numeric") { return .pin }
        switch dataType {
        case .object: return .group
        case .array: return .list
        case .boolean: return .toggle
        case .date, .dateTime: return .date
        case .integer, .number: return .amount
        case .string: break
        }
        if formats.contains(where: \.isCardNumber) || formats.contains(.luhn) { return .cardNumber }
        if formats.contains(.cardExpiry) { return .expiry }
        if formats.contains(.date) || formats.contains(.dateTime) { return .date }
        switch part {
        case "postalCode": return .postalCode
        case "state": return .region
        default: break
        }
        switch hint {
        case "choice": return .choice
        case "country": return .country
        case "currency": return .currency
        case "phone": return .phone
        case "numeric": return .digits
        case "toggle": return .toggle
        default: return .text
        }
    }

    /// The autofill hint: the schema's `autofill` (none for `off`), else the kind of input's or the address part's.
    static func contentType(of kind: Kind, autofill: String?, address part: String?) -> ContentType? {
        if let autofill { return ContentType(htmlToken: autofill) }
        switch kind {
        case .cardNumber: return .creditCardNumber
        case .expiry: return .creditCardExpiration
        case .postalCode: return .postalCode
        case .country: return .countryName
        case .region: return .addressState
        case .phone: return .telephoneNumber
        default: break
        }
        switch part {
        case "city": return .addressCity
        case "streetAddress": return .fullStreetAddress
        default: return nil
        }
    }

    /// The value to keep for what a person typed into a field of a kind: a card number's digits (spaces and dashes
    /// dropped), an expiry as `MM/YY` (`1227`, `12 27` and `3/27` give `12/27` and `03/27`; fewer digits stay as
    /// typed), a code's or PIN's digits without spaces or dashes; anything else as typed (a phone number's pattern
    /// may ask for its spaces).
    static func canonical(_ text: String, kind: Kind) -> String {
        switch kind {
        case .cardNumber, .digits, .securityCode, .pin:
            return CardBrands.withoutSeparators(text)
        case .expiry:
            return canonicalExpiry(text)
        default:
            return text
        }
    }

    private static func canonicalExpiry(_ text: String) -> String {
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        guard text.allSatisfy({ isDigit($0) || $0 == "/" || $0 == " " }) else { return text }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            let month = parts[0].filter(isDigit)
            let year = parts[1].filter(isDigit)
            guard !month.isEmpty else { return text }
            return (month.count == 1 ? "0" + month : month) + "/" + year
        }
        let digits = text.filter(isDigit)
        guard digits.count > 2 else { return digits }
        return digits.prefix(2) + "/" + digits.dropFirst(2)
    }
}

extension FormField: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The path: never what was typed or is shown. Readable from any thread, as a log line or a crash report reads it.
    public nonisolated var description: String { "FormField(\(path))" }

    /// ``description``.
    public nonisolated var debugDescription: String { description }

    /// The path only: a dump of a field shows no value typed.
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["path": path], displayStyle: .class) }
}
