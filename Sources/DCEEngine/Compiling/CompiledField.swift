internal import DCEPattern

/// Which of the sensitivity flags a field carries; any of them keeps its value out of every output.
package struct Sensitivity: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let pciEncryptionRequired = Sensitivity(rawValue: 1)
    package static let storageRestricted = Sensitivity(rawValue: 2)
    package static let maskingRequired = Sensitivity(rawValue: 4)
}

extension Sensitivity {
    /// What the one masking policy (``Masking``) lets an output or a screen show of a value with these flags.
    package enum Exposure: Sendable {
        /// The value: it has no flag.
        case value
        /// Its masked form: `maskingRequired` (a card number), even when it is also encrypted or not to be stored,
        /// since the masked form is what PCI DSS lets a screen show.
        case maskedForm
        /// Nothing of it: encrypted or not to be stored, and not to be masked (a security code, a PIN); a form takes
        /// it with secure entry.
        case nothing
    }

    /// What may be shown of a value with these flags.
    package var exposure: Exposure {
        if isEmpty { return .value }
        return contains(.maskingRequired) ? .maskedForm : .nothing
    }
}

extension FieldMetadata {
    /// The sensitivity flags this metadata sets.
    var sensitivity: Sensitivity {
        var flags: Sensitivity = []
        if pciEncryptionRequired == true { flags.insert(.pciEncryptionRequired) }
        if storageRestricted == true { flags.insert(.storageRestricted) }
        if maskingRequired == true { flags.insert(.maskingRequired) }
        return flags
    }
}

/// A field ready to evaluate: types resolved, patterns compiled, pointers checked. Evaluation reads it lowered
/// into a ``RuleProgram``; forms, export and the rest read it as it is.
package final class CompiledField: Sendable {
    package let location: SchemaLocation
    package let key: String?
    package let dataType: DataType
    /// The rules before any override, with the name resolved (the field's `name`, else its key).
    package let base: Rules
    /// The field's name in English, as in ``base``.
    package let name: String
    /// The field's name for messages in every language the schema gives it.
    package let label: LocalizedText
    package let overrides: [CompiledOverride]
    package let fields: [CompiledField]
    /// The fields by the bytes of their keys, for lookups during evaluation.
    let keyTable: KeyTable
    /// The key escaped as a JSON Pointer token, computed once.
    let pointerToken: String
    package let additionalFields: Bool
    package let items: CompiledField?
    /// The sensitivity flags the field has under any tender type: every output keeps its value out.
    package let sensitivity: Sensitivity
    /// The metadata without a tender type (see ``metadata(for:)``).
    package let metadata: FieldMetadata
    /// The metadata under each tender type that changes it.
    let tenderTypeMetadata: [String: FieldMetadata]
    /// The attributes for every combination of overrides that hold, indexed by a bitmask over `overrides`
    /// (bit *i* set when override *i* holds), computed once so that evaluation neither copies nor allocates.
    /// Empty when a field has more overrides than ``maxPrecomputedOverrides``.
    let variants: [AttributeSet]
    /// The base attributes, shared.
    let baseSet: AttributeSet
    /// The most overrides whose combinations are precomputed (2⁸ = 256 attribute sets).
    static let maxPrecomputedOverrides = 8

    /// The value used when the request has none (`PDMetaData.defaultValue`), without a tender type (see
    /// ``defaultValue(for:)``).
    let defaultValue: SchemaValue?
    /// The default under each tender type that sets its own.
    let tenderTypeDefaults: [String: SchemaValue]
    /// The field's description, citing where its rules come from.
    package let description: String?
    /// The contexts (and tender type) this field binds for its value and everything below it, applied in order.
    package let bindings: [CompiledBinding]
    /// Another document the value must be found in, checked when it is given (`existsIn`).
    package let existsIn: DocumentReference?
    /// For an object, the rules that judge its members together (`postalAddress`), in the order of their kinds.
    package let objectRules: [any ObjectRuleKind]

    init(
        location: SchemaLocation, key: String?, dataType: DataType, base: Rules,
        overrides: [CompiledOverride], fields: [CompiledField], additionalFields: Bool, items: CompiledField?,
        sensitivity: Sensitivity, metadata: FieldMetadata, tenderTypeMetadata: [String: FieldMetadata] = [:],
        defaultValue: SchemaValue?, tenderTypeDefaults: [String: SchemaValue] = [:], description: String?,
        bindings: [CompiledBinding] = [], patterns: [String: CompiledPattern], objectRules: [any ObjectRuleKind] = [],
        existsIn: DocumentReference? = nil
    ) {
        self.objectRules = objectRules
        self.existsIn = existsIn
        self.location = location
        self.key = key
        self.dataType = dataType
        self.base = base
        self.label = base.name ?? LocalizedText(key ?? "")
        self.name = label.english
        self.overrides = overrides
        self.fields = fields
        self.keyTable = KeyTable(keys: fields.map(\.key))
        self.baseSet = AttributeSet(base, patterns: patterns)
        if !overrides.isEmpty && overrides.count <= Self.maxPrecomputedOverrides {
            self.variants = (0..<(1 << overrides.count)).map { mask in
                AttributeSet(Self.rules(base, overrides, holding: { mask & (1 << $0) != 0 }), patterns: patterns)
            }
        } else {
            self.variants = []
        }
        self.pointerToken = JSONPointer.escape(key ?? "")
        self.additionalFields = additionalFields
        self.items = items
        self.sensitivity = sensitivity
        self.metadata = metadata
        self.tenderTypeMetadata = tenderTypeMetadata
        self.defaultValue = defaultValue
        self.tenderTypeDefaults = tenderTypeDefaults
        self.description = description
        self.bindings = bindings
    }

    /// The field's metadata under a tender type (`order`, `dataGroup`, `updatesAllowed`, …).
    func metadata(for tenderType: String?) -> FieldMetadata {
        tenderType.flatMap { tenderTypeMetadata[$0] } ?? metadata
    }

    /// The field's default under a tender type.
    package func defaultValue(for tenderType: String?) -> SchemaValue? {
        tenderType.flatMap { tenderTypeDefaults[$0] } ?? defaultValue
    }
}

