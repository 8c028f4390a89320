internal import DCEPattern

/// Turns a ``ResolvedSchema`` into a ``CompiledSchema``, checking what data alone cannot: every regex compiles,
/// bounds are consistent, keys and orders are unique, and conditions name real contexts and fields. All problems
/// are collected before it throws. (Whether each `defaultValue` passes its own field's rules is evaluation's to say:
/// ``CompiledSchema/defaultValueProblems()``, which the ``Validator`` runs next.)
struct RuleCompiler {
    let limits: MatchLimits
    /// The reference data the schema's formats and card-brand conditions read.
    let reference: ReferenceData
    private var problems: [SchemaProblem] = []
    /// Findings that do not stop compilation: regexes prone to catastrophic backtracking.
    private var warnings: [SchemaProblem] = []
    private var patterns: [String: CompiledPattern] = [:]
    private var contextSlots: [String: Int] = [:]
    private var contextValues: [String: [String]?] = [:]
    private var tenderTypes: [String] = []
    /// The contexts a `cardBrandOf` rule derives: what conditions compare them with must be brand ids.
    private var brandContexts: Set<String> = []
    private var root: ResolvedField?
    private var trustedPatterns = false

    init(limits: MatchLimits = .default, reference: ReferenceData = .bundled) {
        self.limits = limits
        self.reference = reference
    }

    mutating func compile(_ schema: ResolvedSchema) throws(SchemaError) -> CompiledSchema {
        root = schema.root
        tenderTypes = schema.tenderTypes
        trustedPatterns = schema.trustedPatterns
        for (slot, context) in schema.contexts.enumerated() {
            if contextSlots[context.name] != nil {
                report(.duplicate, "context '\(context.name)' is declared twice", context.location)
            }
            contextSlots[context.name] = slot
            contextValues[context.name] = context.values
            if context.derive.contains(where: Self.isCardBrandOf) { brandContexts.insert(context.name) }
        }
        var contexts: [CompiledContext] = []
        for context in schema.contexts {
            if context.name == CompiledSchema.provisioningContext.name, let first = context.derive.first {
                report(
                    .invalidAttribute,
                    "context '\(context.name)' is given by the caller only: it decides which fields provisioning skips (ignoreForProvisioning) before the payload is read, so it cannot be derived",
                    first.location)
            }
            var derive: [(CompiledCondition, String)] = []
            for rule in expanded(context.derive) {
                if let values = context.values, !values.contains(rule.value) {
                    report(
                        .unknownContext, "'\(rule.value)' is not one of the values of context '\(context.name)'",
                        rule.location)
                }
                if let condition = compile(rule.condition, containers: [schema.root]) {
                    derive.append((condition, rule.value))
                }
            }
            contexts.append(
                CompiledContext(
                    name: context.name, description: context.description, values: context.values, derive: derive,
                    location: context.location))
        }
        let compiledRoot = compile(schema.root, containers: [])
        guard problems.isEmpty, let compiledRoot else { throw SchemaError(problems: problems) }
        let compiled = CompiledSchema(
            id: schema.id, version: schema.version, name: schema.name, description: schema.description,
            file: schema.file,
            root: compiledRoot, contexts: contexts, tenderTypes: schema.tenderTypes,
            numericBooleans: schema.numericBooleans,
            responseSchema: schema.responseSchema, kind: schema.kind, warnings: warnings, patterns: patterns,
            reference: reference, locations: schema.locations)
        return compiled
    }

    // MARK: - Fields

