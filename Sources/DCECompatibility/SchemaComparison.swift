package import DCEEngine
import DCEPattern

/// What a catalogue change breaks: two versions of the schemas compared schema by schema, field by field (through
/// `ref`s and definitions, into nested objects and list items) and attribute by attribute, under every context value
/// and tender type the old version declares, each change classified by who it breaks, and each breaking request
/// change shown by a payload the old version accepts and the new one refuses (``SchemaChange/Witness``).
///
/// The rules compared at a field are those in force for a context and tender type (the base, the tender type's
/// entries, and the overrides whose condition reads only them): an override that tightens only for `region=US`
/// breaks US requests, and the change says so.
package struct SchemaComparison: Sendable {
    package let old: Validator
    package let new: Validator
    /// Payloads to take witnesses from, by schema id: the examples.
    package let examples: [String: [Example]]

    /// A payload to take witnesses from, with the context and tender type it is validated under.
    package struct Example: Sendable {
        /// What it is known by (its file).
        package var name: String
        package var payload: [UInt8]
        package var context: [String: String]
        package var tenderType: String?
        /// Made from the schema rather than written: a witness made from it names no source.
        var made = false

        package init(name: String, payload: [UInt8], context: [String: String] = [:], tenderType: String? = nil) {
            self.name = name
            self.payload = payload
            self.context = context
            self.tenderType = tenderType
        }
    }

    /// The most scopes (combinations of context values and tender type) compared per schema: past it, each context
    /// value and tender type is compared on its own, the others not given.
    static let maxScopes = 256

    package init(old: Validator, new: Validator, examples: [String: [Example]] = [:]) {
        self.old = old
        self.new = new
        self.examples = examples
    }

    /// Every change, schema by schema (by id), breaking ones with a witness or the reason there is none.
    ///
    /// - Parameter witnesses: Whether to look for witnesses (`false` when only the changes are wanted).
    package func changes(witnesses: Bool = true) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for id in Set(old.schemaIDs).union(new.schemaIDs).sorted() {
            switch (old.schema(id), new.schema(id)) {
            case (let before?, nil):
                changes.append(
                    change(
                        "schema-removed", in: before, path: "", scope: .none,
                        location: Self.location(in: before, ""),
                        detail: "the schema '\(id)' is gone"))
            case (nil, let after?):
                changes.append(
                    change(
                        "schema-added", in: after, path: "", scope: .none,
                        location: Self.location(in: after, ""),
                        detail: "the schema '\(id)' is new"))
            case (let before?, let after?):
                changes += compare(before, after, witnesses: witnesses)
            case (nil, nil):
                break
            }
        }
        return changes
    }

    // MARK: - Scopes

    /// A context and tender type a comparison holds under.
    struct Scope: Hashable {
        var context: [String: String]
        var tenderType: String?
        /// A value another field holds, for an override that reads it: its pointer's tokens (`-` for list items)
        /// and its text.
        var given: Given?
        static let none = Scope(context: [:], tenderType: nil)

        init(context: [String: String], tenderType: String? = nil, given: Given? = nil) {
            (self.context, self.tenderType, self.given) = (context, tenderType, given)
        }
    }

    /// A field's value an override's condition reads.
    struct Given: Hashable, Comparable {
        var tokens: [String]
        var value: String
        /// Whether the field is sensitive: its value is shown withheld.
        var sensitive = false

        var pointer: String { "/" + tokens.map(JSONPointer.escape).joined(separator: "/") }

        /// The value as `schema`'s field at ``pointer`` types it (a number for a number field); `nil` when the schema
        /// has no field there.
        func typedValue(in schema: CompiledSchema) -> SchemaValue? {
            schema.field(at: pointer).map { SchemaValue.typed(value, as: $0.dataType) }
        }

        static func < (lhs: Given, rhs: Given) -> Bool { (lhs.pointer, lhs.value) < (rhs.pointer, rhs.value) }
    }

    /// The scopes of a schema: every combination of its contexts' values (and none) and its tender types (and none),
    /// the one with nothing given first; past ``maxScopes``, each value on its own.
    func scopes(of schema: CompiledSchema) -> [Scope] {
        let dimensions: [(name: String?, values: [String])] =
            schema.contexts.map { (name: $0.name, values: $0.values ?? []) }
            + [(name: nil, values: schema.tenderTypes)]
        let combinations = dimensions.reduce(1) { $0 * ($1.values.count + 1) }
        func scope(_ choices: [(name: String?, value: String)]) -> Scope {
            var scope = Scope.none
            for choice in choices {
                if let name = choice.name {
                    scope.context[name] = choice.value
                } else {
                    scope.tenderType = choice.value
                }
            }
            return scope
        }
        guard combinations <= Self.maxScopes else {
            return [.none]
                + dimensions.flatMap { dimension in dimension.values.map { scope([(dimension.name, $0)]) } }
        }
        var scopes: [[(name: String?, value: String)]] = [[]]
        for dimension in dimensions {
            scopes = scopes.flatMap { chosen in
                [chosen] + dimension.values.map { chosen + [(dimension.name, $0)] }
            }
        }
        return scopes.map(scope).sorted {
            $0.context.count + ($0.tenderType == nil ? 0 : 1) < $1.context.count + ($1.tenderType == nil ? 0 : 1)
        }
    }

    // MARK: - Schemas

    private func compare(_ before: CompiledSchema, _ after: CompiledSchema, witnesses: Bool) -> [SchemaChange] {
        var found: [SchemaChange] = []
        // What the schema declares: context values and tender types an app may send.
        for context in before.contexts {
            let now = after.contexts.first { $0.name == context.name }
            for value in context.values ?? [] where now.map({ $0.values.map { $0.contains(value) } ?? true }) != true {
                found.append(
                    change(
                        "context-value-removed", in: after, path: "", scope: Scope(context: [context.name: value]),
                        location: Self.location(in: after, "/contexts/\(context.name)"),
                        detail: "context \(context.name) no longer takes '\(value)'"))
            }
        }
        for context in after.contexts {
            let then = before.contexts.first { $0.name == context.name }
            for value in context.values ?? [] where then?.values.map({ !$0.contains(value) }) ?? false {
                found.append(
                    change(
                        "context-value-added", in: after, path: "", scope: Scope(context: [context.name: value]),
                        location: Self.location(in: after, "/contexts/\(context.name)"),
                        detail: "context \(context.name) takes '\(value)' too"))
            }
        }
        for tenderType in before.tenderTypes where !after.tenderTypes.contains(tenderType) {
            found.append(
                change(
                    "tender-type-removed", in: after, path: "", scope: Scope(context: [:], tenderType: tenderType),
                    location: Self.location(in: after, "/tenderTypes"),
                    detail: "tender type '\(tenderType)' is gone"))
        }
        for tenderType in after.tenderTypes where !before.tenderTypes.contains(tenderType) {
            found.append(
                change(
                    "tender-type-added", in: after, path: "", scope: .none,
                    location: Self.location(in: after, "/tenderTypes"),
                    detail: "tender type '\(tenderType)' is new"))
        }
        // The payload's own members: the root object's policy for members it does not know.
        if before.root.additionalFields != after.root.additionalFields {
            let (id, detail) =
                after.root.additionalFields
                ? ("unknown-fields-allowed", "members it does not know are accepted")
                : ("unknown-fields-disallowed", "members it does not know are refused")
            found.append(
                change(
                    id, in: after, path: "", scope: .none,
                    location: Self.location(in: after, "/additionalFields"),
                    detail: detail))
        }
        // The fields, under every scope both versions can be asked for, then with each value another field's
        // condition reads (under every scope while the combinations stay few); each change once, under the first
        // scope (the fewest choices) where it holds.
        let scopes = scopes(of: before)
        let givens = givens(before: before, after: after)
        let givenScopes = scopes.count * givens.count <= Self.maxScopes ? scopes : [.none]
        let all =
            scopes
            + givens.flatMap { given in
                givenScopes.map { Scope(context: $0.context, tenderType: $0.tenderType, given: given) }
            }
        var seen: Set<String> = []
        for scope in all {
            let given = scope.given.map { [$0.tokens: $0.value] } ?? [:]
            guard
                let then = try? before.fieldsInForce(
                    context: scope.context, tenderType: scope.tenderType, given: given, primitiveItems: true),
                let now = try? after.fieldsInForce(
                    context: scope.context, tenderType: scope.tenderType, given: given, primitiveItems: true)
            else { continue }
            for change in compare(then, now, before: before, after: after, scope: scope) {
                let key = "\(change.path) \(change.change) \(change.detail)"
                if seen.insert(key).inserted { found.append(change) }
            }
        }
        return witnesses ? found.map { withWitness($0, before: before, after: after) } : found
    }

    private func compare(
        _ then: [FieldInForce], _ now: [FieldInForce], before: CompiledSchema, after: CompiledSchema, scope: Scope
    ) -> [SchemaChange] {
        var found: [SchemaChange] = []
        let nowByPath = Dictionary(now.map { ($0.path, $0) }) { first, _ in first }
        let thenByPath = Dictionary(then.map { ($0.path, $0) }) { first, _ in first }
        // Each addition and removal is judged by whether an app built on the old version fails.
        for field in then {
            guard let current = nowByPath[field.path] else {
                found.append(removal(of: field, from: after, scope: scope))
                continue
            }
            found += compare(field, current, in: after, scope: scope)
        }
        // Whether the object or list that holds a member was there before: the root, or one the old version had.
        func existed(_ path: String) -> Bool {
            path.isEmpty || thenByPath[path] != nil
                || (path.hasSuffix("/-") && thenByPath[String(path.dropLast(2))] != nil)
        }
        for field in now where thenByPath[field.path] == nil {
            let parent = Self.parentPath(field.path)
            // A new required member breaks the apps that send its object, when they knew the object.
            let required = field.rules.presence.mustBePresent && existed(parent)
            var added = change(
                required ? "required-field-added" : "field-added", in: after, path: field.path, scope: scope,
                location: field.field.location, detail: required ? "a new field, required" : "a new field")
            // An app that reads the new member refuses it only where its object refused members it did not know (a
            // new object's own addition says so for it); elsewhere a new optional member breaks nobody, and a new
            // required one only the new apps that read what an unchanged gateway sends.
            if after.kind == .response {
                if existed(parent) && before.field(at: parent)?.additionalFields == false {
                    (added.breaking, added.severity) = (true, .error)
                    added.detail += " (and the old object takes no member it does not know)"
                } else if !required {
                    (added.breaking, added.severity) = (false, .info)
                }
            }
            found.append(added)
        }
        return found
    }

    /// A field the new version no longer has. Apps that still send it break only where the object now refuses
    /// members it does not know. Apps that read it break only where it was required: they took an optional one's
    /// absence already, and are warned that they now never get it.
    private func removal(of field: FieldInForce, from after: CompiledSchema, scope: Scope) -> SchemaChange {
        let refusesUnknown = after.field(at: Self.parentPath(field.path))?.additionalFields == false
        let wasRequired = field.rules.presence.mustBePresent
        var removed = change(
            "field-removed", in: after, path: field.path, scope: scope, location: field.field.location,
            detail: "the field is gone"
                + (after.kind == .response
                    ? (wasRequired ? " (and it was required)" : "")
                    : (refusesUnknown ? " (and the object takes no member it does not know)" : "")))
        if after.kind == .response {
            if !wasRequired { (removed.breaking, removed.severity) = (false, .warning) }
        } else if !refusesUnknown {
            (removed.breaking, removed.severity) = (false, .info)
        }
        return removed
    }

    /// The values of other fields that decide overrides, in either version: for each field a condition reads, one
    /// value per way the conditions on it can come out together. The values tried are what the field's own rules
    /// take, what the tests name, a string each branch of a tested regex matches, what the examples hold there, and
    /// `~` (what the examples hold only where the field is not sensitive, whose value is shown withheld); of those
    /// giving the same verdicts, the first is kept. So an override conditioned on `/programName`
    /// matching `PHYSICAL|VIRTUAL` in the new version is compared with `/programName` holding `PHYSICAL`, a name with
    /// `VIRTUAL` (from an example), and a name with neither.
    func givens(before: CompiledSchema, after: CompiledSchema) -> [Given] {
        var tests: [[String]: [CompiledTest]] = [:]
        var order: [[String]] = []
        func read(_ condition: CompiledCondition, containers: [[String]]) {
            switch condition {
            case .all(let conditions), .any(let conditions):
                for condition in conditions { read(condition, containers: containers) }
            case .not(let condition):
                read(condition, containers: containers)
            case .context, .tenderType:
                break
            case .field(let up, let tokens, let test):
                guard up.map({ $0 < containers.count }) ?? true, test.kind != .cardBrand else { return }
                let target = (up.map { containers[$0] } ?? []) + tokens.map(\.text)
                if tests[target] == nil { order.append(target) }
                tests[target, default: []].append(test)
            }
        }
        func visit(_ field: CompiledField, at tokens: [String]) {
            // Relative pointers climb from the objects holding the field, the innermost first.
            let containers = (0..<max(tokens.count, 1)).reversed().map { Array(tokens.prefix($0)) }
            for override in field.overrides { read(override.condition, containers: containers) }
            for child in field.fields { if let key = child.key { visit(child, at: tokens + [key]) } }
            if let items = field.items { visit(items, at: tokens + ["-"]) }
        }
        visit(before.root, at: [])
        visit(after.root, at: [])
        var found: [Given] = []
        for target in order {
            let pointer = Given(tokens: target, value: "").pointer
            let read = tests[target] ?? []
            var texts: [String] = []
            var sensitive = false
            for schema in [before, after] {
                guard let field = schema.field(at: pointer) else { continue }
                texts += Self.alternatives(field.dataType, field.base, now: old.now()).compactMap(\.givenText)
                sensitive = sensitive || !field.sensitivity.isEmpty
            }
            texts += read.flatMap { test in
                test.strings + (test.pattern.map { PatternSample.samples(ofBranches: $0.source) } ?? [])
            }
            // A given value is printed with the change: never one an example holds in a sensitive field.
            for example in sensitive ? [] : examples[before.id] ?? [] {
                guard let document = try? JSONDocument(bytes: example.payload) else { continue }
                texts += Self.values(at: target[...], in: SchemaValue(document: document, at: document.root))
                    .compactMap(\.givenText)
            }
            var outcomes: Set<[Bool?]> = []
            for text in texts + ["~"] where outcomes.insert(read.map { $0.holds(forGivenText: text) }).inserted {
                found.append(Given(tokens: target, value: text, sensitive: sensitive))
            }
        }
        return found
    }

    /// Where a schema's own member is written (`/contexts/region` at that context; the file's start for `""`).
    static func location(in schema: CompiledSchema, _ pointer: String) -> SchemaLocation {
        let tokens = JSONPointer.tokens(of: pointer) ?? []
        if tokens.count == 2, tokens[0] == "contexts",
            let context = schema.contexts.first(where: { $0.name == tokens[1] })
        {
            return SchemaLocation(file: schema.file, pointer: pointer, position: context.location.position)
        }
        let found = tokens.first.flatMap { schema.locations[$0] } ?? schema.root.location
        return SchemaLocation(file: schema.file, pointer: pointer, position: found.position)
    }

    /// The path of the object or list that holds the field at `path` (`""` for the payload itself).
    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The changes of one field's rules in force, attribute by attribute.
    private func compare(_ then: FieldInForce, _ now: FieldInForce, in after: CompiledSchema, scope: Scope)
        -> [SchemaChange]
    {
        var found: [SchemaChange] = []
        func add(_ id: String, _ attribute: String, _ detail: String, removed: Bool = false) {
            let rules = removed ? then.rules : now.rules
            let location = rules.locations[attribute] ?? (removed ? then.field : now.field).location
            found.append(change(id, in: after, path: now.path, scope: scope, location: location, detail: detail))
        }
        let (a, b) = (then.rules, now.rules)
        if then.field.dataType != now.field.dataType {
            add("type-changed", "dataType", "dataType \(then.field.dataType.rawValue) → \(now.field.dataType.rawValue)")
        }
        // Presence.
        if !a.presence.mustBePresent && b.presence.mustBePresent { add("required-added", "required", "now required") }
        if a.presence.mustBePresent && !b.presence.mustBePresent && !b.presence.mustBeAbsent {
            add("required-removed", "required", "no longer required", removed: true)
        }
        if !a.presence.mustBeAbsent && b.presence.mustBeAbsent { add("forbidden-added", "forbidden", "now forbidden") }
        if a.presence.mustBeAbsent && !b.presence.mustBeAbsent {
            add("forbidden-removed", "forbidden", "no longer forbidden", removed: true)
        }
        // Null refused because the field is now required is the required change's; this is `nullable` itself.
        if a.presence.acceptsNull && !b.presence.acceptsNull && b.presence.nullable != true && !b.presence.mustBeAbsent
        {
            add("nullable-removed", "nullable", "null no longer accepted", removed: true)
        }
        if !a.presence.acceptsNull && b.presence.acceptsNull { add("nullable-added", "nullable", "null accepted") }
        // Bounds.
        compareBounds(a.effectiveLengths, b.effectiveLengths, names: ("min-length", "max-length"), add)
        compareBounds(a.valueRange, b.valueRange, names: ("minimum", "maximum"), add)
        compareBounds(a.itemCounts, b.itemCounts, names: ("min-items", "max-items"), add)
        // Options.
        switch (a.enumValues, b.enumValues) {
        case (nil, let values?):
            add("enum-added", "enum", "now one of \(values.map(\.json).joined(separator: ", "))")
        case (_?, nil):
            add("enum-removed", "enum", "no longer a choice", removed: true)
        case (let before?, let after?):
            let removed = before.filter { !after.contains($0) }
            let added = after.filter { !before.contains($0) }
            if !removed.isEmpty {
                add("enum-value-removed", "enum", "no longer takes \(removed.map(\.json).joined(separator: ", "))")
            }
            if !added.isEmpty {
                add("enum-value-added", "enum", "takes \(added.map(\.json).joined(separator: ", ")) too")
            }
        case (nil, nil):
            break
        }
        // Formats: a value must have one of them.
        let (formatsThen, formatsNow) = (Set(a.formatList.map(\.rawValue)), Set(b.formatList.map(\.rawValue)))
        if formatsThen != formatsNow {
            let shown = { (formats: Set<String>) in formats.isEmpty ? "none" : formats.sorted().joined(separator: ", ")
            }
            let detail = "format \(shown(formatsThen)) → \(shown(formatsNow))"
            if formatsThen.isEmpty {
                add("format-added", "format", detail)
            } else if formatsNow.isEmpty || formatsNow.isSuperset(of: formatsThen) {
                add("format-removed", "format", detail, removed: formatsNow.isEmpty)
            } else {
                add("format-changed", "format", detail)
            }
        }
        // Patterns: a value must match every one.
        let patternsThen = Set(a.validationList.compactMap(\.regex))
        let patternsNow = Set(b.validationList.compactMap(\.regex))
        let addedPatterns = patternsNow.subtracting(patternsThen)
        let removedPatterns = patternsThen.subtracting(patternsNow)
        if !addedPatterns.isEmpty {
            add(
                removedPatterns.isEmpty ? "pattern-added" : "pattern-changed", "additionalDataValidations",
                (removedPatterns.isEmpty ? "" : "regex \(removedPatterns.sorted().joined(separator: ", ")) → ")
                    + "regex \(addedPatterns.sorted().joined(separator: ", "))")
        } else if !removedPatterns.isEmpty {
            add(
                "pattern-removed", "additionalDataValidations",
                "regex \(removedPatterns.sorted().joined(separator: ", ")) removed", removed: true)
        }
        // Another document the value must be found in (checked when that document is given at validation).
        switch (then.field.existsIn, now.field.existsIn) {
        case (nil, let reference?):
            found.append(
                change(
                    "exists-in-added", in: after, path: now.path, scope: scope, location: reference.location,
                    detail: "must be found in \(reference.schema) at \(reference.pointer)"))
        case (let reference?, nil):
            found.append(
                change(
                    "exists-in-removed", in: after, path: now.path, scope: scope, location: now.field.location,
                    detail: "no longer looked up in \(reference.schema) at \(reference.pointer)"))
        case (let was?, let reference?) where was != reference:
            found.append(
                change(
                    "exists-in-changed", in: after, path: now.path, scope: scope, location: reference.location,
                    detail: "looked up in \(was.key) → \(reference.key)"))
        default:
            break
        }
        // An object's members.
        if then.field.dataType == .object && now.field.dataType == .object {
            if then.field.additionalFields && !now.field.additionalFields {
                add("unknown-fields-disallowed", "additionalFields", "members it does not know are refused")
            }
            if !then.field.additionalFields && now.field.additionalFields {
                add("unknown-fields-allowed", "additionalFields", "members it does not know are accepted")
            }
        }
        // What people read.
        if a.name != b.name {
            add("label-changed", "name", "label '\(then.field.name)' → '\(now.field.name)'")
        }
        if a.description != b.description { add("description-changed", "description", "description changed") }
        if a.message != b.message || (a.messages == nil) != (b.messages == nil) {
            add("message-changed", "messages", "messages changed")
        }
        if then.metadata.order != now.metadata.order {
            add(
                "order-changed", "order",
                "order \(then.metadata.order.map(String.init) ?? "none") → \(now.metadata.order.map(String.init) ?? "none")"
            )
        }
        if then.group != now.group {
            add("group-changed", "dataGroup", "dataGroup \(then.group ?? "none") → \(now.group ?? "none")")
        }
        return found
    }

    private func compareBounds<Kind: BoundKind>(
        _ then: Bounds<Kind>, _ now: Bounds<Kind>, names: (lower: String, upper: String),
        _ add: (String, String, String, Bool) -> Void
    ) where Kind.Value: Comparable & CustomStringConvertible {
        let (lowerKey, upperKey) = Kind.keywords
        switch (then.upper, now.upper) {
        case (nil, let bound?): add("\(names.upper)-added", upperKey, "\(upperKey) \(bound)", false)
        case (let was?, nil): add("\(names.upper)-removed", upperKey, "\(upperKey) \(was) removed", true)
        case (let was?, let bound?) where bound < was:
            add("\(names.upper)-decreased", upperKey, "\(upperKey) \(was) → \(bound)", false)
        case (let was?, let bound?) where bound > was:
            add("\(names.upper)-increased", upperKey, "\(upperKey) \(was) → \(bound)", false)
        default: break
        }
        switch (then.lower, now.lower) {
        case (nil, let bound?): add("\(names.lower)-added", lowerKey, "\(lowerKey) \(bound)", false)
        case (let was?, nil): add("\(names.lower)-removed", lowerKey, "\(lowerKey) \(was) removed", true)
        case (let was?, let bound?) where bound > was:
            add("\(names.lower)-increased", lowerKey, "\(lowerKey) \(was) → \(bound)", false)
        case (let was?, let bound?) where bound < was:
            add("\(names.lower)-decreased", lowerKey, "\(lowerKey) \(was) → \(bound)", false)
        default: break
        }
    }

    private func change(
        _ id: String, in schema: CompiledSchema, path: String, scope: Scope, location: SchemaLocation?,
        detail: String
    ) -> SchemaChange {
        let (breaking, severity) = SchemaChange.assess(id, schema: schema.kind)
        return SchemaChange(
            schema: schema.id, path: path, change: id, breaking: breaking, severity: severity,
            direction: schema.kind == .response ? .response : .request, context: scope.context,
            tenderType: scope.tenderType,
            given: scope.given.map { [$0.pointer: $0.sensitive ? "[withheld]" : $0.value] } ?? [:],
            givenValue: scope.given, location: location, detail: detail)
    }
}

