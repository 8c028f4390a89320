import DCEEngine

/// Witnesses of breaking request changes: a payload the old schema accepts and the new one refuses at the changed
/// field, under the change's context and tender type, taken from the examples or made from one of them with the
/// changed field at the old rules' boundary.
extension SchemaComparison {
    func withWitness(_ change: SchemaChange, before: CompiledSchema, after: CompiledSchema) -> SchemaChange {
        // A payload the old schema accepts and the new one refuses shows every tightening, of a request or a response.
        guard change.breaking, [.tightening, .both].contains(SchemaChange.kinds[change.change]) else { return change }
        var change = change
        if change.change.hasPrefix("exists-in-") {
            // The lookup reads a document given beside the payload (`--with`), so no payload alone shows the break.
            change.noWitness =
                "the value is looked up in another document given at validation (--with SCHEMA=FILE): a payload "
                + "shows it only with that document, and none is compared here"
            return change
        }
        let examples = self.examples[before.id] ?? []
        // The change's own scope first, then each example's that holds it (its context, more of it, or a tender type
        // where the change names none): a change to a field's base holds under every scope, and an example is valid
        // only under its own.
        let given = change.givenValue
        var scopes = [Scope(context: change.context, tenderType: change.tenderType, given: given)]
        for example in examples {
            let scope = Scope(context: example.context, tenderType: example.tenderType, given: given)
            let holds =
                change.context.allSatisfy { example.context[$0.key] == $0.value }
                && (change.tenderType == nil || change.tenderType == example.tenderType)
            if holds && !scopes.contains(scope) { scopes.append(scope) }
        }
        var tried = 0
        var valid = 0
        var made = 0
        for scope in scopes {
            guard
                let then = try? PreparedSchema(
                    schema: before, context: scope.context, tenderType: scope.tenderType, now: old.now)
            else { continue }
            var bases = examples.compactMap { holding(scope.given, $0, in: before) }.filter {
                then.validate(json: $0.payload).valid
            }
            valid += bases.count
            // Where no example fits, or none shows the change: a payload made from the old schema.
            if let payload = madePayload(for: before, in: scope, prepared: then, including: change.path) {
                var example = Example(
                    name: "made from the schema", payload: payload, context: scope.context,
                    tenderType: scope.tenderType)
                example.made = true
                bases.append(example)
                made += 1
            }
            guard !bases.isEmpty else { continue }
            // A context value or tender type the new schema no longer declares refuses every payload sent with it.
            guard
                let now = try? PreparedSchema(
                    schema: after, context: scope.context, tenderType: scope.tenderType, now: new.now)
            else {
                change.witness = witness(bases[0].payload, source: bases[0].name, scope: scope, shownBy: then)
                return change
            }
            let candidates = self.candidates(for: change, in: scope, bases: bases, before: before, after: after)
            tried += candidates.count
            for (payload, source) in candidates {
                guard then.validate(json: payload).valid else { continue }
                let refused = now.validate(json: payload).errors
                guard refused.contains(where: { Self.path($0.path, isAt: change.path) }) else { continue }
                change.witness = witness(payload, source: source, scope: scope, shownBy: then)
                return change
            }
        }
        // A response's tightening is shown when a payload shows it; a response break is the readers', whatever the
        // payloads show, so no witness is no reason to doubt it.
        guard change.direction == .request else { return change }
        if valid == 0 && made == 0 {
            change.noWitness =
                "none of the \(examples.count) examples of \(before.id) is valid under the old schema, and no payload "
                + "made from it is (a pattern no sample matches)" + (change.scope.isEmpty ? "" : " (\(change.scope))")
            return change
        }
        // What the rules say tightened, no payload tried shows: another rule may still let those payloads through
        // (an override of the tender type they bind), or a regex's difference lies where no example reaches.
        change.severity = .warning
        change.noWitness =
            "possibly breaking: no payload shows it: \(tried) tried (\(valid) examples valid under the old schema"
            + (made > 0 ? " and \(made) made from it" : "")
            + ", each as it is, and with the field removed, null, at the old bounds and past the new ones, and holding "
            + "every value the examples hold there)" + (change.scope.isEmpty ? "" : " (\(change.scope))")
        return change
    }

    /// The example with the value the scope gives another field placed in it (every list item's, for a field of
    /// list items); the example itself without one.
    private func holding(_ given: Given?, _ example: Example, in schema: CompiledSchema) -> Example? {
        guard let given else { return example }
        guard let value = given.typedValue(in: schema), let document = try? JSONDocument(bytes: example.payload)
        else { return nil }
        var root = SchemaValue(document: document, at: document.root)
        guard let placed = try? schema.placing(value, at: given.tokens.map { $0 == "-" ? "0" : $0 }, in: root) else {
            return nil
        }
        root = placed
        var holding = example
        holding.payload = Array(root.json.utf8)
        return holding
    }

    private func witness(_ payload: [UInt8], source: String?, scope: Scope, shownBy prepared: PreparedSchema)
        -> SchemaChange.Witness
    {
        // Masked as every report shows a payload, then on one line.
        let masked = (try? prepared.masked(json: payload)).flatMap { try? JSONDocument(bytes: $0) }
        return SchemaChange.Witness(
            payload: payload, shown: masked.map { Array(SchemaValue(document: $0, at: $0.root).json.utf8) } ?? [],
            context: scope.context, tenderType: scope.tenderType, source: source)
    }