    /// Compiles a field; `containers` are the object and array fields enclosing it, innermost last.
    private mutating func compile(_ field: ResolvedField, containers: [ResolvedField], parentName: LocalizedText? = nil)
        -> CompiledField?
    {
        let rules = field.rules
        guard let dataType = rules.dataType ?? (field.fields != nil ? .object : field.items != nil ? .array : nil)
        else {
            report(.missingAttribute, "field \(label(field)) has no 'dataType'", field.location)
            return nil
        }
        checkApplicability(rules, of: field, dataType: dataType, at: field.location)
        checkContradiction(rules, label: label(field), at: field.location)
        let name =
            rules.name ?? field.key.map { LocalizedText($0) }
            ?? (containers.isEmpty
                ? MessageCatalogue.shippedPhrase("label.request")
                : MessageCatalogue.shippedPhrase("label.item", name: parentName))
        var base = rules
        base.name = name
        base.dataType = dataType
        check(rules, dataType: dataType, field: field)
        checkRanges(base, at: field.location, label: label(field))

        var overrides: [CompiledOverride] = []
        for override in field.overrides {
            checkApplicability(override.rules, of: field, dataType: dataType, at: override.location)
            checkContradiction(override.rules, label: label(field), at: override.location)
            guard let condition = compile(override.condition, containers: containers) else { continue }
            check(override.rules, dataType: dataType, field: field)
            checkRanges(base.overlaid(with: override.rules), at: override.location, label: label(field))
            overrides.append(
                CompiledOverride(condition: condition, patch: override.rules, tenderType: override.tenderType))
        }

        let bindings = field.bindings.compactMap { compile($0, of: field, containers: containers) }

        var children: [CompiledField] = []
        if let fields = field.fields {
            guard dataType == .object else {
                report(
                    .inapplicableAttribute, "'fields' applies to Object fields, not \(dataType.rawValue)",
                    field.location)
                return nil
            }
            checkUniqueness(fields)
            for child in fields {
                if let compiled = compile(child, containers: containers + [field]) { children.append(compiled) }
            }
        }
        var items: CompiledField?
        if dataType == .array {
            guard let itemDefinition = field.items else {
                report(.missingAttribute, "Array field \(label(field)) needs 'items'", field.location)
                return nil
            }
            items = compile(itemDefinition, containers: containers + [field], parentName: name)
        } else if field.items != nil {
            report(.inapplicableAttribute, "'items' applies to Array fields, not \(dataType.rawValue)", field.location)
        }

        let objectRules = field.objectRules.compactMap { compile($0, in: field, dataType: dataType) }
        if let reference = field.existsIn, ![.string, .integer, .number].contains(dataType) {
            report(
                .inapplicableAttribute,
                "'existsIn' applies to String, Integer and Number fields, not \(dataType.rawValue)", reference.location)
        }

        // Each tender type's metadata and default: the field's, with its entries for that tender type laid on top in
        // the order they apply (a definition's before those of the field that uses it).
        var tenderTypeMetadata: [String: FieldMetadata] = [:]
        var tenderTypeDefaults: [String: SchemaValue] = [:]
        for override in field.overrides {
            guard let tenderType = override.tenderType else { continue }
            if !override.metadata.isEmpty {
                tenderTypeMetadata[tenderType] = (tenderTypeMetadata[tenderType] ?? field.metadata).overlaid(
                    with: override.metadata)
            }
            if let value = override.rules.defaultValue { tenderTypeDefaults[tenderType] = value }
        }
        // Sensitive under any tender type is sensitive in every output: what the engine writes never depends on
        // which payment type a payload turns out to be.
        let sensitivity = tenderTypeMetadata.values.reduce(field.metadata.sensitivity) { $0.union($1.sensitivity) }
        return CompiledField(
            location: field.location, key: field.key, dataType: dataType, base: base, overrides: overrides,
            fields: children, additionalFields: field.additionalFields, items: items, sensitivity: sensitivity,
            metadata: field.metadata, tenderTypeMetadata: tenderTypeMetadata, defaultValue: rules.defaultValue,
            tenderTypeDefaults: tenderTypeDefaults, description: rules.description, bindings: bindings,
            patterns: patterns,
            objectRules: objectRules, existsIn: field.existsIn)
    }

