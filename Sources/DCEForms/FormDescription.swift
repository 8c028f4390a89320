public import DCEEngine
import Foundation

/// What a screen needs to build a form from metadata alone: the fields of a schema, for one context and tender
/// type, in `order` and grouped by `dataGroup`.
///
/// ```swift
/// let form = try validator.schema("payment-account")!.describeForm(tenderType: "credit")
/// for group in form.groups { for field in group.fields { print(field.label, field.required, field.inputHint) } }
/// ```
public struct FormDescription: Codable, Sendable, Hashable {
    /// The schema id.
    public var schema: String
    /// The schema's title.
    public var title: String?
    /// The context the form was described for.
    public var context: [String: String]
    /// The tender type the form was described for.
    public var tenderType: String?
    /// The groups, in the order of their first field.
    public var groups: [Group]

    /// The fields of one `dataGroup` (`nil` for fields without one).
    public struct Group: Codable, Sendable, Hashable {
        /// The data group, such as `CARD_INFORMATION`.
        public var dataGroup: String?
        /// The fields, in `order` (then as written).
        public var fields: [Field]
    }

    /// One input of the form.
    public struct Field: Codable, Sendable, Hashable {
        /// The JSON Pointer of the value in the request; a field of the items of a list has `-` for the item
        /// (`/paymentAccounts/-/cardNumber`: that field of every item).
        public var path: String
        /// The member name.
        public var key: String
        /// The label (`name`).
        public var label: String
        /// The `dataType`.
        public var dataType: String
        /// Whether the field must be filled in for this context and tender type.
        public var required: Bool
        /// Whether another field's value can make it required (a rule the form should re-check as the user types).
        public var conditionallyRequired: Bool
        /// Whether the field must not be sent for this context and tender type (a form hides it).
        public var forbidden: Bool
        /// The minimum length, in characters.
        public var minLength: Int?
        /// The maximum length, in characters.
        public var maxLength: Int?
        /// The allowed values, when the field is a choice.
        public var options: [String]?
        /// How to present the input: `text`, `numeric`, `phone`, `date`, `datetime`, `toggle`, `choice`, `currency`,
        /// `country`, `group` (nested fields) or `list`.
        public var inputHint: String
        /// Whether the value is shown masked, as ``/DCEEngine/Masking/mask(_:brands:)`` shows it (`•••• •••• •••• 4215`).
        public var masked: Bool
        /// Whether the value must never be written to storage, logs or drafts.
        public var storageRestricted: Bool
        /// Whether the value is encrypted before it is sent.
        public var pciEncryptionRequired: Bool
        /// Whether an update may change it (`nil`: the schema does not say).
        public var updatesAllowed: Bool?
        /// Whether a change needs reverification.
        public var reverificationRequired: Bool
        /// Whether it is skipped when provisioning a new account.
        public var ignoreForProvisioning: Bool
        /// The `order` attribute.
        public var order: Int?
        /// The fewest characters an input takes: ``minLength``, narrowed by what the field's patterns imply
        /// (`^[0-9]{4}$`: 4), which validation reports as `regex` rather than as a length.
        public var inputMinLength: Int? = nil
        /// The most characters an input takes: ``maxLength``, narrowed by what the field's patterns imply.
        public var inputMaxLength: Int? = nil
        /// What an empty input shows (`placeholder`), in the form's language.
        public var placeholder: String? = nil
        /// What to enter, in a sentence (`help`), in the form's language.
        public var help: String? = nil
        /// The autofill hint (`autofill`): an HTML `autocomplete` token such as `cc-number`, or `off`.
        public var autofill: String? = nil
        /// For a member of an address (`postalAddress`): which part it is, and what its country says of it.
        public var address: AddressPart? = nil
    }

    /// What an address member is, and, once the address's country is given, what that country asks of it (from
    /// `Schemas/reference/addresses.json`): what a form needs to relabel, require, hide or offer choices for.
    public struct AddressPart: Codable, Sendable, Hashable {
        /// The part: `streetAddress`, `city`, `cityArea`, `state`, `postalCode` or `sortingCode`.
        public var part: String
        /// The JSON Pointer of the member naming the country, whose value these rules follow.
        public var countryPath: String
        /// The country given (ISO 3166-1 alpha-2), when it is one the data knows.
        public var country: String?
        /// Whether the country's addresses have the part (a form may hide it when not).
        public var used: Bool?
        /// Whether the country requires it (also reflected in ``Field/required``).
        public var required: Bool?
        /// What the country calls it, as the data names it (`zip`, `postal`, `pin`; `state`, `province`, `prefecture`).
        public var name: String?
        /// Postal codes of the country (or of the given state), for a placeholder.
        public var examples: [String]?
        /// The country's subdivisions, for a state: how the post writes each and its first other name.
        public var subdivisions: [Subdivision]?
    }

