public import DCEEngine

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

    /// This schema as the `values` of a request envelope carry it (`PDRequest`), for every context and tender type:
    /// each field marked `pciEncryptionRequired` travels sealed in the envelope's `encryptedFields`, so it must be
    /// absent here and is never required (a gateway refuses such a value in clear). What the gateway's OpenAPI
    /// document describes a request with.
    ///
    /// - Returns: The document and what it cannot express.
    package func exportEnvelopeValues() -> JSONSchemaExport {
        var exporter = JSONSchemaExporter(
            schema: self, context: Array(repeating: nil, count: contexts.count), tenderType: nil)
        exporter.sealedFieldsAbsent = true
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
    let schema: CompiledSchema
    let context: [String?]
    let tenderType: String?
    private var limitations: [String] = []
    /// Conditionals that look at the whole request, collected for the root's `allOf`.
    var rootConditionals: [SchemaValue] = []
    /// The contexts and tender types bound by the fields being exported, innermost last: the resolver says from them
    /// how each gets its value (``ValueSource``).
    var scopes = BindingScopes()
    /// The keys from the root to the object whose members are being exported (`*` for an array item).
    var holdingPath: [String] = []
    /// What the document's `$defs` holds: a schema written once however many places use it. An address's rules for
    /// 252 countries are hundreds of kilobytes, and an address object appears under each case of the overrides
    /// around it (card-create's delivery address twice: 1.8 MB written out, 0.9 MB referred to).
    private var definitions: [SchemaValue.Member] = []

    /// Whether fields marked `pciEncryptionRequired` must be absent (the values of a request envelope, where they
    /// travel sealed beside them).
    var sealedFieldsAbsent = false

    /// Whether the export is for provisioning a new account (context `operation=provision`), where the fields
    /// marked `ignoreForProvisioning` under the tender type are not checked.
    private let provisioning: Bool

    init(schema: CompiledSchema, context: [String?], tenderType: String?) {
        self.schema = schema
        self.context = context
        self.tenderType = tenderType
        provisioning = schema.isProvisioning(slots: context)
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
            if provisioning && child.isIgnoredForProvisioning(under: tenderType) {
                properties.append(.init(key: key, value: .object([])))  // neither checked nor sent: anything goes
                continue
            }
            if sealedFieldsAbsent && child.sensitivity.contains(.pciEncryptionRequired) {
                properties.append(.init(key: key, value: .boolean(false)))
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
        for rule in field.objectRules {
            let rules = rule.export(keys: field.fields.map(\.key), reference: schema.reference)
            if !rules.isEmpty {
                conditionals.append(
                    reference(
                        to: .object([.init(key: "allOf", value: .array(rules))]),
                        named: rule.attribute + "-" + (field.key ?? "root")))
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
                "'\(field.key ?? field.name)' must be found in a '\(reference.schema)' document at \(reference.pointer)"
                    + (reference.condition.map { ", where \($0.member) is at least \($0.minimum.lexeme)" } ?? "")
                    + " (existsIn), when one is given."
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

    private func objectSchemaMembers(_ value: SchemaValue) -> [String: SchemaValue] {
        guard case .object(let members) = value else { return [:] }
        return Dictionary(members.map { ($0.key, $0.value) }) { first, _ in first }
    }

    private mutating func formatSchema(_ format: Format) -> SchemaValue {
        let (keywords, limitation) = format.jsonSchema(reference: schema.reference)
        if let limitation { note(limitation) }
        return keywords
    }

    mutating func note(_ text: String) { if !limitations.contains(text) { limitations.append(text) } }

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

/// A JSON Schema exported from a compiled schema.
public struct JSONSchemaExport: Sendable {
    /// The JSON Schema document.
    public let document: SchemaValue
    /// What JSON Schema cannot express of the source schema, one sentence each.
    public let limitations: [String]

    /// The document as indented JSON text, ending with a newline.
    public var json: String { document.prettyJSON(indent: "") + "\n" }
}
