/// The rules that hold at one value of a payload, as validation's walk found them there: the field's base rules with
/// the tender type's entries and every override whose condition held, under the contexts and tender type that the
/// fields above bound (`value`, `member` and `derive` bindings) and the contexts derived from the payload.
package struct RulesInForce: Sendable, Equatable {
    /// What the walk found at a value: its field, what held there and the context values in force.
    package init(field: CompiledField, ruling: FieldRuling, context: [String?]) {
        self.field = field
        self.ruling = ruling
        self.context = context
    }

    /// The field describing the value.
    package let field: CompiledField
    /// What held there: the tender type, and which of the field's overrides (all decided).
    package let ruling: FieldRuling
    /// The field's rules after the overrides that held, laid over each other when asked for: a form's walk records
    /// the rules in force at every member, and a keystroke reads those of the few fields it works out again (read
    /// them once where they are read several times).
    package var rules: Rules { ruling.rules(of: field) }
    /// The tender type in force at the value (the walk knows it).
    var tenderType: String? { ruling.tenderType.known ?? nil }
    /// The context values in force at the value, by slot.
    let context: [String?]

    /// The same rules: compared by what they follow from (the field, what held, the context values), not laid over
    /// each other to compare.
    package static func == (lhs: RulesInForce, rhs: RulesInForce) -> Bool {
        lhs.field === rhs.field && lhs.ruling == rhs.ruling && lhs.context == rhs.context
    }
}