    /// A state, province or other subdivision a form offers.
    public struct Subdivision: Codable, Sendable, Hashable {
        /// How the post writes it (`CA`), the value to send.
        public var key: String
        /// Its name (`California`), when the data has one beside the key.
        public var name: String?
    }
}

/// The form a schema describes for a context and tender type.
extension CompiledSchema {
    /// Describes the schema's form for a context and tender type.
    ///
    /// Overrides that depend only on the context or the tender type are applied; an override that depends on the
    /// value of another field marks the field ``FormDescription/Field/conditionallyRequired`` when it can make it
    /// required.
    ///
    /// Values other fields already hold may be `given`: an override whose condition reads one of them applies or not
    /// as the value decides, and an address's members follow its given country (``FormDescription/AddressPart``).
    ///
    /// - Parameters:
    ///   - context: Context values, such as `["region": "US"]`.
    ///   - tenderType: The tender type.
    ///   - given: What other fields already hold, by JSON Pointer, as text (`["/countryCode": "DE"]`).
    ///   - language: The language of the title and labels (`de`); a language the schema does not give reads English.
    /// - Returns: The form.
    /// - Throws: ``/DCEEngine/ValidatorError`` for an undeclared context or value, an unknown tender type, or a pointer of `given`
    ///   that names no field.
    public func describeForm(
        context: [String: String] = [:], tenderType: String? = nil, given: [String: String] = [:],
        language: String = "en"
    ) throws(ValidatorError) -> FormDescription {
        try describeForm(
            context: context, tenderType: tenderType, known: givenValues(given), language: language, reads: nil
        ) { $0.text(in: language) }
    }

    /// ``describeForm(context:tenderType:given:language:)`` in a catalogue's language, with the app's words for the
    /// schema's texts where its String Catalog has them (``/DCEEngine/MessageCatalogue/overriding(stringCatalog:)``),
    /// the values given by their tokens (each a field's), and the values it reads recorded in `reads` (but those the
    /// contexts are derived from: see ``/DCEEngine/CompiledSchema/formScope(context:tenderType:given:)``).
    package func describeForm(
        context: [String: String], tenderType: String?, known: [[String]: String], messages: MessageCatalogue,
        reads: GivenReads? = nil
    ) throws(ValidatorError) -> FormDescription {
        try describeForm(
            context: context, tenderType: tenderType, known: known, language: messages.language, reads: reads
        ) { messages.text($0) }
    }

    private func describeForm(
        context: [String: String], tenderType: String?, known: [[String]: String], language: String,
        reads: GivenReads?, text: (LocalizedText) -> String
    ) throws(ValidatorError) -> FormDescription {
        let fields = try fieldsInForce(context: context, tenderType: tenderType, given: known, reads: reads).map {
            entry in
            var described = describe(
                entry.field, key: entry.key, path: entry.path, attributes: entry.rules, metadata: entry.metadata,
                conditional: entry.conditional, text: text)
            describeObjectRules(
                &described, place: entry.place, of: entry.parent, at: Array(entry.tokens.dropLast()), given: known,
                reads: reads)
            return (field: described, group: entry.group, rank: entry.rank)
        }
        var groups: [FormDescription.Group] = []
        for entry in fields {
            if let index = groups.firstIndex(where: { $0.dataGroup == entry.group }) {
                groups[index].fields.append(entry.field)
            } else {
                groups.append(FormDescription.Group(dataGroup: entry.group, fields: [entry.field]))
            }
        }
        let ranks = Dictionary(fields.map { ($0.field.path, $0.rank) }) { first, _ in first }
        for index in groups.indices {
            groups[index].fields.sort { (ranks[$0.path] ?? []).lexicographicallyPrecedes(ranks[$1.path] ?? []) }
        }
        return FormDescription(
            schema: id, title: root.base.name.map(text), context: context, tenderType: tenderType,
            groups: groups)
    }

}

