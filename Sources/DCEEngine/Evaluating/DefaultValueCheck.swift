extension CompiledSchema {
    /// Every field's `defaultValue` checked against the field's own rules, with no context and no tender type, and
    /// every tender type's own default against the field's rules under that tender type: a default that breaks them
    /// would make invalid every request that leaves the field out. Run once, after the schema is compiled
    /// (evaluation is the layer above compiling, so the compiler cannot run it itself).
    func defaultValueProblems() -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        let plans = [nil: EvaluationPlan(schema: self, context: [], tenderType: nil)].merging(
            tenderTypes.map { ($0, EvaluationPlan(schema: self, context: [], tenderType: $0)) }
        ) { first, _ in first }
        func check(_ field: CompiledField) {
            for child in field.fields { check(child) }
            if let items = field.items { check(items) }
            let defaults =
                [(nil, field.defaultValue)]
                + field.tenderTypeDefaults.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            for case (let tenderType, let defaultValue?) in defaults {
                guard let plan = plans[tenderType],
                    let document = try? JSONDocument(bytes: Array(defaultValue.json.utf8))
                else { continue }
                for violation in plan.check(document, against: field) {
                    problems.append(
                        SchemaProblem(
                            code: .invalidDefault,
                            message:
                                "the defaultValue\(tenderType.map { " of tender type \($0)" } ?? "") breaks the field's own rules: \(violation.message)",
                            location: field.location))
                }
            }
        }
        check(root)
        return problems
    }
}
