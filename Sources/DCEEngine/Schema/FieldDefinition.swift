/// One field's metadata as written in a schema file: the `PDMetaData` / `PDAccountMetaData` attributes, the
/// shape of nested objects and arrays, and the overrides that contexts, tender types and conditions apply.
package struct FieldDefinition: Sendable {
    /// Where the field was written.
    package var location: SchemaLocation
    /// The member name in the request (`PDMetaData.key`); `nil` for array items, definitions and schema roots.
    package var key: String?
    /// A reference to a shared definition: `#/definitions/Name`, `schema-id`, or `schema-id#/definitions/Name`.
    package var ref: String?
    var refLocation: SchemaLocation?
    /// The rules that overrides may change, and the type.
    package var rules: Rules
    /// Presentation and lifecycle metadata, carried through to the compiled field.
    package var metadata: FieldMetadata
    /// The members of an `Object` field.
    package var fields: [FieldDefinition]?
    /// Whether an `Object` accepts members that are not in `fields`.
    package var additionalFields: Bool?
    /// The element definition of an `Array` field (boxed: a field cannot contain itself by value).
    package var items: [FieldDefinition]?
    /// Per tender type overrides (`PDTenderTypeMetaData`), in the order written.
    package var tenderTypes: [FieldOverride]
    /// Conditional overrides, applied in order after the tender type's.
    package var overrides: [FieldOverride]
    /// Context values (and the tender type) bound for this field and everything below it (`context`).
    var bindings: [ContextBinding] = []
    /// The rules written on an `Object` that judge its members together (`postalAddress`).
    var objectRules: [ObjectRuleDefinition] = []
    /// Another document this field's value must be found in (`existsIn`).
    var existsIn: DocumentReference? = nil
    /// What generated code calls the field's type and options (`swiftName`, `swiftCaseNames`).
    package var codeNames = CodeNames()
}

