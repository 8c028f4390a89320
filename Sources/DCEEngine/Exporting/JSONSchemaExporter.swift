internal import DCEPattern

extension CompiledSchema {
    /// This schema as an equivalent JSON Schema (2020-12) for one context and tender type.
    ///
    /// - Parameters:
    ///   - context: Context values; contexts left out follow the schema's derive rules.
    ///   - tenderType: The tender type whose overrides apply.
    /// - Returns: The document and what it cannot express.
    /// - Throws: ``ValidatorError`` for an undeclared context or value, or an unknown tender type.
    public func exportJSONSchema(context: [String: String] = [:], tenderType: String? = nil) throws(ValidatorError)
        -> JSONSchemaExport
    {
        let slots = try contextSlots(context, tenderType: tenderType)
        var exporter = JSONSchemaExporter(schema: self, context: slots, tenderType: tenderType)
        return exporter.export()
    }
}

/// Writes a compiled schema as an equivalent JSON Schema (2020-12) for one context and tender type, so that web
/// forms and other languages can reuse the same rules.
///
/// Conditional overrides become `if`/`then` pairs: for a field with overrides, every combination of their
/// conditions is worked out, combinations with the same effective rules are merged, and each gets one `if`.
/// Contexts given to the export are constants; contexts left out are replaced by the conditions of their
/// `derive` rules. What JSON Schema cannot say is listed in ``JSONSchemaExport/limitations`` and in the
/// document's `$comment`.
struct JSONSchemaExporter {
    private let schema: CompiledSchema
    private let context: [String?]
    private let tenderType: String?
    private var limitations: [String] = []
    /// Conditionals that look at the whole request, collected for the root's `allOf`.
    private var rootConditionals: [SchemaValue] = []
    /// The contexts (slot) and tender types (`nil`) bound by the fields being exported, innermost last.
    private var scopes: [(slot: Int?, binding: ScopeBinding)] = []
    /// The keys from the root to the object whose members are being exported (`*` for an array item).
    private var holdingPath: [String] = []
    /// What the document's `$defs` holds: a schema written once however many places use it. An address's rules for
    /// 252 countries are hundreds of kilobytes, and an address object appears under each case of the overrides
    /// around it (card-create's delivery address twice: 1.8 MB written out, 0.9 MB referred to).
    private var definitions: [SchemaValue.Member] = []

    /// A binding as export sees it: the path of the bound field's object (`anchor`), where a member or a `derive`
    /// rule reads.
    private enum ScopeBinding {
        case fixed(String)
        case member(String, allowed: [String]?, anchor: [String])
        case derive([(condition: CompiledCondition, value: String)], anchor: [String])
    }

    /// Whether the export is for provisioning a new account (context `operation=provision`), where the fields
    /// marked `ignoreForProvisioning` under the tender type are not checked.
    private let provisioning: Bool

    init(schema: CompiledSchema, context: [String?], tenderType: String?) {
        self.schema = schema
        self.context = context
        self.tenderType = tenderType
        provisioning =
            schema.contexts.firstIndex { $0.name == "operation" }.map {
                context.indices.contains($0) && context[$0] == "provision"
            } ?? false
    }

    mutating func export() -> JSONSchemaExport {
        var root =
            schema.root.dataType == .array
            ? valueSchema(schema.root, schema.root.base, pathFromRoot: nil)
            : objectSchema(schema.root, pathFromRoot: [])
        root = merge(
            root,
            [
                "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
                "type": .string(schema.root.dataType.jsonSchemaType),
            ], front: true)
        if !rootConditionals.isEmpty { root = appendAllOf(root, rootConditionals) }
        if !definitions.isEmpty, case .object(let members) = root {
            root = .object(members + [.init(key: "$defs", value: .object(definitions))])
        }
        var header: [(String, SchemaValue)] = [("title", .string(schema.name ?? schema.id))]
        let given = schema.contexts.enumerated().compactMap { slot, definition in
            context[slot].map { "\(definition.name)=\($0)" }
        }
        var description = "Exported by dce-validate from schema '\(schema.id)' version \(schema.version)"
        if !given.isEmpty { description += ", context \(given.joined(separator: ", "))" }
        if let tenderType { description += ", tender type \(tenderType)" }
        header.append(("description", .string(description + ".")))
        let notes = Self.standardLimitations + limitations
        header.append(
            (
                "$comment",
                .string("Not expressible in JSON Schema, checked by dce-validate only: " + notes.joined(separator: " "))
            ))
        if case .object(let members) = root {
            root = .object(
                [members[0]] + header.map { SchemaValue.Member(key: $0.0, value: $0.1) } + members.dropFirst())
        }
        return JSONSchemaExport(document: root, limitations: notes)
    }