    /// An object rule (`postalAddress`) over the object's members, compiled by its kind.
    private mutating func compile(_ definition: ObjectRuleDefinition, in field: ResolvedField, dataType: DataType)
        -> (any ObjectRuleKind)?
    {
        guard dataType == .object, let fields = field.fields else {
            report(
                .inapplicableAttribute, "'\(definition.attribute)' applies to Object fields, not \(dataType.rawValue)",
                definition.location)
            return nil
        }
        let members = fields.map { ObjectRuleMember(key: $0.key, dataType: $0.rules.dataType ?? .string) }
        var found: [(ObjectRuleProblem, String)] = []
        let rule = definition.compile(members, label(field)) { found.append(($0, $1)) }
        for (problem, message) in found {
            let code: SchemaProblem.Code =
                switch problem {
                case .unknownMember: .unknownField
                case .invalid: .invalidAttribute
                case .duplicate: .duplicate
                }
            report(code, message, definition.location)
        }
        return rule
    }

    /// A context (or the tender type) bound at a field: declared, with values it allows; a `derive` rule's relative
    /// pointers start at the field's own object.
    private mutating func compile(_ binding: ContextBinding, of field: ResolvedField, containers: [ResolvedField])
        -> CompiledBinding?
    {
        let slot: Int?
        let allowed: [String]?
        let what: String
        if binding.name == "tenderType" {
            (slot, allowed, what) = (nil, tenderTypes, "tender type")
        } else if binding.name == CompiledSchema.provisioningContext.name {
            report(
                .invalidAttribute,
                "context '\(binding.name)' is given by the caller only: it decides which fields provisioning skips (ignoreForProvisioning) before the payload is read, so a field cannot bind it",
                binding.location)
            return nil
        } else if let found = contextSlots[binding.name] {
            (slot, allowed, what) = (found, contextValues[binding.name] ?? nil, "value of context '\(binding.name)'")
        } else {
            report(
                .unknownContext,
                "context '\(binding.name)' is not declared in 'contexts'\(Suggestion.hint(for: binding.name, in: contextSlots.keys))",
                binding.location)
            return nil
        }
        func check(_ value: String, at location: SchemaLocation) {
            if let allowed, !allowed.contains(value) {
                report(
                    .unknownContext,
                    "\"\(value)\" is not a declared \(what)\(Suggestion.hint(for: value, in: allowed))", location)
            }
        }
        switch binding.source {
        case .value(let value):
            check(value, at: binding.location)
            return CompiledBinding(slot: slot, source: .value(value))
        case .member(let key):
            guard field.fields?.contains(where: { $0.key == key }) == true else {
                report(.unknownField, "the bound field \(label(field)) has no member '\(key)'", binding.location)
                return nil
            }
            return CompiledBinding(slot: slot, source: .member(key, allowed: allowed))
        case .derive(let rules):
            var derive: [(CompiledCondition, String)] = []
            if rules.contains(where: Self.isCardBrandOf) { brandContexts.insert(binding.name) }
            for rule in expanded(rules) {
                check(rule.value, at: rule.location)
                if let condition = compile(rule.condition, containers: containers + [field]) {
                    derive.append((condition, rule.value))
                }
            }
            return CompiledBinding(slot: slot, source: .derive(derive))
        }
    }

    /// Checks what a set of rules says against the field's type, and compiles its regexes (once per schema).
    private mutating func check(_ rules: Rules, dataType: DataType, field: ResolvedField) {
        for name in rules.formats ?? [] where Format(rawValue: name) == nil {
            report(
                .unknownFormat,
                "unknown format '\(name)'\(Suggestion.hint(for: name, in: Format.allCases.map(\.rawValue)))",
                rules.locations["format"] ?? field.location)
        }
        for validation in rules.validationList {
            if let problem = validation.lengths.contradiction { report(.invalidRange, problem, validation.location) }
            if let regex = validation.regex {
                _ = pattern(
                    regex, at: validation.regexLocation ?? validation.location, unicodeClasses: validation.unicode)
            }
        }
        if let values = rules.enumValues {
            for value in values where !Self.value(value, fits: dataType) {
                report(
                    .invalidAttribute, "enum value \(value) is not \(dataType.article)",
                    rules.locations["enum"] ?? field.location)
            }
        }
    }

