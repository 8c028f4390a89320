extension CompiledSchema {
    /// Every field's `defaultValue` checked against the field's own rules, with no context and no tender type: a
    /// default that breaks them would make invalid every request that leaves the field out. Run once, after the
    /// schema is compiled (evaluation is the layer above compiling, so the compiler cannot run it itself).
    func defaultValueProblems() -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        let plan = EvaluationPlan(schema: self, context: [], tenderType: nil)
        func check(_ field: CompiledField) {
            for child in field.fields { check(child) }
            if let items = field.items { check(items) }
            guard let defaultValue = field.defaultValue,
                let document = try? JSONDocument(bytes: Array(defaultValue.json.utf8))
            else { return }
            for violation in plan.check(document, against: field) {
                problems.append(SchemaProblem(
                    code: .invalidDefault, message: "the defaultValue breaks the field's own rules: \(violation.message)",
                    location: field.location))
            }
        }
        check(root)
        return problems
    }
}