extension CompiledSchema {
    private func describe(
        _ field: CompiledField, key: String, path: String, attributes: Rules, metadata: FieldMetadata,
        conditional: Bool,
        text: (LocalizedText) -> String
    ) -> FormDescription.Field {
        let options = attributes.options?.labels
        let lengths = attributes.effectiveLengths
        let input = attributes.inputLengths
        return FormDescription.Field(
            path: path, key: key, label: text(attributes.name ?? field.label),
            dataType: field.dataType.rawValue, required: attributes.presence.mustBePresent,
            conditionallyRequired: conditional, forbidden: attributes.presence.mustBeAbsent, minLength: lengths.lower,
            maxLength: lengths.upper, options: options,
            inputHint: Self.inputHint(field, attributes, hasOptions: options != nil),
            masked: metadata.maskingRequired ?? false, storageRestricted: metadata.storageRestricted ?? false,
            pciEncryptionRequired: metadata.pciEncryptionRequired ?? false, updatesAllowed: metadata.updatesAllowed,
            reverificationRequired: metadata.reverificationRequired ?? false,
            ignoreForProvisioning: metadata.ignoreForProvisioning ?? false, order: metadata.order,
            inputMinLength: input.lower, inputMaxLength: input.upper,
            placeholder: attributes.placeholder.map(text), help: attributes.help.map(text),
            autofill: metadata.autofill)
    }

    /// Adds to a member what the rules over its object's members say of it
    /// (``ObjectRuleKind/describe(_:keys:at:given:reference:)``): for a part of an address, what part it is and,
    /// when the address's country is given and known, what the country asks of it (when it requires the part, the
    /// field is required).
    private func describeObjectRules(
        _ described: inout FormDescription.Field, place: Int, of object: CompiledField, at tokens: [String],
        given: [[String]: String], reads: GivenReads?
    ) {
        guard !object.objectRules.isEmpty else { return }
        let keys = object.fields.map(\.key)
        func value(_ member: Int) -> String? {
            guard let key = keys[member] else { return nil }
            let value = given[tokens + [key]]
            reads?.record(tokens + [key], value)
            return value
        }
        for rule in object.objectRules {
            guard let part = rule.describe(place, keys: keys, at: tokens, given: value, reference: reference) else {
                continue
            }
            if part.required == true { described.required = true }
            // The given country's example is a better placeholder than the schema's, which cannot know the country.
            if let example = part.examples?.first { described.placeholder = example }
            described.address = FormDescription.AddressPart(
                part: part.part, countryPath: part.countryPath, country: part.country, used: part.used,
                required: part.required, name: part.name, examples: part.examples,
                subdivisions: part.subdivisions?.map { FormDescription.Subdivision(key: $0.key, name: $0.name) })
        }
    }

    /// The kind of input a field wants, from its type, its formats and its patterns.
    private static func inputHint(_ field: CompiledField, _ attributes: Rules, hasOptions: Bool) -> String {
        switch field.dataType {
        case .boolean: return "toggle"
        case .date: return "date"
        case .dateTime: return "datetime"
        case .object: return "group"
        case .array: return "list"
        case .integer, .number: return "numeric"
        case .string: break
        }
        if hasOptions { return "choice" }
        let formatKinds = Set(attributes.formatList.compactMap(\.inputKind))
        // by precedence
        if let kind = ["currency", "country", "numeric"].first(where: formatKinds.contains) { return kind }
        let patterns = attributes.validationList.compactMap(\.regex)
        if patterns.contains(where: { $0.hasPrefix("^\\+") }) { return "phone" }
        if !patterns.isEmpty, patterns.allSatisfy(isDigitsOnly) { return "numeric" }
        return "text"
    }

    /// Whether a pattern accepts only digits: built from `[0-9]` or `\d`, counts, groups and alternatives. Read byte by
    /// byte: a form describes itself again whenever a value it reads changes.
    private static func isDigitsOnly(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        let digitClass = Array("[0-9]".utf8)
        var index = 0
        var digits = false
        while index < bytes.count {
            if bytes[index...].starts(with: digitClass) {
                digits = true
                index += digitClass.count
            } else if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "d")
            {
                digits = true
                index += 2
            } else if Self.digitPatternBytes.contains(bytes[index]) {
                index += 1
            } else {
                return false
            }
        }
        return digits
    }

    /// What a pattern of digits holds besides its digit classes: anchors, counts, groups and alternatives.
    private static let digitPatternBytes = Set("^$(){},|?0123456789".utf8)
}