/// The names generated code gives what a field defines, when the schema chooses them: validation never reads them.
package struct CodeNames: Sendable, Hashable {
    /// The Swift type of a schema (its root), a definition, an object written in place, or a field's options
    /// (`swiftName`): with one, a type written in place is declared at the top level, once however many fields name
    /// it.
    package var swiftName: String?
    /// The Swift case of each option that is not its value in lowerCamelCase (`{"MC": "mastercard"}`).
    package var swiftCaseNames: [String: String] = [:]

    /// Whether a text is an UpperCamelCase Swift type name: a capital ASCII letter, then ASCII letters and digits.
    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        return text.utf8.allSatisfy(isIdentifierByte)
    }

    /// Whether a text is a lowerCamelCase Swift case name: a lowercase ASCII letter, then ASCII letters and digits.
    static func isCaseName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return text.utf8.allSatisfy(isIdentifierByte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

/// Where a field's value must be found in another document, when that document is at hand (`"existsIn": {"schema":
/// "card-arts-response", "pointer": "/*/cardArtId"}`): a gift card's `cardArtId` names an entry of the card-arts
/// response (seed 001: the card list "finds the matching item by cardArtId").
package struct DocumentReference: Sendable, Hashable {
    package var location: SchemaLocation
    /// The id of the other document's schema.
    package var schema: String
    /// A JSON Pointer into the other document, `*` standing for every element of an array or member of an object.
    package var pointer: String
    /// The pointer's tokens, unescaped; `nil` for `*`.
    var tokens: [String?]
    /// What the entry holding a match must also say for the match to count (`where`), if anything.
    package var condition: ReferenceCondition? = nil

    /// One reference per schema, pointer and condition, wherever it is written.
    package var key: String {
        schema + "#" + pointer + (condition.map { "?" + $0.member + ">=" + $0.minimum.lexeme } ?? "")
    }

    package static func == (lhs: DocumentReference, rhs: DocumentReference) -> Bool { lhs.key == rhs.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The tokens of a pointer pattern, `*` as `nil`: `nil` for a pointer that does not start with `/` or is not a
    /// JSON Pointer (a key that is itself `*` cannot be named).
    static func tokens(of pointer: String) -> [String?]? {
        guard pointer.hasPrefix("/"), let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        return tokens.map { $0 == "*" ? nil : $0 }
    }
}

/// `existsIn`'s `where`: a match counts only when the object holding it has a member `member` that is a number of at
/// least `minimum` (a program with `allowableCards` left, seed 002). A value matched only where this fails has its
/// own message.
package struct ReferenceCondition: Sendable, Hashable {
    /// A member of the object that holds the matched value.
    package var member: String
    /// The least number it may be.
    package var minimum: DecimalNumber
}

/// An object rule as the schema writes it (`"postalAddress": {...}`), read by its kind and compiled once the object's
/// members are known (a `ref` may bring them).
struct ObjectRuleDefinition: Sendable {
    /// The attribute that wrote it.
    var attribute: String
    var location: SchemaLocation
    /// The rule over the object's members, or `nil` after reporting why it cannot hold
    /// (``ObjectRuleKind/compile(_:members:object:report:)``).
    let compile:
        @Sendable (_ members: [ObjectRuleMember], _ object: String, _ report: (ObjectRuleProblem, String) -> Void) ->
            (any ObjectRuleKind)?
}

/// A context value, or the tender type, bound where a field is used (`"context": {"addressUse": "billing"}`): inside
/// the field's value it replaces the request's value, and outside it nothing changes.
struct ContextBinding: Sendable {
    /// Where the binding was written.
    var location: SchemaLocation
    /// The context's name, or `tenderType`.
    var name: String
    var source: Source

    enum Source: Sendable {
        /// A fixed value.
        case value(String)
        /// The value of a member of the object the field holds (`{"member": "accountType"}`); when the member is
        /// missing or holds no allowed value, the value from outside stays.
        case member(String)
        /// Rules tried in order, the first that holds giving the value (`{"derive": [{when, value}]}`); a relative
        /// pointer's `0` is the object the field holds. When none holds, the value from outside stays.
        case derive([(condition: ConditionDefinition, value: String, location: SchemaLocation)])
    }
}

/// Metadata that does not change how a value is checked but travels with the field: UI order and grouping, and
/// the sensitivity and lifecycle flags.
package struct FieldMetadata: Sendable {
    package var order: Int?
    var dataGroup: String?
    package var ignoreForProvisioning: Bool?
    package var pciEncryptionRequired: Bool?
    package var storageRestricted: Bool?
    package var maskingRequired: Bool?
    package var updatesAllowed: Bool?
    package var reverificationRequired: Bool?
    /// The autofill hint a form gives the field's input: an HTML `autocomplete` token (``autofillTokens``).
    package var autofill: String?

    /// The `autofill` tokens a schema may give: HTML's `autocomplete` tokens that a payment or card form asks for,
    /// each of which an app maps to a `UITextContentType` (DCEForms' `FormField.ContentType`); `off` for an input no
    /// autofill may fill (a PIN).
    package static let autofillTokens = [
        "cc-number", "cc-exp", "cc-csc", "cc-name", "postal-code", "country", "address-level1", "address-level2",
        "address-line1", "address-line2", "street-address", "email", "tel", "name", "given-name", "family-name",
        "bday", "off",
    ]

    /// Whether no attribute is set.
    var isEmpty: Bool {
        order == nil && dataGroup == nil && ignoreForProvisioning == nil && pciEncryptionRequired == nil
            && storageRestricted == nil && maskingRequired == nil && updatesAllowed == nil
            && reverificationRequired == nil && autofill == nil
    }

    /// This metadata with every value that `other` writes taking precedence.
    func overlaid(with other: FieldMetadata) -> FieldMetadata {
        FieldMetadata(
            order: other.order ?? order,
            dataGroup: other.dataGroup ?? dataGroup,
            ignoreForProvisioning: other.ignoreForProvisioning ?? ignoreForProvisioning,
            pciEncryptionRequired: other.pciEncryptionRequired ?? pciEncryptionRequired,
            storageRestricted: other.storageRestricted ?? storageRestricted,
            maskingRequired: other.maskingRequired ?? maskingRequired,
            updatesAllowed: other.updatesAllowed ?? updatesAllowed,
            reverificationRequired: other.reverificationRequired ?? reverificationRequired,
            autofill: other.autofill ?? autofill)
    }
}

/// Attributes that apply when a condition holds: an entry of `overrides`, or of `tenderTypes` (whose condition
/// is "the caller's tender type is this one").
package struct FieldOverride: Sendable {
    var location: SchemaLocation
    var condition: ConditionDefinition
    package var rules: Rules
    /// For an entry of `tenderTypes`: its tender type, whose metadata it may change too (`PDTenderTypeMetaData`
    /// carries its own `dataGroup`, and a payment type may make a field updatable, masked or ignored for
    /// provisioning); `nil` for a conditional override, which changes rules only.
    package var tenderType: String? = nil
    /// The metadata a tender type's entry sets.
    package var metadata = FieldMetadata()
}

/// A condition over context values and other fields of the request.
indirect enum ConditionDefinition: Sendable {
    case all([ConditionDefinition], SchemaLocation)
    case any([ConditionDefinition], SchemaLocation)
    case not(ConditionDefinition, SchemaLocation)
    case test(subject: ConditionSubject, test: ConditionTest, location: SchemaLocation)

    var location: SchemaLocation {
        switch self {
        case .all(_, let location), .any(_, let location), .not(_, let location), .test(_, _, let location): location
        }
    }
}

/// What a condition looks at.
enum ConditionSubject: Sendable, Hashable {
    /// A value supplied by the caller (or derived), by name.
    case context(String)
    /// The caller's tender type.
    case tenderType
    /// A request value: an absolute JSON Pointer (`/deliveryAddress/countryCode`) or a relative one (`0/walletType`,
    /// where `0` is the object that holds the field being checked, `1` its parent, and so on).
    case field(up: Int?, tokens: [String], pointer: String)
}

/// How a condition tests its subject.
enum ConditionTest: Sendable {
    case equals(SchemaValue)
    case oneOf([SchemaValue])
    case matches(String)
    /// The member exists and is not `null` (for a context: a value was supplied or derived).
    case present
    /// The member does not exist (for a context: no value).
    case absent
    /// The member exists and is `null`.
    case null
    /// The member is a card number (or its first digits) of one of these brands (ids of the reference data); no
    /// brands: a `cardBrandOf` derive rule, which sets the brand's id.
    case cardBrand([String])
    /// The member is a code of a group of the ISO 3166-1 reference data (`EU`, `EEA`); the compiler turns it into
    /// the group's codes.
    case countryGroup(String)
}