    static let standardLimitations = [
        "Duplicate member names are rejected (rule duplicateKey); JSON Schema validators keep one of them.",
        "Numbers are compared exactly as written; some validators compare through binary floating point.",
    ]

    // MARK: - Objects and values

    /// The structural schema of an object field; `pathFromRoot` is `nil` inside arrays, where conditionals that
    /// look at the whole request cannot be placed.
    private mutating func objectSchema(_ field: CompiledField, pathFromRoot: [String]?) -> SchemaValue {
        var properties: [SchemaValue.Member] = []
        var required: [SchemaValue] = []
        var conditionals: [SchemaValue] = []
        for child in field.fields {
            guard let key = child.key else { continue }
            pushBindings(of: child, anchor: holdingPath + [key])
            defer { popBindings(of: child) }
            let childPath = pathFromRoot.map { $0 + [key] }
            if provisioning && child.metadata(for: tenderType).ignoreForProvisioning == true {
                properties.append(.init(key: key, value: .object([])))  // neither checked nor sent: anything goes
                continue
            }
            if child.overrides.isEmpty {
                let attributes = child.base
                properties.append(
                    .init(
                        key: key,
                        value: attributes.presence.mustBeAbsent
                            ? .boolean(false) : valueSchema(child, attributes, pathFromRoot: childPath)))
                if attributes.presence.mustBePresent { required.append(.string(key)) }
                continue
            }
            properties.append(.init(key: key, value: .object([])))
            for (condition, attributes) in cases(of: child) {
                var then: [SchemaValue.Member] = []
                if attributes.presence.mustBeAbsent {
                    then.append(
                        .init(key: "not", value: .object([.init(key: "required", value: .array([.string(key)]))])))
                } else {
                    then.append(
                        .init(
                            key: "properties",
                            value: .object([
                                .init(key: key, value: valueSchema(child, attributes, pathFromRoot: childPath))
                            ])))
                    if attributes.presence.mustBePresent {
                        then.append(.init(key: "required", value: .array([.string(key)])))
                    }
                }
                place(
                    condition: condition, then: .object(then), field: child, pathFromRoot: pathFromRoot,
                    into: &conditionals)
            }
        }
        if let address = field.address {
            let rules = addressConditionals(address, of: field)
            if !rules.isEmpty {
                conditionals.append(
                    reference(
                        to: .object([.init(key: "allOf", value: .array(rules))]),
                        named: "postalAddress-" + (field.key ?? "root")))
            }
        }
        var members: [SchemaValue.Member] = [.init(key: "properties", value: .object(properties))]
        if !required.isEmpty { members.append(.init(key: "required", value: .array(required))) }
        if !field.additionalFields { members.append(.init(key: "additionalProperties", value: .boolean(false))) }
        if !conditionals.isEmpty { members.append(.init(key: "allOf", value: .array(conditionals))) }
        return .object(members)
    }