/// An immutable, shared set of attributes: the messages and values a violation needs, and the checks of strings and
/// the plain values (``Record``) evaluation reads.
package final class AttributeSet: Sendable {
    package let name: LocalizedText
    let lengths: Lengths
    let valueRange: ValueRange
    let itemCounts: ItemCounts
    let options: Options?
    let formats: [Format]
    let validations: [Validation]
    /// The compiled regex of each validation (`nil` for one without a regex), kept alive for ``stringChecks``.
    let patterns: [CompiledPattern?]
    package let message: LocalizedText?
    let messages: FieldMessages?
    /// `validations` without their messages, for the hot path.
    let stringChecks: ContiguousArray<StringCheck>
    /// The set as plain values, built once; its ``Record/checks`` are places in ``stringChecks`` (a ``RuleProgram``
    /// gathers every set's checks in one table, and its records refer to that).
    let record: Record

    /// The set for compiled rules; `patterns` holds every regex they use, by ``Validation/patternKey``.
    package init(_ value: Rules, patterns compiled: [String: CompiledPattern]) {
        name = value.name ?? LocalizedText("")
        lengths = value.lengths
        valueRange = value.valueRange
        itemCounts = value.itemCounts
        options = value.options
        formats = value.formatList
        validations = value.validationList
        patterns = validations.map { validation in validation.patternKey.flatMap { compiled[$0] } }
        message = value.message
        messages = value.messages
        stringChecks = ContiguousArray(zip(validations, patterns).map(StringCheck.init))
        record = Record(
            mustBePresent: value.presence.mustBePresent, mustBeAbsent: value.presence.mustBeAbsent,
            acceptsNull: value.presence.acceptsNull, lengths: lengths,
            itemCounts: itemCounts, hasValueRange: !valueRange.isEmpty, hasEnum: options != nil,
            formats: FormatSet(formats), checks: 0..<stringChecks.count,
            hasPatterns: patterns.contains { $0 != nil })
    }

    /// What evaluation reads of an ``AttributeSet`` while a value passes; the set itself is read only for a
    /// violation, `enum` values and numeric bounds.
    struct Record: Sendable {
        let mustBePresent: Bool
        let mustBeAbsent: Bool
        let acceptsNull: Bool
        let lengths: Lengths
        let itemCounts: ItemCounts
        /// Whether `minimum` or `maximum` is set.
        let hasValueRange: Bool
        let hasEnum: Bool
        let formats: FormatSet
        /// The set's checks: places in ``RuleProgram/Tables/checks`` for a set of the program, in the evaluation's
        /// own table for a set computed while evaluating (``checksInWalk``).
        var checks: Range<Int>
        /// Whether any check has a regex (so evaluation knows it needs match data).
        let hasPatterns: Bool
        /// The set's place in ``RuleProgram/Tables/attributeObjects``, or -1 for a set computed while evaluating.
        var object = -1
        /// Whether ``checks`` are places in the evaluation's table of checks (a set computed while evaluating).
        var checksInWalk = false
    }
}

/// A context value, or the tender type, bound at a field for its value and everything below it.
package struct CompiledBinding: Sendable {
    /// The context's slot, or `nil` for the tender type.
    var slot: Int?
    var source: Source

    enum Source: Sendable {
        /// A fixed value.
        case value(String)
        /// The value of a member of the field's object, when it is a string among `allowed` (`nil`: any string).
        case member(String, allowed: [String]?)
        /// The value of the first rule whose condition holds (relative pointers start at the field's object).
        case derive([(condition: CompiledCondition, value: String)])
    }
}

/// An override whose condition is evaluated per request.
package struct CompiledOverride: Sendable {
    package var condition: CompiledCondition
    /// What the override changes.
    var patch: Rules
    /// For a tender type's entry, its tender type.
    var tenderType: String? = nil
}

/// A context the caller may supply, with the rules that derive it from the request otherwise.
package struct CompiledContext: Sendable {
    package var name: String
    var description: String?
    package var values: [String]?
    var derive: [(condition: CompiledCondition, value: String)]
    /// Where it is declared.
    package var location: SchemaLocation
}