    /// Compiles a regex once per schema. An untrusted schema's regex is refused when it can backtrack without bound;
    /// a trusted one compiles with a warning that `lint` reports.
    private mutating func pattern(_ source: String, at location: SchemaLocation, unicodeClasses: Bool = false)
        -> CompiledPattern?
    {
        let key = Validation.patternKey(source, unicode: unicodeClasses)
        if let cached = patterns[key] { return cached }
        let risks = BacktrackingRisk.assess(source) + BacktrackingRisk.unsafeEscapes(source)
        if !trustedPatterns && !risks.isEmpty {
            report(
                .unsafeRegex,
                "the regex is refused: \(Array(Set(risks)).sorted().joined(separator: "; ")) (set \"trustedPatterns\": true in a schema you control to allow it)",
                location)
            return nil
        }
        do {
            let compiled = try CompiledPattern(source, limits: limits, unicodeClasses: unicodeClasses)
            patterns[key] = compiled
            for reason in risks {
                warnings.append(
                    SchemaProblem(
                        code: .backtrackingRisk, message: "the regex \(source) is risky: \(reason)", location: location)
                )
            }
            return compiled
        } catch {
            report(.invalidRegex, "the regex does not compile: \(error)", location, cause: error)
            return nil
        }
    }

    // MARK: - Checks

    private mutating func checkApplicability(
        _ attributes: Rules, of field: ResolvedField, dataType: DataType, at location: SchemaLocation
    ) {
        let stringOnly = [
            LengthBound.keywords.lower, LengthBound.keywords.upper, "format", "additionalDataValidations",
        ]
        let numberOnly = [ValueBound.keywords.lower, ValueBound.keywords.upper]
        let arrayOnly = [ItemCountBound.keywords.lower, ItemCountBound.keywords.upper]
        for name in stringOnly where attributes.locations[name] != nil && !dataType.isString {
            report(
                .inapplicableAttribute,
                "'\(name)' applies to String, Date and DateTime fields, not \(dataType.rawValue)",
                attributes.locations[name]!)
        }
        for name in numberOnly where attributes.locations[name] != nil && !dataType.isNumeric {
            report(
                .inapplicableAttribute, "'\(name)' applies to Integer and Number fields, not \(dataType.rawValue)",
                attributes.locations[name]!)
        }
        for name in arrayOnly where attributes.locations[name] != nil && dataType != .array {
            report(
                .inapplicableAttribute, "'\(name)' applies to Array fields, not \(dataType.rawValue)",
                attributes.locations[name]!)
        }
    }

    private mutating func checkRanges(_ attributes: Rules, at location: SchemaLocation, label: String) {
        if let problem = attributes.lengths.contradiction { report(.invalidRange, "\(label): \(problem)", location) }
        if let problem = attributes.valueRange.contradiction { report(.invalidRange, "\(label): \(problem)", location) }
        if let problem = attributes.itemCounts.contradiction { report(.invalidRange, "\(label): \(problem)", location) }
    }

    private mutating func checkContradiction(_ attributes: Rules, label: String, at location: SchemaLocation) {
        if let problem = attributes.presence.contradiction {
            report(.invalidAttribute, "\(label) \(problem)", location)
        }
    }