    private mutating func valueSchema(_ field: CompiledField, _ attributes: Rules, pathFromRoot: [String]?)
        -> SchemaValue
    {
        if let reference = field.existsIn {
            note(
                "'\(field.key ?? field.name)' must be found in a '\(reference.schema)' document at \(reference.pointer) (existsIn), when one is given."
            )
        }
        let allowNull = attributes.presence.acceptsNull
        let typeName = field.dataType.jsonSchemaType
        let type: SchemaValue = allowNull ? .array([.string(typeName), .string("null")]) : .string(typeName)
        var members: [SchemaValue.Member] = [.init(key: "type", value: type)]
        if field.dataType == .boolean && schema.numericBooleans {
            // Older clients send booleans wrapped in NSNumber: 0 and 1 are accepted too.
            let zeroOrOne: SchemaValue = .object([
                .init(
                    key: "enum",
                    value: .array([.number(DecimalNumber(lexeme: "0")), .number(DecimalNumber(lexeme: "1"))]))
            ])
            members = [.init(key: "anyOf", value: .array([.object([.init(key: "type", value: type)]), zeroOrOne]))]
        }
        if let description = field.description {
            members.append(.init(key: "description", value: .string(description)))
        }
        func add(_ key: String, _ value: SchemaValue) { members.append(.init(key: key, value: value)) }
        members += attributes.lengths.jsonSchema + attributes.valueRange.jsonSchema + attributes.itemCounts.jsonSchema
        if let options = attributes.options {
            let keyword = options.jsonSchema(allowingNull: allowNull)
            add(keyword.key, keyword.value)
        }
        if let implied = field.dataType.impliedFormat { add("format", .string(implied.rawValue)) }
        var all: [SchemaValue] = []
        if !attributes.formatList.isEmpty {
            let options = attributes.formatList.map { formatSchema($0) }
            all.append(options.count == 1 ? options[0] : .object([.init(key: "anyOf", value: .array(options))]))
        }
        all += attributes.validationList.map(\.jsonSchema)
        if !all.isEmpty {
            // A code list exports as `enum`, which would refuse the `null` a nullable field accepts: null is let
            // through before the checks, as dce-validate checks formats and validations on strings only.
            let null = SchemaValue.object([.init(key: "type", value: .string("null"))])
            add(
                "allOf",
                allowNull
                    ? .array([
                        .object([
                            .init(
                                key: "anyOf", value: .array([null, .object([.init(key: "allOf", value: .array(all))])]))
                        ])
                    ]) : .array(all))
        }
        var schema = SchemaValue.object(members)
        switch field.dataType {
        case .object:
            holdingPath.append(field.key ?? "*")
            schema = merge(schema, objectSchemaMembers(objectSchema(field, pathFromRoot: pathFromRoot)))
            holdingPath.removeLast()
        case .array:
            if let items = field.items {
                if !items.overrides.isEmpty {
                    limitations.append("The overrides of the items of '\(field.key ?? "")' are not exported.")
                }
                holdingPath.append(field.key ?? "*")
                pushBindings(of: items, anchor: holdingPath + ["*"])
                schema = merge(schema, ["items": valueSchema(items, items.base, pathFromRoot: nil)])
                popBindings(of: items)
                holdingPath.removeLast()
            }
        default: break
        }
        return schema
    }

    /// A `$ref` to `schema` in ``definitions``, added under `name` (made unique, letters, digits and `-` kept) unless
    /// the same schema is there already.
    private mutating func reference(to schema: SchemaValue, named name: String) -> SchemaValue {
        let index =
            definitions.firstIndex { $0.value == schema }
            ?? {
                let base = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" })
                var unique = base
                var number = 2
                while definitions.contains(where: { $0.key == unique }) {
                    unique = "\(base)-\(number)"
                    number += 1
                }
                definitions.append(.init(key: unique, value: schema))
                return definitions.count - 1
            }()
        return .object([.init(key: "$ref", value: .string("#/$defs/" + definitions[index].key))])
    }

    // MARK: - Addresses

