/// Reads a schema file's JSON tree into a ``SchemaDocument``, collecting every problem with its pointer.
struct SchemaDecoder {
    static let documentAttributes = [
        "$schema", "id", "version", "name", "description", "contexts", "tenderTypes", "fields", "additionalFields",
        "definitions", "trustedPatterns", "numericBooleans", "responseSchema", "kind", "dataType", "items", "minItems",
        "maxItems",
        "postalAddress",
    ]
    /// Attributes an override (`overrides[]` or `tenderTypes.<type>`) may set.
    static let overridableAttributes = [
        "name", "description", "required", "forbidden", "nullable", "minLength", "maxLength", "minimum", "maximum",
        "minItems", "maxItems", "enum", "format", "additionalDataValidations", "defaultValue", "message", "messages",
    ]
    /// Attributes of a field's metadata, which a tender type may set too (a conditional override may not).
    static let metadataAttributes = [
        "order", "dataGroup", "ignoreForProvisioning", "pciEncryptionRequired", "storageRestricted", "maskingRequired",
        "updatesAllowed", "reverificationRequired",
    ]
    static let fieldAttributes =
        [
            "key", "dataType", "ref", "fields", "additionalFields", "items", "tenderTypes", "overrides", "context",
            "postalAddress", "existsIn",
        ]
        + overridableAttributes + metadataAttributes
    /// Attributes an `additionalDataValidations` entry may have.
    static let validationAttributes = ["minLength", "maxLength", "regex", "unicode", "description", "message"]
    static let contextAttributes = ["description", "values", "derive"]
    static let conditionOperators = [
        "equals", "in", "matches", "present", "absent", "null", "cardBrand", "countryGroup",
    ]

    let document: JSONDocument
    let file: String
    /// Every field, condition and attribute gets a location, so lines are indexed once.
    private let lines: LineIndex
    private(set) var problems: [SchemaProblem] = []

    init(document: JSONDocument, file: String) {
        self.document = document
        self.file = file
        self.lines = document.lineIndex()
    }

    mutating func decode(expectedID: String) -> SchemaDocument? {
        guard let members = object(at: document.root, pointer: "", allowed: Self.documentAttributes, what: "a schema")
        else { return nil }
        let id = string(members["id"], required: true, pointer: "/id") ?? expectedID
        if members["id"] != nil, id != expectedID {
            report(
                .invalidAttribute, "the schema id '\(id)' does not match the file name '\(expectedID).json'",
                members["id"]!.index, "/id")
        }
        let contexts = contextDefinitions(members["contexts"])
        // The request is an object with `fields`, or, with "dataType": "Array", an array of `items` (as the DCE
        // responses are).
        var rootType = DataType.object
        if let entry = members["dataType"], let raw = string(entry, pointer: "/dataType") {
            switch raw {
            case "Object": rootType = .object
            case "Array": rootType = .array
            default:
                report(
                    .invalidAttribute, "a schema's dataType is Object or Array, not '\(raw)'", entry.index, "/dataType")
            }
        }
        var rootRules = Rules(dataType: rootType)
        rootRules.itemCounts = counts(members)
        var root = FieldDefinition(
            location: location(document.root, ""), key: nil, ref: nil, refLocation: nil,
            rules: rootRules, metadata: FieldMetadata(),
            fields: rootType == .object ? fieldList(members["fields"], pointer: "/fields", required: false) ?? [] : nil,
            additionalFields: bool(members["additionalFields"], pointer: "/additionalFields"),
            items: members["items"].flatMap { field(at: $0.index, pointer: "/items", keyed: false) }.map { [$0] },
            tenderTypes: [], overrides: [])
        if rootType == .array && members["items"] == nil {
            report(.missingAttribute, "an Array schema needs 'items'", document.root, "")
        }
        if rootType == .object, let entry = members["items"] {
            report(.inapplicableAttribute, "'items' belongs to an Array schema", entry.index, "/items")
        }
        root.rules.name = text(members["name"], pointer: "/name")
        // on an Array schema: refused by the compiler
        root.postalAddress = members["postalAddress"].flatMap { postalAddress($0) }
        var definitions: [String: FieldDefinition] = [:]
        if let entry = members["definitions"],
            let definitionMembers = object(
                at: entry.index, pointer: "/definitions", allowed: nil, what: "an object of definitions")
        {
            for (name, member) in definitionMembers.sorted(by: { $0.value.index < $1.value.index }) {
                if let field = field(at: member.index, pointer: member.pointer, keyed: false) {
                    definitions[name] = field
                }
            }
        }
        var kind = SchemaKind.request
        if let entry = members["kind"], let raw = string(entry, pointer: "/kind") {
            if let known = SchemaKind(rawValue: raw) {
                kind = known
            } else {
                let kinds = SchemaKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                report(.invalidAttribute, "a schema's kind is one of \(kinds), not '\(raw)'", entry.index, "/kind")
            }
        }
        return SchemaDocument(
            id: id, version: string(members["version"], pointer: "/version") ?? "0",
            name: root.rules.name?.english, description: string(members["description"], pointer: "/description"),
            file: file, contexts: contexts,
            tenderTypes: stringList(members["tenderTypes"], pointer: "/tenderTypes") ?? [],
            root: root, definitions: definitions,
            trustedPatterns: bool(members["trustedPatterns"], pointer: "/trustedPatterns") ?? false,
            numericBooleans: bool(members["numericBooleans"], pointer: "/numericBooleans") ?? false,
            responseSchema: string(members["responseSchema"], pointer: "/responseSchema"), kind: kind)
    }