    /// Whether a violation's pointer is at a change's field (list items by any index for `-`), or inside it.
    static func path(_ pointer: String, isAt field: String) -> Bool {
        let got = pointer.split(separator: "/", omittingEmptySubsequences: false)
        let want = field.split(separator: "/", omittingEmptySubsequences: false)
        guard got.count >= want.count else { return false }
        for (token, wanted) in zip(got, want) where token != wanted {
            guard wanted == "-", token.allSatisfy(\.isNumber) else { return false }
        }
        return true
    }

    /// The payloads tried: each base as it is, then with the changed field removed, null, at the old rules' bounds,
    /// with each of the old options, with every value the examples hold there, and (for an object) with a member
    /// it does not know.
    private func candidates(
        for change: SchemaChange, in scope: Scope, bases: [Example], before: CompiledSchema, after: CompiledSchema
    ) -> [(payload: [UInt8], source: String?)] {
        var found = bases.map { (payload: $0.payload, source: $0.made ? nil : Optional($0.name)) }
        guard let tokens = JSONPointer.tokens(of: change.path) else { return found }
        // An object (the payload itself at the root) that now refuses members it does not know: one such member.
        func withUnknownMember(at concrete: [String], in root: SchemaValue, of base: Example) {
            guard change.change == "unknown-fields-disallowed",
                let placed = try? after.placing(.string("x"), at: concrete + ["memberNotKnown"], in: root)
            else { return }
            found.append((Array(placed.json.utf8), base.made ? nil : base.name))
        }
        if tokens.isEmpty {
            for base in bases {
                guard let document = try? JSONDocument(bytes: base.payload) else { continue }
                withUnknownMember(at: [], in: SchemaValue(document: document, at: document.root), of: base)
            }
            return found
        }
        let concrete = tokens.map { $0 == "-" ? "0" : $0 }
        func inForce(in schema: CompiledSchema) -> FieldInForce? {
            (try? schema.fieldsInForce(
                context: scope.context, tenderType: scope.tenderType,
                given: scope.given.map { [$0.tokens: $0.value] } ?? [:], primitiveItems: true))?
                .first { $0.path == change.path }
        }
        let rules = inForce(in: before)
        let newRules = inForce(in: after)
        // Every value the examples hold at the field, valid ones or not.
        var seen: [SchemaValue] = []
        for example in examples[before.id] ?? [] {
            guard let document = try? JSONDocument(bytes: example.payload) else { continue }
            for value in Self.values(at: tokens[...], in: SchemaValue(document: document, at: document.root))
            where !seen.contains(value) {
                seen.append(value)
            }
        }
        var values: [SchemaValue?] = [nil, .null] + seen.map { Optional($0) }
        if let rules {
            values += (rules.rules.enumValues ?? []).map { Optional($0) }
            let sample: String =
                seen.lazy.compactMap { value -> String? in
                    if case .string(let text) = value { return text } else { return nil }
                }.first ?? (rules.rules.formatList.contains { $0.inputKind == "numeric" } ? "1" : "A")
            // A value of each plain kind, for a type change; then text at the old bounds, and just past the new ones
            // while still within the old.
            values += [.string(sample), .number(DecimalNumber(lexeme: "1")), .boolean(true)]
            let lengths = rules.rules.effectiveLengths
            var wanted = [lengths.lower, lengths.upper].compactMap { $0 }
            if let tighter = newRules?.rules.effectiveLengths {
                if let upper = tighter.upper, upper + 1 <= (lengths.upper ?? Int.max) { wanted.append(upper + 1) }
                if let lower = tighter.lower, lower - 1 >= (lengths.lower ?? 0) { wanted.append(lower - 1) }
            }
            for length in wanted where length > 0 && length <= 10_000 {
                values.append(.string(Self.text(from: sample, length: length)))
            }
            let range = rules.rules.valueRange
            for bound in [range.lower, range.upper].compactMap({ $0 }) { values.append(.number(bound)) }
        }
        for base in bases {
            guard let document = try? JSONDocument(bytes: base.payload) else { continue }
            let root = SchemaValue(document: document, at: document.root)
            for value in values {
                let placed: SchemaValue?
                if let value {
                    placed = try? after.placing(value, at: concrete, in: root)
                } else {
                    placed = root.removing(concrete[...])
                }
                if let placed { found.append((Array(placed.json.utf8), base.made ? nil : base.name)) }
            }
            withUnknownMember(at: concrete, in: root, of: base)
        }
        return found
    }

    /// Text of exactly `length` characters made from a sample: cut, or its characters repeated.
    private static func text(from sample: String, length: Int) -> String {
        let characters = Array(sample.isEmpty ? "A" : sample)
        return String((0..<length).map { characters[$0 % characters.count] })
    }

    /// The values at a pointer with `-` for any list item.
    static func values(at tokens: ArraySlice<String>, in value: SchemaValue) -> [SchemaValue] {
        guard let token = tokens.first else { return [value] }
        switch value {
        case .object(let members):
            return members.filter { $0.key == token }.flatMap { values(at: tokens.dropFirst(), in: $0.value) }
        case .array(let items) where token == "-":
            return items.flatMap { values(at: tokens.dropFirst(), in: $0) }
        default:
            return []
        }
    }
}

extension SchemaValue {
    /// A scalar as a form holds it, as text (what ``SchemaComparison/Scope/given`` holds); `nil` for the rest.
    var givenText: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number.description
        case .boolean(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}