    /// What an address object's country asks of its parts (`postalAddress`), one `if`/`then` per country of the
    /// address data: the parts it requires (present, a non-empty string), its postal-code pattern, its subdivisions
    /// (by key or name, any case, surrounding spaces allowed), and, one `if`/`then` per subdivision with a prefix,
    /// the postal-code prefix of the state named. An empty part is not judged by the country's patterns, as in
    /// dce-validate. Codes compared in capitals get patterns that accept either case.
    private func addressConditionals(_ address: CompiledAddress, of field: CompiledField) -> [SchemaValue] {
        func key(_ member: Int) -> String? { member >= 0 ? field.fields[member].key : nil }
        guard let countryKey = key(address.country) else { return [] }
        let stateKey = key(address.member(.state))
        let postalKey = key(address.member(.postalCode))
        var conditionals: [SchemaValue] = []
        for country in schema.reference.addresses.countries {
            // The keywords for each member, in the order the members first get one.
            var keywords: [(key: String, members: [SchemaValue.Member])] = []
            func add(_ key: String, _ keyword: String, _ value: SchemaValue) {
                if let index = keywords.firstIndex(where: { $0.key == key }) {
                    keywords[index].members.append(.init(key: keyword, value: value))
                } else {
                    keywords.append((key, [.init(key: keyword, value: value)]))
                }
            }
            var required: [SchemaValue] = []
            for part in AddressFormats.Part.allCases where country.requires(part) {
                guard let member = key(address.member(part)) else { continue }
                required.append(.string(member))
                add(member, "type", .string("string"))
                add(member, "minLength", .number(DecimalNumber(lexeme: "1")))
            }
            if let postalKey, country.uses(.postalCode), let pattern = country.postalCodePattern {
                add(
                    postalKey, "pattern",
                    .string("^(?:" + Self.exported(pattern, capitals: country.postalCodeInCapitals) + ")?$"))
            }
            if let stateKey, country.uses(.state), !country.subdivisions.isEmpty {
                let names = country.subdivisions.flatMap { [$0.key] + $0.names }
                add(stateKey, "pattern", .string(Self.namePattern(names)))
            }
            let properties = keywords.map { SchemaValue.Member(key: $0.key, value: .object($0.members)) }
            var then: [SchemaValue] = []
            if !properties.isEmpty || !required.isEmpty {
                var members: [SchemaValue.Member] = [.init(key: "properties", value: .object(properties))]
                if !required.isEmpty { members.append(.init(key: "required", value: .array(required))) }
                then.append(.object(members))
            }
            if let stateKey, let postalKey, country.uses(.postalCode) {
                for region in country.subdivisions {
                    guard let prefix = region.postalCodePrefix else { continue }
                    let state = SchemaValue.object([
                        .init(key: "required", value: .array([.string(stateKey)])),
                        .init(
                            key: "properties",
                            value: .object([
                                .init(
                                    key: stateKey,
                                    value: .object([
                                        .init(key: "type", value: .string("string")),
                                        .init(
                                            key: "pattern",
                                            value: .string(
                                                Self.namePattern([region.key] + region.names, allowEmpty: false))),
                                    ]))
                            ])),
                    ])
                    let source = "^(?:" + Self.exported(prefix, capitals: country.postalCodeInCapitals) + ")|^$"
                    let postal = SchemaValue.object([
                        .init(
                            key: "properties",
                            value: .object([
                                .init(key: postalKey, value: .object([.init(key: "pattern", value: .string(source))]))
                            ]))
                    ])
                    then.append(.object([.init(key: "if", value: state), .init(key: "then", value: postal)]))
                }
            }
            guard !then.isEmpty else { continue }
            let condition = SchemaValue.object([
                .init(key: "required", value: .array([.string(countryKey)])),
                .init(
                    key: "properties",
                    value: .object([
                        .init(key: countryKey, value: .object([.init(key: "const", value: .string(country.code))]))
                    ])),
            ])
            conditionals.append(
                .object([
                    .init(key: "if", value: condition),
                    .init(
                        key: "then",
                        value: then.count == 1 ? then[0] : .object([.init(key: "allOf", value: .array(then))])),
                ]))
        }
        return conditionals
    }

    /// A pattern matching any of `names` in any case, with spaces around (and the empty string, unless not allowed).
    private static func namePattern(_ names: [String], allowEmpty: Bool = true) -> String {
        let alternatives = names.map { name in
            name.map { character -> String in
                let text = String(character)
                let lower = text.lowercased()
                let upper = text.uppercased()
                if lower != upper && lower.count == 1 && upper.count == 1 { return "[\(lower)\(upper)]" }
                return "\\^$.|?*+()[]{}/-".contains(character) ? "\\" + text : text
            }.joined()
        }
        return "^\\s*(?:" + alternatives.joined(separator: "|") + ")\\s*$" + (allowEmpty ? "|^$" : "")
    }

    /// A pattern of the address data as exported: as written, or accepting either case of every letter for a code
    /// compared in capitals (ECMA-262 patterns have no inline `(?i)`).
    static func exported(_ pattern: String, capitals: Bool) -> String {
        guard capitals else { return pattern }
        var result = ""
        var characters = Array(pattern)[...]
        func isLetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }
        while let character = characters.popFirst() {
            if character == "\\" {
                result.append(character)
                if let next = characters.popFirst() { result.append(next) }
            } else if character == "[" {
                var body = ""
                var extra = ""
                while let inner = characters.popFirst(), inner != "]" {
                    body.append(inner)
                    if inner == "\\", let next = characters.popFirst() {
                        body.append(next)
                    } else if isLetter(inner) {
                        if characters.first == "-", characters.count > 1,
                            isLetter(characters[characters.startIndex + 1])
                        {
                            characters.removeFirst()
                            let end = characters.removeFirst()
                            body.append("-")
                            body.append(end)
                            extra += Self.otherCase(inner) + "-" + Self.otherCase(end)
                        } else {
                            extra += Self.otherCase(inner)
                        }
                    }
                }
                result += "[" + body + extra + "]"
            } else if isLetter(character) {
                result += "[" + String(character) + Self.otherCase(character) + "]"
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func otherCase(_ letter: Character) -> String {
        letter.isUppercase ? letter.lowercased() : letter.uppercased()
    }

    private func objectSchemaMembers(_ value: SchemaValue) -> [String: SchemaValue] {
        guard case .object(let members) = value else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }) { first, _ in first }
    }