    private mutating func checkUniqueness(_ fields: [ResolvedField]) {
        var keys: [String: ResolvedField] = [:]
        for field in fields {
            if let key = field.key {
                if let first = keys[key] {
                    report(.duplicate, "key '\(key)' is already used at \(first.location.pointer)", field.location)
                }
                keys[key] = keys[key] ?? field
            }
        }
        // Orders are unique among siblings without a tender type and under each tender type that changes one.
        let tenderTypesWithOrders = Set(
            fields.flatMap { $0.overrides.compactMap { $0.metadata.order != nil ? $0.tenderType : nil } })
        for tenderType in [nil] + tenderTypesWithOrders.sorted().map(Optional.some) {
            var orders: [Int: ResolvedField] = [:]
            for field in fields {
                let entries = field.overrides.filter { $0.tenderType != nil && $0.tenderType == tenderType }
                guard let order = entries.reduce(field.metadata, { $0.overlaid(with: $1.metadata) }).order else {
                    continue
                }
                if let first = orders[order] {
                    let under = tenderType.map { " under tender type \($0)" } ?? ""
                    report(.duplicate, "order \(order) is already used by \(label(first))\(under)", field.location)
                }
                orders[order] = orders[order] ?? field
            }
        }
    }

    static func value(_ value: SchemaValue, fits dataType: DataType) -> Bool {
        switch (value, dataType) {
        case (.string, .string), (.string, .date), (.string, .dateTime), (.boolean, .boolean), (.number, .number),
            (.object, .object), (.array, .array):
            true
        case (.number(let number), .integer): number.isIntegral
        default: false
        }
    }

    // MARK: - Conditions

    private mutating func compile(_ condition: ConditionDefinition, containers: [ResolvedField]) -> CompiledCondition? {
        switch condition {
        case .all(let parts, _):
            let compiled = parts.compactMap { compile($0, containers: containers) }
            return compiled.count == parts.count ? .all(compiled) : nil
        case .any(let parts, _):
            let compiled = parts.compactMap { compile($0, containers: containers) }
            return compiled.count == parts.count ? .any(compiled) : nil
        case .not(let part, _):
            return compile(part, containers: containers).map { .not($0) }
        case .test(let subject, let test, let location):
            switch subject {
            case .tenderType where Self.isCardBrand(test), .context where Self.isCardBrand(test):
                report(
                    .invalidAttribute,
                    "'cardBrand' tests a request value (a card number), not a context or the tender type", location)
                return nil
            case .tenderType:
                checkValues(of: test, allowed: tenderTypes, what: "tender type", at: location)
                return compile(test, at: location).map { .tenderType($0) }
            case .context(let name):
                guard let slot = contextSlots[name] else {
                    report(
                        .unknownContext,
                        "context '\(name)' is not declared in 'contexts'\(Suggestion.hint(for: name, in: contextSlots.keys))",
                        location)
                    return nil
                }
                if let values = contextValues[name] ?? nil {
                    checkValues(of: test, allowed: values, what: "value of context '\(name)'", at: location)
                } else if brandContexts.contains(name) {
                    checkValues(
                        of: test, allowed: reference.cardBrands.brands.map(\.id), what: "card brand id", at: location)
                }
                return compile(test, at: location).map { .context(slot: slot, test: $0) }
            case .field(let up, let tokens, let pointer):
                checkPointer(up: up, tokens: tokens, pointer: pointer, containers: containers, at: location)
                return compile(test, at: location).map {
                    .field(up: up, tokens: tokens.map(PointerToken.init), test: $0)
                }
            }
        }
    }

    private static func isCardBrand(_ test: ConditionTest) -> Bool {
        if case .cardBrand = test { true } else { false }
    }

    private static func isCardBrandOf(_ rule: (condition: ConditionDefinition, value: String, location: SchemaLocation))
        -> Bool
    {
        if case .test(_, .cardBrand(let ids), _) = rule.condition { ids.isEmpty } else { false }
    }

    /// A context's or a binding's derive rules, a `cardBrandOf` rule expanded into one rule per card brand of the
    /// reference data (each setting the brand's id when the number is of that brand).
    private func expanded(
        _ rules: [(condition: ConditionDefinition, value: String, location: SchemaLocation)]
    ) -> [(condition: ConditionDefinition, value: String, location: SchemaLocation)] {
        rules.flatMap { rule -> [(condition: ConditionDefinition, value: String, location: SchemaLocation)] in
            guard case .test(let subject, .cardBrand(let ids), let location) = rule.condition, ids.isEmpty else {
                return [rule]
            }
            return reference.cardBrands.brands.map { brand in
                (
                    ConditionDefinition.test(subject: subject, test: .cardBrand([brand.id]), location: location),
                    brand.id, location
                )
            }
        }
    }

