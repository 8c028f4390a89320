/// The rules of one field that a context, a tender type or a condition may change (`PDMetaData` and its
/// `PDTenderTypeMetaData` overrides): one attribute set, used as read from a schema, as resolved through `ref`s, and
/// as compiled, for the base and for every override.
///
/// `nil` means "not written here", so that an override changes only what it names. ``overlaid(with:)`` is the one
/// place where one set is laid over another: a referenced definition under the field's own attributes, and a
/// field's base under each override that holds (in evaluation, forms, partial input and export alike).
package struct Rules: Sendable {
    package var name: LocalizedText?
    /// What an empty input of a form shows (`MM/YY`), in each language.
    package var placeholder: LocalizedText?
    /// A sentence a form shows by the field, saying what to enter (`The 3 or 4 digits on the back of the card`).
    package var help: LocalizedText?
    package var description: String?
    /// Set on a field's base only: overrides cannot change a type.
    package var dataType: DataType?
    package var presence = Presence()
    package var lengths = Lengths()
    package var valueRange = ValueRange()
    package var itemCounts = ItemCounts()
    package var enumValues: [SchemaValue]?
    /// Format names as written; the compiler refuses a schema with an unknown one, so compiled rules hold known names.
    var formats: [String]?
    var validations: [Validation]?
    package var defaultValue: SchemaValue?
    package var message: LocalizedText?
    package var messages: FieldMessages?
    /// Where each attribute was written, by attribute name, for compile-time problems.
    package var locations: [String: SchemaLocation] = [:]

    /// These rules with every attribute that `other` writes taking precedence (messages merge per rule).
    func overlaid(with other: Rules) -> Rules {
        var result = self
        if let value = other.name { result.name = value }
        if let value = other.placeholder { result.placeholder = value }
        if let value = other.help { result.help = value }
        if let value = other.description { result.description = value }
        if let value = other.dataType { result.dataType = value }
        result.presence = presence.overlaid(with: other.presence)
        result.lengths = lengths.overlaid(with: other.lengths)
        result.valueRange = valueRange.overlaid(with: other.valueRange)
        result.itemCounts = itemCounts.overlaid(with: other.itemCounts)
        if let value = other.enumValues { result.enumValues = value }
        if let value = other.formats { result.formats = value }
        if let value = other.validations { result.validations = value }
        if let value = other.defaultValue { result.defaultValue = value }
        if let value = other.message { result.message = value }
        if let value = other.messages { result.messages = result.messages.map { $0.merging(value) } ?? value }
        result.locations.merge(other.locations) { _, new in new }
        return result
    }

    /// The formats, any one of which a value must have; unknown names (refused when compiling) are left out.
    package var formatList: [Format] { formats?.compactMap(Format.init(rawValue:)) ?? [] }
    /// The `additionalDataValidations`, none when not written.
    package var validationList: [Validation] { validations ?? [] }
}

/// A field's own messages, by rule code and language (`*`: any language), placeholders checked when read.
package struct FieldMessages: Sendable {
    var byRule: [String: [String: MessageTemplate]]

    /// The text for a rule in a language, or in any language; `nil` leaves the message to the catalogue.
    func template(for rule: ViolationCode, language: String) -> MessageTemplate? {
        guard let texts = byRule[rule.rawValue] else { return nil }
        return texts[language] ?? texts["*"]
    }

    /// These messages with another set's rules taking precedence.
    func merging(_ other: FieldMessages) -> FieldMessages {
        FieldMessages(byRule: byRule.merging(other.byRule) { _, new in new })
    }
}
