/// The rules that hold at one value of a payload, as validation's walk found them there: the field's base rules with
/// the tender type's entries and every override whose condition held, under the contexts and tender type that the
/// fields above bound (`value`, `member` and `derive` bindings) and the contexts derived from the payload.
package struct RulesInForce {
    package init(field: CompiledField, ruling: FieldRuling, tenderType: String?, context: [String?]) {
        self.field = field
        self.ruling = ruling
        self.tenderType = tenderType
        self.context = context
    }

    /// The field describing the value.
    package let field: CompiledField
    /// What held there: the tender type, and which of the field's overrides (all decided).
    package let ruling: FieldRuling
    /// The field's rules after the overrides that held.
    package var rules: Rules { ruling.rules(of: field) }
    /// The tender type in force at the value.
    let tenderType: String?
    /// The context values in force at the value, by slot.
    let context: [String?]
}