    private mutating func compile(_ test: ConditionTest, at location: SchemaLocation) -> CompiledTest? {
        func allStrings(_ values: [SchemaValue]) -> Bool {
            values.allSatisfy { if case .string = $0 { true } else { false } }
        }
        switch test {
        case .equals(let value): return CompiledTest(allStrings([value]) ? .oneOfStrings : .equals, values: [value])
        case .oneOf(let values): return CompiledTest(allStrings(values) ? .oneOfStrings : .oneOf, values: values)
        case .matches(let source): return pattern(source, at: location).map { CompiledTest(.matches, pattern: $0) }
        case .present: return CompiledTest(.present)
        case .absent: return CompiledTest(.absent)
        case .null: return CompiledTest(.null)
        case .cardBrand(let ids):
            let brands = reference.cardBrands
            for id in ids where brands.index(of: id) == nil {
                report(
                    .invalidAttribute,
                    "no card brand '\(id)' in the reference data\(Suggestion.hint(for: id, in: brands.brands.map(\.id)))",
                    location)
            }
            return CompiledTest(.cardBrand, values: ids.map(SchemaValue.string), cardBrands: brands)
        case .countryGroup(let name):
            let groups = reference.countries.groups
            guard let codes = groups[name] else {
                report(
                    .invalidAttribute,
                    "no country group '\(name)' in the ISO 3166-1 reference data\(Suggestion.hint(for: name, in: groups.keys.sorted()))",
                    location)
                return nil
            }
            return CompiledTest(.oneOfStrings, values: codes.map(SchemaValue.string))
        }
    }

    private mutating func checkValues(
        of test: ConditionTest, allowed: [String], what: String, at location: SchemaLocation
    ) {
        let values: [SchemaValue]
        switch test {
        case .equals(let value): values = [value]
        case .oneOf(let list): values = list
        default: return
        }
        for value in values {
            guard case .string(let text) = value, allowed.contains(text) else {
                report(
                    .unknownContext,
                    "\(value) is not a declared \(what)\(Suggestion.hint(for: "\(value)", in: allowed))", location)
                continue
            }
        }
    }

    /// Checks that a condition's pointer leads to a field the schema defines.
    private mutating func checkPointer(
        up: Int?, tokens: [String], pointer: String, containers: [ResolvedField], at location: SchemaLocation
    ) {
        var current: ResolvedField
        if let up {
            guard up < containers.count else {
                report(.unknownField, "'\(pointer)' climbs above the request's root", location)
                return
            }
            current = containers[containers.count - 1 - up]
        } else {
            guard let root else { return }
            current = root
        }
        for token in tokens {
            if let fields = current.fields {
                guard let next = fields.first(where: { $0.key == token }) else {
                    if current.additionalFields { return }
                    report(
                        .unknownField,
                        "'\(pointer)' names no field: '\(token)' is not a field\(Suggestion.hint(for: token, in: fields.compactMap(\.key)))",
                        location)
                    return
                }
                current = next
            } else if let items = current.items {
                guard token.allSatisfy({ $0.isASCII && $0.isNumber }), !token.isEmpty else {
                    report(.unknownField, "'\(pointer)': '\(token)' is not an array index", location)
                    return
                }
                current = items
            } else {
                report(.unknownField, "'\(pointer)' goes inside \(label(current)), which has no fields", location)
                return
            }
        }
    }

    private func label(_ field: ResolvedField) -> String {
        field.key.map { "'\($0)'" } ?? field.location.pointer
    }

    private mutating func report(
        _ code: SchemaProblem.Code, _ message: String, _ location: SchemaLocation, cause: (any Error)? = nil
    ) {
        problems.append(SchemaProblem(code: code, message: message, location: location, cause: cause))
    }
}