/// Whether a schema's `version` moved as its changes ask: a major bump for a breaking change, a minor one for an
/// additive change (as oasdiff reports a breaking change that shipped without a major version bump).
package struct VersionCheck: Sendable, Hashable {
    package var schema: String
    package var old: String
    package var new: String
    /// The bump the changes ask for: `major` or `minor`.
    package var required: String
    /// Whether the new version is bumped at least that much.
    package var bumped: Bool
    /// `error` for a breaking change without a major bump, `warning` for an additive one without a minor bump.
    package var severity: SchemaChange.Severity
}

extension SchemaComparison {
    /// The version checks of the schemas whose changes ask for a bump.
    package func versions(for changes: [SchemaChange]) -> [VersionCheck] {
        var checks: [VersionCheck] = []
        for id in Set(changes.map(\.schema)).sorted() {
            guard let before = old.schema(id), let after = new.schema(id) else { continue }
            let mine = changes.filter { $0.schema == id }
            let breaking = mine.contains(where: \.breaking)
            let additive = mine.contains { !$0.breaking && SchemaChange.kinds[$0.change] == .loosening }
            guard breaking || additive else { continue }
            let (was, now) = (Self.semver(before.version), Self.semver(after.version))
            let bumped =
                breaking
                ? now.major > was.major
                : now.major > was.major || (now.major == was.major && now.minor > was.minor)
            checks.append(
                VersionCheck(
                    schema: id, old: before.version, new: after.version, required: breaking ? "major" : "minor",
                    bumped: bumped, severity: bumped ? .info : breaking ? .error : .warning))
        }
        return checks
    }

    /// The major, minor and patch numbers of a version (`1.2.3`; missing or unreadable parts are 0).
    static func semver(_ version: String) -> (major: Int, minor: Int, patch: Int) {
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 } + [0, 0, 0]
        return (parts[0], parts[1], parts[2])
    }
}