    // MARK: - Fields

    private mutating func fieldList(_ entry: Entry?, pointer: String, required: Bool) -> [FieldDefinition]? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "'fields' must be an array of field definitions", entry.index, pointer)
            return nil
        }
        var fields: [FieldDefinition] = []
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            if let field = field(at: element, pointer: "\(pointer)/\(offset)", keyed: true) { fields.append(field) }
        }
        return fields
    }

    private mutating func field(at index: JSONDocument.Index, pointer: String, keyed: Bool) -> FieldDefinition? {
        guard
            let members = object(at: index, pointer: pointer, allowed: Self.fieldAttributes, what: "a field definition")
        else { return nil }
        let key = string(members["key"], required: keyed, pointer: pointer + "/key", parent: index)
        if !keyed, let entry = members["key"] {
            report(
                .inapplicableAttribute, "'key' belongs on the field that uses this definition", entry.index,
                entry.pointer)
        }
        var rules = overridable(members, pointer: pointer)
        if let entry = members["dataType"] {
            if let raw = string(entry, pointer: entry.pointer) {
                if let type = DataType(rawValue: raw) {
                    rules.dataType = type
                } else {
                    report(
                        .invalidAttribute,
                        "unknown dataType '\(raw)'\(Suggestion.hint(for: raw, in: DataType.allCases.map(\.rawValue)))",
                        entry.index, entry.pointer)
                }
            }
        }
        let items: [FieldDefinition]? = members["items"].flatMap {
            field(at: $0.index, pointer: $0.pointer, keyed: false)
        }.map { [$0] }
        var tenderTypes: [FieldOverride] = []
        if let entry = members["tenderTypes"],
            let typeMembers = object(
                at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of tender types")
        {
            for (name, member) in typeMembers.sorted(by: { $0.value.index < $1.value.index }) {
                guard
                    let overrideMembers = object(
                        at: member.index, pointer: member.pointer,
                        allowed: Self.overridableAttributes + Self.metadataAttributes,
                        what: "tender type overrides")
                else { continue }
                let condition = ConditionDefinition.test(
                    subject: .tenderType, test: .equals(.string(name)), location: location(member.index, member.pointer)
                )
                tenderTypes.append(
                    FieldOverride(
                        location: location(member.index, member.pointer), condition: condition,
                        rules: overridable(overrideMembers, pointer: member.pointer), tenderType: name,
                        metadata: metadata(overrideMembers)))
            }
        }
        var overrides: [FieldOverride] = []
        if let entry = members["overrides"] {
            if document.kind(of: entry.index) != .array {
                report(.invalidAttribute, "'overrides' must be an array", entry.index, entry.pointer)
            } else {
                for (offset, element) in document.elements(of: entry.index).enumerated() {
                    let elementPointer = "\(entry.pointer)/\(offset)"
                    guard
                        let overrideMembers = object(
                            at: element, pointer: elementPointer, allowed: ["when"] + Self.overridableAttributes,
                            what: "an override")
                    else { continue }
                    guard let when = overrideMembers["when"] else {
                        report(.missingAttribute, "an override needs a 'when' condition", element, elementPointer)
                        continue
                    }
                    if let entry = overrideMembers["defaultValue"] {
                        // What is sent for an absent field cannot wait for a condition over the request it completes.
                        report(
                            .invalidAttribute,
                            "'defaultValue' cannot depend on a condition: give it on the field or per tender type",
                            entry.index, entry.pointer)
                    }
                    guard let condition = condition(at: when.index, pointer: when.pointer) else { continue }
                    overrides.append(
                        FieldOverride(
                            location: location(element, elementPointer), condition: condition,
                            rules: overridable(overrideMembers, pointer: elementPointer)))
                }
            }
        }
        return FieldDefinition(
            location: location(index, pointer), key: key,
            ref: string(members["ref"], pointer: pointer + "/ref"),
            refLocation: members["ref"].map { location($0.index, $0.pointer) },
            rules: rules, metadata: metadata(members),
            fields: fieldList(members["fields"], pointer: pointer + "/fields", required: false),
            additionalFields: bool(members["additionalFields"], pointer: pointer + "/additionalFields"),
            items: items, tenderTypes: tenderTypes, overrides: overrides, bindings: bindings(members["context"]),
            postalAddress: members["postalAddress"].flatMap { postalAddress($0) },
            existsIn: members["existsIn"].flatMap { documentReference($0) })
    }

    /// `existsIn`: the schema id of another document and a pointer pattern into it.
    private mutating func documentReference(_ entry: Entry) -> DocumentReference? {
        guard
            let members = object(
                at: entry.index, pointer: entry.pointer, allowed: ["schema", "pointer"], what: "a document reference"),
            let schema = string(
                members["schema"], required: true, pointer: entry.pointer + "/schema", parent: entry.index),
            let pointer = string(
                members["pointer"], required: true, pointer: entry.pointer + "/pointer", parent: entry.index)
        else { return nil }
        guard let tokens = DocumentReference.tokens(of: pointer) else {
            report(
                .invalidAttribute, "expected a JSON Pointer starting with '/' ('*' stands for every item or member)",
                members["pointer"]?.index ?? entry.index, entry.pointer + "/pointer")
            return nil
        }
        return DocumentReference(
            location: location(entry.index, entry.pointer), schema: schema, pointer: pointer, tokens: tokens)
    }

    /// `postalAddress`: the member naming the country, and the member holding each part of the address.
    private mutating func postalAddress(_ entry: Entry) -> PostalAddressDefinition? {
        let names = AddressFormats.Part.allCases.map(\.rawValue)
        guard
            let members = object(
                at: entry.index, pointer: entry.pointer, allowed: ["country"] + names,
                what: "an object of address members")
        else { return nil }
        guard
            let country = string(
                members["country"], required: true, pointer: entry.pointer + "/country", parent: entry.index)
        else { return nil }
        var parts: [(part: AddressFormats.Part, key: String)] = []
        for (name, member) in members.sorted(by: { $0.value.index < $1.value.index }) where name != "country" {
            if let part = AddressFormats.Part(rawValue: name), let key = string(member, pointer: member.pointer) {
                parts.append((part, key))
            }
        }
        return PostalAddressDefinition(location: location(entry.index, entry.pointer), country: country, parts: parts)
    }

    /// A field's `context`: each member binds a context (or `tenderType`) to a value, to a member of the field's
    /// object (`{"member": NAME}`), or to the first of its `derive` rules that holds.
    private mutating func bindings(_ entry: Entry?) -> [ContextBinding] {
        guard let entry,
            let members = object(
                at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of context bindings")
        else { return [] }
        var bindings: [ContextBinding] = []
        for (name, member) in members.sorted(by: { $0.value.index < $1.value.index }) {
            let here = location(member.index, member.pointer)
            if document.kind(of: member.index) == .string {
                bindings.append(
                    ContextBinding(location: here, name: name, source: .value(document.string(at: member.index))))
                continue
            }
            guard
                let source = object(
                    at: member.index, pointer: member.pointer, allowed: ["member", "derive"],
                    what: "a value, {member} or {derive}")
            else { continue }
            if let key = source["member"], source.count == 1 {
                guard let text = string(key, pointer: key.pointer) else { continue }
                bindings.append(ContextBinding(location: here, name: name, source: .member(text)))
            } else if let rules = source["derive"], source.count == 1 {
                bindings.append(ContextBinding(location: here, name: name, source: .derive(deriveRules(rules))))
            } else {
                report(
                    .invalidAttribute, "a context binding is a value, {\"member\": NAME} or {\"derive\": [...]}",
                    member.index, member.pointer)
            }
        }
        return bindings
    }

    private mutating func overridable(_ members: [String: Entry], pointer: String) -> Rules {
        var rules = Rules()
        rules.name = text(members["name"], pointer: pointer + "/name")
        rules.description = string(members["description"], pointer: pointer + "/description")
        rules.presence = Presence(
            required: bool(members["required"], pointer: pointer + "/required"),
            forbidden: bool(members["forbidden"], pointer: pointer + "/forbidden"),
            nullable: bool(members["nullable"], pointer: pointer + "/nullable"))
        rules.lengths = counts(members)
        rules.itemCounts = counts(members)
        rules.valueRange = ValueRange(
            lower: number(members[ValueBound.keywords.lower]), upper: number(members[ValueBound.keywords.upper]))
        rules.message = text(members["message"], pointer: pointer + "/message")
        if let entry = members["messages"] { rules.messages = messages(entry) }
        if let entry = members["enum"] {
            if document.kind(of: entry.index) == .array, document.count(of: entry.index) > 0 {
                rules.enumValues = document.elements(of: entry.index).map { SchemaValue(document: document, at: $0) }
            } else {
                report(.invalidAttribute, "'enum' must be a non-empty array of values", entry.index, entry.pointer)
            }
        }
        if let entry = members["format"] {
            switch document.kind(of: entry.index) {
            case .string: rules.formats = [document.string(at: entry.index)]
            case .array: rules.formats = stringList(entry, pointer: entry.pointer)  // [] lifts a format in an override
            default:
                report(
                    .invalidAttribute, "'format' must be a format name or an array of names", entry.index, entry.pointer
                )
            }
        }
        if let entry = members["defaultValue"] { rules.defaultValue = SchemaValue(document: document, at: entry.index) }
        if let entry = members["additionalDataValidations"] {
            if document.kind(of: entry.index) == .array {
                rules.validations = document.elements(of: entry.index).enumerated().compactMap {
                    validation(at: $0.element, pointer: "\(entry.pointer)/\($0.offset)")
                }
            } else {
                report(.invalidAttribute, "'additionalDataValidations' must be an array", entry.index, entry.pointer)
            }
        }
        for (name, entry) in members where Self.overridableAttributes.contains(name) {
            rules.locations[name] = location(entry.index, entry.pointer)
        }
        return rules
    }

    /// `messages`: rule code to a text for every language, or to an object of texts by language code.
    private mutating func messages(_ entry: Entry) -> FieldMessages? {
        guard
            let rules = object(
                at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of messages by rule code")
        else { return nil }
        var result: [String: [String: MessageTemplate]] = [:]
        let codes = ViolationCode.catalogue.map(\.code.rawValue)
        for (rule, text) in rules {
            guard codes.contains(rule) else {
                report(
                    .invalidAttribute, "'\(rule)' is not a rule code\(Suggestion.hint(for: rule, in: codes))",
                    text.index, text.pointer)
                continue
            }
            switch document.kind(of: text.index) {
            case .string:
                if let checked = template(text) { result[rule] = ["*": checked] }
            case .object:
                var byLanguage: [String: MessageTemplate] = [:]
                for (language, value) in object(
                    at: text.index, pointer: text.pointer, allowed: nil, what: "texts by language") ?? [:]
                {
                    if document.kind(of: value.index) != .string {
                        report(.invalidAttribute, "a message is a text", value.index, value.pointer)
                    } else if let checked = template(value) {
                        byLanguage[language] = checked
                    }
                }
                result[rule] = byLanguage
            default:
                report(
                    .invalidAttribute, "a message is a text, or an object of texts by language code", text.index,
                    text.pointer)
            }
        }
        return FieldMessages(byRule: result)
    }

    /// A message text whose placeholders are known, or `nil` after reporting the one that is not.
    private mutating func template(_ entry: Entry) -> MessageTemplate? {
        let text = document.string(at: entry.index)
        do {
            return try MessageTemplate(text)
        } catch {
            report(.invalidAttribute, error.problem, entry.index, entry.pointer, cause: error)
            return nil
        }
    }

    private mutating func metadata(_ members: [String: Entry]) -> FieldMetadata {
        FieldMetadata(
            order: members["order"].flatMap { integer($0) },
            dataGroup: string(members["dataGroup"], pointer: members["dataGroup"]?.pointer ?? ""),
            ignoreForProvisioning: bool(
                members["ignoreForProvisioning"], pointer: members["ignoreForProvisioning"]?.pointer ?? ""),
            pciEncryptionRequired: bool(
                members["pciEncryptionRequired"], pointer: members["pciEncryptionRequired"]?.pointer ?? ""),
            storageRestricted: bool(members["storageRestricted"], pointer: members["storageRestricted"]?.pointer ?? ""),
            maskingRequired: bool(members["maskingRequired"], pointer: members["maskingRequired"]?.pointer ?? ""),
            updatesAllowed: bool(members["updatesAllowed"], pointer: members["updatesAllowed"]?.pointer ?? ""),
            reverificationRequired: bool(
                members["reverificationRequired"], pointer: members["reverificationRequired"]?.pointer ?? ""))
    }

    private mutating func validation(at index: JSONDocument.Index, pointer: String) -> Validation? {
        guard
            let members = object(at: index, pointer: pointer, allowed: Self.validationAttributes, what: "a validation")
        else { return nil }
        let validation = Validation(
            location: location(index, pointer), lengths: counts(members),
            regex: string(members["regex"], pointer: pointer + "/regex"),
            regexLocation: members["regex"].map { location($0.index, $0.pointer) },
            unicode: bool(members["unicode"], pointer: pointer + "/unicode") ?? false,
            description: string(members["description"], pointer: pointer + "/description"),
            message: text(members["message"], pointer: pointer + "/message"))
        if validation.lengths.isEmpty, validation.regex == nil {
            report(.missingAttribute, "a validation needs 'minLength', 'maxLength' or 'regex'", index, pointer)
        }
        return validation
    }

    // MARK: - Contexts and conditions

    private mutating func contextDefinitions(_ entry: Entry?) -> [ContextDefinition] {
        guard let entry,
            let members = object(at: entry.index, pointer: entry.pointer, allowed: nil, what: "an object of contexts")
        else { return [] }
        var contexts: [ContextDefinition] = []
        for (name, member) in members.sorted(by: { $0.value.index < $1.value.index }) {
            guard
                let attributes = object(
                    at: member.index, pointer: member.pointer, allowed: Self.contextAttributes, what: "a context")
            else { continue }
            if name == "tenderType" {
                report(
                    .invalidAttribute, "'tenderType' is reserved: declare tender types in 'tenderTypes'", member.index,
                    member.pointer)
            }
            let derive = attributes["derive"].map { deriveRules($0) } ?? []
            contexts.append(
                ContextDefinition(
                    location: location(member.index, member.pointer), name: name,
                    description: string(attributes["description"], pointer: member.pointer + "/description"),
                    values: stringList(attributes["values"], pointer: member.pointer + "/values"), derive: derive))
        }
        return contexts
    }

    /// `derive` rules: `[{when, value}]`, tried in order. `{"cardBrandOf": pointer}` stands for one rule per card
    /// brand of the reference data, each setting the brand's id when the value at the pointer is a number of that
    /// brand: it is read as a `cardBrand` test with no brands and an empty value, which the compiler expands.
    private mutating func deriveRules(_ entry: Entry) -> [(
        condition: ConditionDefinition, value: String, location: SchemaLocation
    )] {
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "'derive' must be an array of {when, value}", entry.index, entry.pointer)
            return []
        }
        var rules: [(condition: ConditionDefinition, value: String, location: SchemaLocation)] = []
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            let pointer = "\(entry.pointer)/\(offset)"
            if document.kind(of: element) == .object, document.member("cardBrandOf", of: element) != nil {
                guard let rule = object(at: element, pointer: pointer, allowed: ["cardBrandOf"], what: "a derive rule"),
                    let source = rule["cardBrandOf"], let text = string(source, pointer: source.pointer)
                else { continue }
                guard let parsed = Self.parseFieldPointer(text) else {
                    report(
                        .invalidAttribute, "'\(text)' is neither a JSON Pointer nor a relative JSON Pointer",
                        source.index, source.pointer)
                    continue
                }
                let here = location(element, pointer)
                let test = ConditionDefinition.test(
                    subject: .field(up: parsed.up, tokens: parsed.tokens, pointer: text), test: .cardBrand([]),
                    location: here)
                rules.append((test, "", here))
                continue
            }
            guard let rule = object(at: element, pointer: pointer, allowed: ["when", "value"], what: "a derive rule"),
                let when = rule["when"], let condition = condition(at: when.index, pointer: when.pointer),
                let value = string(rule["value"], required: true, pointer: pointer + "/value", parent: element)
            else {
                continue
            }
            rules.append((condition, value, location(element, pointer)))
        }
        return rules
    }

    private mutating func condition(at index: JSONDocument.Index, pointer: String) -> ConditionDefinition? {
        let here = location(index, pointer)
        guard
            let members = object(
                at: index, pointer: pointer,
                allowed: ["all", "any", "not", "context", "field"] + Self.conditionOperators,
                what: "a condition")
        else { return nil }
        if let entry = members["all"] ?? members["any"] {
            guard members.count == 1 else {
                report(.invalidAttribute, "'all' and 'any' stand alone in their condition", index, pointer)
                return nil
            }
            guard document.kind(of: entry.index) == .array, document.count(of: entry.index) > 0 else {
                report(
                    .invalidAttribute, "'all' and 'any' take a non-empty array of conditions", entry.index,
                    entry.pointer)
                return nil
            }
            let parts = document.elements(of: entry.index).enumerated().compactMap {
                condition(at: $0.element, pointer: "\(entry.pointer)/\($0.offset)")
            }
            return members["all"] != nil ? .all(parts, here) : .any(parts, here)
        }
        if let entry = members["not"] {
            guard members.count == 1 else {
                report(.invalidAttribute, "'not' stands alone in its condition", index, pointer)
                return nil
            }
            return condition(at: entry.index, pointer: entry.pointer).map { .not($0, here) }
        }
        let subject: ConditionSubject
        if let entry = members["context"], let name = string(entry, pointer: entry.pointer) {
            subject = name == "tenderType" ? .tenderType : .context(name)
        } else if let entry = members["field"], let text = string(entry, pointer: entry.pointer) {
            guard let parsed = Self.parseFieldPointer(text) else {
                report(
                    .invalidAttribute, "'\(text)' is neither a JSON Pointer nor a relative JSON Pointer", entry.index,
                    entry.pointer)
                return nil
            }
            subject = .field(up: parsed.up, tokens: parsed.tokens, pointer: text)
        } else {
            report(.missingAttribute, "a condition needs 'all', 'any', 'not', 'context' or 'field'", index, pointer)
            return nil
        }
        let operators = Self.conditionOperators.filter { members[$0] != nil }
        guard operators.count == 1, let op = operators.first, let entry = members[op] else {
            report(
                .invalidAttribute,
                "a condition needs exactly one of: \(Self.conditionOperators.joined(separator: ", "))", index, pointer)
            return nil
        }
        let test: ConditionTest
        switch op {
        case "equals": test = .equals(SchemaValue(document: document, at: entry.index))
        case "in":
            guard document.kind(of: entry.index) == .array else {
                report(.invalidAttribute, "'in' takes an array of values", entry.index, entry.pointer)
                return nil
            }
            test = .oneOf(document.elements(of: entry.index).map { SchemaValue(document: document, at: $0) })
        case "matches":
            guard let pattern = string(entry, pointer: entry.pointer) else { return nil }
            test = .matches(pattern)
        case "cardBrand":
            let brands =
                document.kind(of: entry.index) == .string
                ? string(entry, pointer: entry.pointer).map { [$0] } : stringList(entry, pointer: entry.pointer)
            guard let brands, !brands.isEmpty else {
                report(
                    .invalidAttribute, "'cardBrand' takes a brand id or a non-empty array of them", entry.index,
                    entry.pointer)
                return nil
            }
            test = .cardBrand(brands)
        case "countryGroup":
            guard let group = string(entry, pointer: entry.pointer) else { return nil }
            test = .countryGroup(group)
        default:
            guard document.kind(of: entry.index) == .boolean, document.boolean(at: entry.index) else {
                report(
                    .invalidAttribute, "'\(op)' takes the value true (use 'not' to negate)", entry.index, entry.pointer)
                return nil
            }
            test = op == "present" ? .present : op == "absent" ? .absent : .null
        }
        return .test(subject: subject, test: test, location: here)
    }

    /// Splits `/a/b` into tokens, or `1/a` into one level up and tokens.
    static func parseFieldPointer(_ text: String) -> (up: Int?, tokens: [String])? {
        if text.hasPrefix("/") { return JSONPointer.tokens(of: text).map { (nil, $0) } }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let up = Int(digits), digits == "0" || !digits.hasPrefix("0") else { return nil }
        let rest = String(text.dropFirst(digits.count))
        return JSONPointer.tokens(of: rest).map { (up, $0) }
    }

    // MARK: - Primitive readers

    struct Entry {
        var index: JSONDocument.Index
        var pointer: String
    }

    private mutating func object(
        at index: JSONDocument.Index, pointer: String, allowed: [String]?, what: String
    ) -> [String: Entry]? {
        guard document.kind(of: index) == .object else {
            report(.invalidAttribute, "expected \(what) (an object), found \(document.kind(of: index))", index, pointer)
            return nil
        }
        var members: [String: Entry] = [:]
        for (keyIndex, valueIndex) in document.members(of: index) {
            let key = document.string(at: keyIndex)
            let memberPointer = JSONPointer.appending(key, to: pointer)
            if members[key] != nil {
                report(.duplicate, "'\(key)' is written twice", keyIndex, memberPointer)
                continue
            }
            if let allowed, !allowed.contains(key) {
                report(
                    .unknownAttribute, "unknown attribute '\(key)'\(Suggestion.hint(for: key, in: allowed))", keyIndex,
                    memberPointer)
                continue
            }
            members[key] = Entry(index: valueIndex, pointer: memberPointer)
        }
        return members
    }

    /// A string attribute; when `required` and missing, the problem is reported at `parent`, the object that lacks it.
    private mutating func string(
        _ entry: Entry?, required: Bool = false, pointer: String, parent: JSONDocument.Index? = nil
    ) -> String? {
        guard let entry else {
            if required {
                report(
                    .missingAttribute, "missing '\(pointer.split(separator: "/").last ?? "")'", parent ?? document.root,
                    pointer)
            }
            return nil
        }
        guard document.kind(of: entry.index) == .string else {
            report(
                .invalidAttribute, "expected a string, found \(document.kind(of: entry.index))", entry.index,
                entry.pointer)
            return nil
        }
        return document.string(at: entry.index)
    }

    /// A text for people (`name`, `message`): a string in English, or an object of texts by language code with `en`
    /// among them.
    private mutating func text(_ entry: Entry?, pointer: String) -> LocalizedText? {
        guard let entry else { return nil }
        switch document.kind(of: entry.index) {
        case .string:
            return LocalizedText(document.string(at: entry.index))
        case .object:
            guard let texts = object(at: entry.index, pointer: entry.pointer, allowed: nil, what: "texts by language")
            else { return nil }
            var translations: [String: String] = [:]
            for (language, value) in texts {
                if !Self.isLanguageCode(language) {
                    report(
                        .invalidAttribute,
                        "'\(language)' is not a language code (two or three lowercase letters, such as 'de')",
                        value.index, value.pointer)
                } else if document.kind(of: value.index) != .string {
                    report(
                        .invalidAttribute, "expected a string, found \(document.kind(of: value.index))", value.index,
                        value.pointer)
                } else {
                    translations[language] = document.string(at: value.index)
                }
            }
            guard let english = translations.removeValue(forKey: "en") else {
                report(
                    .missingAttribute, "texts by language need 'en', the text every other language falls back to",
                    entry.index, entry.pointer)
                return nil
            }
            return LocalizedText(english, translations: translations)
        default:
            report(
                .invalidAttribute,
                "expected a string, or an object of texts by language code, found \(document.kind(of: entry.index))",
                entry.index, entry.pointer)
            return nil
        }
    }

    /// An ISO 639 language code as catalogues and schemas key texts by it: two or three lowercase ASCII letters.
    static func isLanguageCode(_ text: String) -> Bool {
        (2...3).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7A).contains($0) }
    }

    private mutating func bool(_ entry: Entry?, pointer: String) -> Bool? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .boolean else {
            report(
                .invalidAttribute, "expected true or false, found \(document.kind(of: entry.index))", entry.index,
                entry.pointer)
            return nil
        }
        return document.boolean(at: entry.index)
    }

    private mutating func number(_ entry: Entry?) -> DecimalNumber? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .number else {
            report(
                .invalidAttribute, "expected a number, found \(document.kind(of: entry.index))", entry.index,
                entry.pointer)
            return nil
        }
        return DecimalNumber(lexeme: document.numberLexeme(at: entry.index))
    }

    private mutating func integer(_ entry: Entry) -> Int? {
        guard document.kind(of: entry.index) == .number, document.isIntegerLiteral(at: entry.index),
            let value = Int(document.numberLexeme(at: entry.index))
        else {
            report(.invalidAttribute, "expected an integer", entry.index, entry.pointer)
            return nil
        }
        return value
    }

    /// A non-negative integer (a length or a count).
    private mutating func count(_ entry: Entry?) -> Int? {
        guard let entry, let value = integer(entry) else { return nil }
        guard value >= 0 else {
            report(.invalidAttribute, "expected a non-negative integer", entry.index, entry.pointer)
            return nil
        }
        return value
    }

    /// Bounds that count something (`minLength`/`maxLength`, `minItems`/`maxItems`), by their kind's keywords.
    private mutating func counts<Kind: BoundKind>(_ members: [String: Entry]) -> Bounds<Kind> where Kind.Value == Int {
        Bounds(lower: count(members[Kind.keywords.lower]), upper: count(members[Kind.keywords.upper]))
    }

    private mutating func stringList(_ entry: Entry?, pointer: String) -> [String]? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "expected an array of strings", entry.index, entry.pointer)
            return nil
        }
        var values: [String] = []
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            guard document.kind(of: element) == .string else {
                report(
                    .invalidAttribute, "expected a string, found \(document.kind(of: element))", element,
                    "\(pointer)/\(offset)")
                continue
            }
            values.append(document.string(at: element))
        }
        return values
    }

    private func location(_ index: JSONDocument.Index, _ pointer: String) -> SchemaLocation {
        SchemaLocation(file: file, pointer: pointer, position: document.position(of: index, lines: lines))
    }

    private mutating func report(
        _ code: SchemaProblem.Code, _ message: String, _ index: JSONDocument.Index, _ pointer: String,
        cause: (any Error)? = nil
    ) {
        problems.append(SchemaProblem(code: code, message: message, location: location(index, pointer), cause: cause))
    }
}
