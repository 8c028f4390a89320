/// One field's metadata as written in a schema file: the `PDMetaData` / `PDAccountMetaData` attributes, the
/// shape of nested objects and arrays, and the overrides that contexts, tender types and conditions apply.
struct FieldDefinition: Sendable {
    /// Where the field was written.
    var location: SchemaLocation
    /// The member name in the request (`PDMetaData.key`); `nil` for array items, definitions and schema roots.
    var key: String?
    /// A reference to a shared definition: `#/definitions/Name`, `schema-id`, or `schema-id#/definitions/Name`.
    var ref: String?
    var refLocation: SchemaLocation?
    /// The attributes that overrides may change.
    var attributes: FieldAttributes
    /// Presentation and lifecycle metadata, carried through to the compiled field.
    var metadata: FieldMetadata
    /// The members of an `Object` field.
    var fields: [FieldDefinition]?
    /// Whether an `Object` accepts members that are not in `fields`.
    var additionalFields: Bool?
    /// The element definition of an `Array` field (boxed: a field cannot contain itself by value).
    var items: [FieldDefinition]?
    /// Per tender type overrides (`PDTenderTypeMetaData`), in the order written.
    var tenderTypes: [FieldOverride]
    /// Conditional overrides, applied in order after the tender type's.
    var overrides: [FieldOverride]
}

/// The attributes of a field that a context, a tender type or a condition may override. `nil` means "not
/// written here", so that an override changes only what it names.
struct FieldAttributes: Sendable {
    var name: String?
    var description: String?
    var dataType: DataType?
    var required: Bool?
    var forbidden: Bool?
    var nullable: Bool?
    var minLength: Int?
    var maxLength: Int?
    var minimum: DecimalNumber?
    var maximum: DecimalNumber?
    var minItems: Int?
    var maxItems: Int?
    var enumValues: [SchemaValue]?
    var formats: [String]?
    var additionalDataValidations: [ValidationDefinition]?
    var defaultValue: SchemaValue?
    var message: String?
    /// Messages by rule code, then by language code (`*` for any language).
    var messages: [String: [String: String]]?
    /// Where each attribute was written, by attribute name, for compile-time problems.
    var locations: [String: SchemaLocation] = [:]

    /// These attributes with every attribute that `other` writes taking precedence.
    func overlaid(with other: FieldAttributes) -> FieldAttributes {
        var result = self
        if let value = other.name { result.name = value }
        if let value = other.description { result.description = value }
        if let value = other.dataType { result.dataType = value }
        if let value = other.required { result.required = value }
        if let value = other.forbidden { result.forbidden = value }
        if let value = other.nullable { result.nullable = value }
        if let value = other.minLength { result.minLength = value }
        if let value = other.maxLength { result.maxLength = value }
        if let value = other.minimum { result.minimum = value }
        if let value = other.maximum { result.maximum = value }
        if let value = other.minItems { result.minItems = value }
        if let value = other.maxItems { result.maxItems = value }
        if let value = other.enumValues { result.enumValues = value }
        if let value = other.formats { result.formats = value }
        if let value = other.additionalDataValidations { result.additionalDataValidations = value }
        if let value = other.defaultValue { result.defaultValue = value }
        if let value = other.message { result.message = value }
        if let value = other.messages { result.messages = (result.messages ?? [:]).merging(value) { _, new in new } }
        result.locations.merge(other.locations) { _, new in new }
        return result
    }
}

/// Metadata that does not change how a value is checked but travels with the field: UI order and grouping, and
/// the sensitivity and lifecycle flags.
struct FieldMetadata: Sendable {
    var order: Int?
    var dataGroup: String?
    var ignoreForProvisioning: Bool?
    var pciEncryptionRequired: Bool?
    var storageRestricted: Bool?
    var maskingRequired: Bool?
    var updatesAllowed: Bool?
    var reverificationRequired: Bool?

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
            reverificationRequired: other.reverificationRequired ?? reverificationRequired)
    }
}

/// One entry of `additionalDataValidations` (`PDTenderTypeMetaDataAdditionalDataValidations`).
struct ValidationDefinition: Sendable {
    var location: SchemaLocation
    var minLength: Int?
    var maxLength: Int?
    var regex: String?
    var regexLocation: SchemaLocation?
    /// Whether `\d`, `\w`, `\s` and POSIX classes in `regex` match Unicode characters rather than ASCII only.
    var unicode: Bool
    var description: String?
    var message: String?
}

/// Attributes that apply when a condition holds: an entry of `overrides`, or of `tenderTypes` (whose condition
/// is "the caller's tender type is this one").
struct FieldOverride: Sendable {
    var location: SchemaLocation
    var condition: ConditionDefinition
    var attributes: FieldAttributes
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
}