    private mutating func formatSchema(_ format: Format) -> SchemaValue {
        let (keywords, limitation) = format.jsonSchema(reference: schema.reference)
        if let limitation { note(limitation) }
        return keywords
    }

    private mutating func note(_ text: String) { if !limitations.contains(text) { limitations.append(text) } }

    // MARK: - Overrides

    /// Every combination of a field's override conditions that can hold, merged by the rules it leads to.
    private mutating func cases(of field: CompiledField) -> [(ExportCondition, Rules)] {
        let overrides = field.overrides
        guard overrides.count <= 8 else {
            note("'\(field.key ?? "")' has more than 8 overrides; only its base rules are exported.")
            return [(.constant(true), field.base)]
        }
        var groups: [(key: String, condition: ExportCondition, attributes: Rules)] = []
        for mask in 0..<(1 << overrides.count) {
            var condition = ExportCondition.constant(true)
            var attributes = field.base
            for (index, override) in overrides.enumerated() {
                let holds = mask & (1 << index) != 0
                let test = translate(override.condition)
                condition = .and(condition, holds ? test : .not(test))
                if holds { attributes = attributes.overlaid(with: override.patch) }
            }
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
    private mutating func place(
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
        case .tenderType(let test): return translate(bound: nil, test, below: scopes.count)
        case .context(let slot, let test): return translate(bound: slot, test, below: scopes.count)
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

    /// A test on a context (`slot`) or the tender type (`nil`) as the innermost of the first `limit` scopes binds it,
    /// or as the call gives it.
    private mutating func translate(bound slot: Int?, _ test: CompiledTest, below limit: Int) -> ExportCondition {
        guard let index = scopes[..<limit].lastIndex(where: { $0.slot == slot }) else {
            guard let slot else { return .constant(test.holds(forContext: tenderType)) }
            if let value = context[slot] { return .constant(test.holds(forContext: value)) }
            // Not given: the first derive rule that holds sets the value, or none does and it stays absent.
            let rules = schema.contexts[slot].derive.map {
                (holds: translate($0.condition, fromRoot: true), value: $0.value)
            }
            return firstHolding(rules, test, otherwise: .constant(test.holds(forContext: nil)))
        }
        // What holds when the binding finds no value: the value from outside it.
        let outer = translate(bound: slot, test, below: index)
        switch scopes[index].binding {
        case .fixed(let value):
            return .constant(test.holds(forContext: value))
        case .member(let key, let allowed, let anchor):
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
        case .derive(let rules, let anchor):
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

    private mutating func pushBindings(of field: CompiledField, anchor: [String]) {
        for binding in field.bindings {
            let scoped: ScopeBinding =
                switch binding.source {
                case .value(let value): .fixed(value)
                case .member(let key, let allowed): .member(key, allowed: allowed, anchor: anchor)
                case .derive(let rules): .derive(rules, anchor: anchor)
                }
            scopes.append((binding.slot, scoped))
        }
    }

    private mutating func popBindings(of field: CompiledField) {
        scopes.removeLast(field.bindings.count)
    }

    // MARK: - Helpers

    private func merge(_ value: SchemaValue, _ extra: [String: SchemaValue], front: Bool = false) -> SchemaValue {
        guard case .object(let members) = value else { return value }
        let added = extra.keys.sorted().filter { key in !members.contains { $0.key == key } }.map {
            SchemaValue.Member(key: $0, value: extra[$0]!)
        }
        return .object(front ? added + members : members + added)
    }

    private func appendAllOf(_ value: SchemaValue, _ items: [SchemaValue]) -> SchemaValue {
        guard case .object(var members) = value else { return value }
        if let index = members.firstIndex(where: { $0.key == "allOf" }),
            case .array(let existing) = members[index].value
        {
            members[index].value = .array(existing + items)
        } else {
            members.append(.init(key: "allOf", value: .array(items)))
        }
        return .object(members)
    }
}

/// A condition on its way to JSON Schema, with constants folded.
indirect enum ExportCondition {
    case constant(Bool)
    case and(ExportCondition, ExportCondition)
    case or(ExportCondition, ExportCondition)
    case not(ExportCondition)
    /// A test on a member: from the request's root, or from the object that holds the field.
    case field(tokens: [String], test: CompiledTest, fromRoot: Bool)

    var simplified: ExportCondition {
        switch self {
        case .constant, .field: return self
        case .not(let inner):
            let inner = inner.simplified
            if case .constant(let value) = inner { return .constant(!value) }
            return .not(inner)
        case .and(let lhs, let rhs):
            let (lhs, rhs) = (lhs.simplified, rhs.simplified)
            if case .constant(false) = lhs { return lhs }
            if case .constant(false) = rhs { return rhs }
            if case .constant(true) = lhs { return rhs }
            if case .constant(true) = rhs { return lhs }
            return .and(lhs, rhs)
        case .or(let lhs, let rhs):
            let (lhs, rhs) = (lhs.simplified, rhs.simplified)
            if case .constant(true) = lhs { return lhs }
            if case .constant(true) = rhs { return rhs }
            if case .constant(false) = lhs { return rhs }
            if case .constant(false) = rhs { return lhs }
            return .or(lhs, rhs)
        }
    }

    /// Whether the condition reads members from the request's root.
    var needsRoot: Bool {
        switch self {
        case .constant: false
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.needsRoot || rhs.needsRoot
        case .not(let inner): inner.needsRoot
        case .field(_, _, let fromRoot): fromRoot
        }
    }

    /// The condition as a schema applied to the root (when `prefix` is the path to the object) or to the object.
    func schema(prefix: [String]) -> SchemaValue {
        switch self {
        case .constant(let value): return .boolean(value)
        case .and(let lhs, let rhs):
            return .object([
                .init(key: "allOf", value: .array([lhs.schema(prefix: prefix), rhs.schema(prefix: prefix)]))
            ])
        case .or(let lhs, let rhs):
            return .object([
                .init(key: "anyOf", value: .array([lhs.schema(prefix: prefix), rhs.schema(prefix: prefix)]))
            ])
        case .not(let inner): return .object([.init(key: "not", value: inner.schema(prefix: prefix))])
        case .field(let tokens, let test, let fromRoot):
            let path = fromRoot ? tokens : prefix + tokens
            switch test.kind {
            case .absent: return .object([.init(key: "not", value: Self.path(path, leaf: .boolean(true)))])
            case .present:
                return Self.path(
                    path,
                    leaf: .object([.init(key: "not", value: .object([.init(key: "type", value: .string("null"))]))]))
            case .null: return Self.path(path, leaf: .object([.init(key: "type", value: .string("null"))]))
            case .equals: return Self.path(path, leaf: .object([.init(key: "const", value: test.values[0])]))
            case .oneOf: return Self.path(path, leaf: .object([.init(key: "enum", value: .array(test.values))]))
            case .oneOfStrings:
                let values = test.values
                return Self.path(
                    path,
                    leaf: .object([
                        .init(
                            key: values.count == 1 ? "const" : "enum",
                            value: values.count == 1 ? values[0] : .array(values))
                    ]))
            case .matches:
                return Self.path(
                    path,
                    leaf: .object([
                        .init(key: "type", value: .string("string")),
                        .init(key: "pattern", value: .string(test.pattern?.source ?? "")),
                    ]))
            case .cardBrand:
                let source = test.cardBrands?.pattern(for: test.strings) ?? "^$"
                return Self.path(
                    path,
                    leaf: .object([
                        .init(key: "type", value: .string("string")), .init(key: "pattern", value: .string(source)),
                    ]))
            }
        }
    }

    /// `{type: object, required: [t], properties: {t: …}}` down the path, ending in `leaf`.
    private static func path(_ tokens: [String], leaf: SchemaValue) -> SchemaValue {
        guard let first = tokens.first else { return leaf }
        return .object([
            .init(key: "type", value: .string("object")),
            .init(key: "required", value: .array([.string(first)])),
            .init(
                key: "properties",
                value: .object([.init(key: first, value: path(Array(tokens.dropFirst()), leaf: leaf))])),
        ])
    }
}

/// A JSON Schema exported from a compiled schema.
public struct JSONSchemaExport: Sendable {
    /// The JSON Schema document.
    public let document: SchemaValue
    /// What JSON Schema cannot express of the source schema, one sentence each.
    public let limitations: [String]

    /// The document as indented JSON text, ending with a newline.
    public var json: String { document.prettyJSON(indent: "") + "\n" }
}
