/// The presence rules (`PDMetaData` required, and the schema language's `forbidden` and `nullable`): whether a field
/// must be sent, must not be, and whether `null` stands in for a value.
///
/// Everything presence means is here, and every consumer asks it: how the three are overlaid, the one combination a
/// single attribute set may not write, when a missing member or a `null` breaks them (validation), what a form shows as
/// required and forbidden, and the `required` list and `null` type of JSON Schema (export). `forbidden` wins over
/// `required`: an override may forbid a field its base requires, and while it holds the field is not required.
package struct Presence: Sendable, Hashable {
    package var required: Bool?
    package var forbidden: Bool?
    package var nullable: Bool?

    /// These rules with each one that `other` writes taking precedence.
    func overlaid(with other: Presence) -> Presence {
        Presence(
            required: other.required ?? required, forbidden: other.forbidden ?? forbidden,
            nullable: other.nullable ?? nullable)
    }

    /// Whether the field must be sent, with a value other than `null` (a forbidden field never must).
    package var mustBePresent: Bool { required == true && forbidden != true }
    /// Whether the field must not be sent at all.
    package var mustBeAbsent: Bool { forbidden == true }
    /// Whether `null` is accepted in place of a value.
    package var acceptsNull: Bool { !mustBePresent && nullable == true }
    /// Whether this set, or an override laid over it, may make the field required.
    var mayRequire: Bool { required == true }

    /// What is wrong with one attribute set as written: requiring and forbidding the field at once says nothing
    /// sensible (an override that forbids what its base requires is fine).
    var contradiction: String? {
        required == true && forbidden == true ? "cannot be both required and forbidden" : nil
    }
}
