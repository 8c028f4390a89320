/// The rules that hold at one value of a payload, as validation's walk found them there: the field's base rules with
/// the tender type's entries and every override whose condition held, under the contexts and tender type that the
/// fields above bound (`value`, `member` and `derive` bindings) and the contexts derived from the payload.
package struct RulesInForce {
    /// The field describing the value.
    package let field: CompiledField
    /// The field's rules after the overrides that held.
    package let rules: Rules
    /// The tender type in force at the value.
    let tenderType: String?
    /// The context values in force at the value, by slot.
    let context: [String?]
}
