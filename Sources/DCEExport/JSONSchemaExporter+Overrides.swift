import DCEEngine

extension JSONSchemaExporter {
    // MARK: - Overrides

    /// Every combination of a field's override conditions that can hold, merged by the rules it leads to.
    mutating func cases(of field: CompiledField) -> [(ExportCondition, Rules)] {
        let overrides = field.overrides
        guard overrides.count <= 8 else {
            note("'\(field.key ?? "")' has more than 8 overrides; only its base rules are exported.")
            return [(.constant(true), field.base)]
        }
        var groups: [(key: String, condition: ExportCondition, attributes: Rules)] = []
        for mask in 0..<(1 << overrides.count) {
            var condition = ExportCondition.constant(true)
            for (index, override) in overrides.enumerated() {
                let test = translate(override.condition)
                condition = .and(condition, mask & (1 << index) != 0 ? test : .not(test))
            }
            let attributes = field.rules(holding: { mask & (1 << $0) != 0 })
            condition = condition.simplified
            if case .constant(false) = condition { continue }
            let key = signature(of: attributes)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].condition = ExportCondition.or(groups[index].condition, condition).simplified
            } else {
                groups.append((key, condition, attributes))
            }
        }
        return groups.map { ($0.condition, $0.attributes) }
    }

    /// What distinguishes two attribute sets for validation (names and messages do not).
    private func signature(of attributes: Rules) -> String {
        let validations = attributes.validationList.map { "\($0.lengths)/\($0.regex ?? "")" }
        return [
            "\(attributes.presence)", "\(attributes.lengths)",
            "\(attributes.valueRange)", "\(attributes.itemCounts)", attributes.enumValues.map { "\($0)" } ?? "",
            attributes.formatList.map(\.rawValue).joined(separator: ","), validations.joined(separator: ";"),
        ].joined(separator: "|")
    }

    /// Puts one `if`/`then` where its condition can see what it tests: on the object itself when it reads only
    /// the object's members, otherwise on the root with `then` reaching down to the object.
    mutating func place(
        condition: ExportCondition, then: SchemaValue, field: CompiledField, pathFromRoot: [String]?,
        into local: inout [SchemaValue]
    ) {
        if case .constant(true) = condition {
            local.append(then)
            return
        }
        if !condition.needsRoot || pathFromRoot == [] {
            local.append(
                .object([.init(key: "if", value: condition.schema(prefix: [])), .init(key: "then", value: then)]))
            return
        }
        guard let path = pathFromRoot else {
            note("A condition on '\(field.key ?? "")' reads outside an array item; it is not exported.")
            return
        }
        var wrapped = then
        for token in path.reversed() {
            wrapped = .object([.init(key: "properties", value: .object([.init(key: token, value: wrapped)]))])
        }
        rootConditionals.append(
            .object([.init(key: "if", value: condition.schema(prefix: path)), .init(key: "then", value: wrapped)]))
    }

    /// A compiled condition as an export condition: contexts given to the export become constants, contexts
    /// left out or bound from the request become the conditions that decide them. A relative pointer's object
    /// (`0/…`) is reached by `prefix` from the object being exported, or from the root when `fromRoot`: the object
    /// itself for an override, the bound field's object for a binding's `derive` rule, the root for a context's.
    private mutating func translate(_ condition: CompiledCondition, at prefix: [String] = [], fromRoot: Bool = false)
        -> ExportCondition
    {
        switch condition {
        case .all(let parts):
            return parts.map { translate($0, at: prefix, fromRoot: fromRoot) }.reduce(.constant(true)) { .and($0, $1) }
        case .any(let parts):
            return parts.map { translate($0, at: prefix, fromRoot: fromRoot) }.reduce(.constant(false)) { .or($0, $1) }
        case .not(let part): return .not(translate(part, at: prefix, fromRoot: fromRoot))
        case .tenderType(let test):
            return translate(scopes.source(of: nil, in: schema, context: context, tenderType: tenderType), test)
        case .context(let slot, let test):
            return translate(scopes.source(of: slot, in: schema, context: context, tenderType: tenderType), test)
        case .field(let up, let tokens, let test):
            guard let up else { return .field(tokens: tokens.map(\.text), test: test, fromRoot: true) }
            guard up == 0 else {
                note("A condition that climbs above its object ('\(up)/…') is not exported.")
                return .constant(true)
            }
            return .field(tokens: prefix + tokens.map(\.text), test: test, fromRoot: fromRoot)
        }
    }

    /// A test on a value set by the first of `rules` whose condition holds, or by `otherwise` when none does.
    private func firstHolding(
        _ rules: [(holds: ExportCondition, value: String)], _ test: CompiledTest, otherwise: ExportCondition
    ) -> ExportCondition {
        rules.reversed().reduce(otherwise) { result, rule in
            .or(.and(rule.holds, .constant(test.holds(forContext: rule.value))), .and(.not(rule.holds), result))
        }
    }

    /// A test on a context or the tender type whose value comes from `source`, as the resolver lays it out: a value
    /// becomes a constant, a member or a `derive` rule the conditions that decide it, read where they can be seen.
    private mutating func translate(_ source: ValueSource, _ test: CompiledTest) -> ExportCondition {
        switch source {
        case .value(let value):
            return .constant(test.holds(forContext: value))
        case .firstHolding(let rules, nil, let otherwise):
            // A context's own rules, read from the root; when none holds, the value stays absent.
            let translated = rules.map { (holds: translate($0.condition, fromRoot: true), value: $0.value) }
            return firstHolding(translated, test, otherwise: translate(otherwise, test))
        case .firstHolding(let rules, let anchor?, let otherwise):
            // What holds when the binding finds no value: the value from outside it.
            let outer = translate(otherwise, test)
            guard let (prefix, fromRoot) = relative(anchor) else {
                note(
                    "A context derived at a field read outside an array item is not exported; the value from outside applies."
                )
                return outer
            }
            let translated = rules.map {
                (holds: translate($0.condition, at: prefix, fromRoot: fromRoot), value: $0.value)
            }
            return firstHolding(translated, test, otherwise: outer)
        case .member(let key, let allowed, let anchor, let otherwise):
            let outer = translate(otherwise, test)
            guard let (prefix, fromRoot) = relative(anchor), let allowed else {
                note(
                    "A context bound from a member read outside an array item is not exported; the value from outside applies."
                )
                return outer
            }
            let strings = { (values: [String]) in CompiledTest(.oneOfStrings, values: values.map(SchemaValue.string)) }
            var result = ExportCondition.and(
                .not(.field(tokens: prefix + [key], test: strings(allowed), fromRoot: fromRoot)), outer)
            for value in allowed.reversed() {
                result = .or(
                    .and(
                        .field(tokens: prefix + [key], test: strings([value]), fromRoot: fromRoot),
                        .constant(test.holds(forContext: value))), result)
            }
            return result
        }
    }

    /// How a condition on the object being exported reaches a bound field's object: the tokens down to it, or its
    /// path from the root; `nil` when neither is possible (it lies in another array item).
    private func relative(_ anchor: [String]) -> ([String], Bool)? {
        if anchor.starts(with: holdingPath), !anchor.dropFirst(holdingPath.count).contains("*") {
            return (Array(anchor.dropFirst(holdingPath.count)), false)
        }
        return anchor.contains("*") ? nil : (anchor, true)
    }

    mutating func pushBindings(of field: CompiledField, anchor: [String]) {
        scopes.enter(field, anchor: anchor)
    }

    mutating func popBindings(of field: CompiledField) {
        scopes.leave(field)
    }
}
