/// What the generator declares, before it is written as Swift: structures and open enums, each with the schema text
/// its documentation comes from.
indirect enum Declaration {
    case structure(Structure)
    case openEnum(OpenEnumeration)

    var name: String {
        switch self {
        case .structure(let structure): structure.name
        case .openEnum(let enumeration): enumeration.name
        }
    }
}

/// A schema's object (its root, a definition, an object written in place) or a root array, as a struct.
struct Structure {
    var name: String
    var documentation: Documentation
    /// The schema id, for a schema's root: the type is then a `ValidatableRequest`.
    var schemaID: String?
    var members: [Member]
    /// For a schema whose root is an array: the elements' type, held in `elements`.
    var elementType: String?
    /// Whether `Boolean` members also decode 0 and 1 (the schema's `numericBooleans`).
    var numericBooleans = false
    /// The types declared inside this one (objects and options written in place, without a `swiftName`).
    var nested: [Declaration] = []
    /// Where the object was written, for messages.
    var origin: String

    /// What two objects declared under one `swiftName` must agree on to be one type.
    var shape: [String] { members.map { "\($0.key):\($0.type):\($0.presence)" } + [elementType ?? ""] }
}

/// A member of a structure: one field.
struct Member {
    enum Presence: String {
        /// Always sent: the field is required under every override.
        case required
        /// Left out when `nil`.
        case optional
        /// Left out, `null` or a value (a merge patch's nullable field).
        case patch
    }

    /// The JSON key.
    var key: String
    /// The Swift name, escaped when it is a keyword.
    var name: String
    /// The Swift type, without `Optional` or `Patch`.
    var type: String
    var presence: Presence
    var documentation: Documentation
    /// The value the initializer gives it when the caller does not (a field with a single option).
    var defaultValue: String?
    /// Whether it is a `Boolean` that also decodes 0 and 1.
    var numericBoolean = false
    /// Whether the masking policy shows it masked: the type then has a `masked…` property.
    var masked = false

    /// The type as declared.
    var declaredType: String {
        switch presence {
        case .required: type
        case .optional: type + "?"
        case .patch: "Patch<\(type)>"
        }
    }
}

/// An `OpenEnum` of a field's options.
struct OpenEnumeration {
    var name: String
    var documentation: Documentation
    /// The known cases: Swift name and raw value, in the schema's order.
    var cases: [(name: String, rawValue: String)]
    var origin: String
}

/// A declaration's English name and description from the schema.
struct Documentation {
    var name: String?
    var description: String?
}
