/// Reads a schema file's JSON tree into a ``SchemaDocument``, collecting every problem with its pointer.
struct SchemaDecoder {
    static let documentAttributes =
        [
            "$schema", "id", "version", "name", "description", "contexts", "tenderTypes", "fields", "additionalFields",
            "definitions", "trustedPatterns", "numericBooleans", "responseSchema", "kind", "dataType", "items",
            "minItems", "maxItems", "mergePatch", "swiftName",
        ] + ObjectRuleKinds.builtIn.map { $0.attribute }
    /// Attributes an override (`overrides[]` or `tenderTypes.<type>`) may set.
    static let overridableAttributes = [
        "name", "placeholder", "help", "description", "required", "forbidden", "nullable", "minLength", "maxLength",
        "minimum", "maximum", "minItems", "maxItems", "enum", "format", "additionalDataValidations", "defaultValue",
        "message", "messages",
    ]
    /// Attributes of a field's metadata, which a tender type may set too (a conditional override may not).
    static let metadataAttributes = [
        "order", "dataGroup", "ignoreForProvisioning", "pciEncryptionRequired", "storageRestricted", "maskingRequired",
        "updatesAllowed", "reverificationRequired", "autofill",
    ]
    static let fieldAttributes =
        [
            "key", "dataType", "ref", "fields", "additionalFields", "items", "tenderTypes", "overrides", "context",
            "existsIn", "swiftName", "swiftCaseNames",
        ]
        + ObjectRuleKinds.builtIn.map { $0.attribute } + overridableAttributes + metadataAttributes
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

    /// The kinds of object rule the schema language has: each one's attribute is read by the kind.
    let ruleKinds: [any ObjectRuleKind.Type]

    init(document: JSONDocument, file: String, ruleKinds: [any ObjectRuleKind.Type] = ObjectRuleKinds.builtIn) {
        self.document = document
        self.file = file
        self.lines = document.lineIndex()
        self.ruleKinds = ruleKinds
    }

    /// The attributes an object may have beyond `listed`: those of the rule kinds the language was given besides its
    /// own.
    func withRuleKinds(_ listed: [String]) -> [String] {
        listed + ruleKinds.map { $0.attribute }.filter { !listed.contains($0) }
    }

    mutating func decode(expectedID: String) -> SchemaDocument? {
        guard
            let members = object(
                at: document.root, pointer: "", allowed: withRuleKinds(Self.documentAttributes), what: "a schema")
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
        root.codeNames.swiftName = swiftName(members["swiftName"])
        // on an Array schema: refused by the compiler
        root.objectRules = objectRules(members)
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
            mergePatch: bool(members["mergePatch"], pointer: "/mergePatch") ?? false,
            responseSchema: string(members["responseSchema"], pointer: "/responseSchema"), kind: kind,
            locations: members.mapValues { location($0.index, $0.pointer) })
    }

    // MARK: - Primitive readers

    typealias Entry = AttributeEntry

    mutating func object(
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
    mutating func string(
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
    mutating func text(_ entry: Entry?, pointer: String) -> LocalizedText? {
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

    mutating func bool(_ entry: Entry?, pointer: String) -> Bool? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .boolean else {
            report(
                .invalidAttribute, "expected true or false, found \(document.kind(of: entry.index))", entry.index,
                entry.pointer)
            return nil
        }
        return document.boolean(at: entry.index)
    }

    mutating func number(_ entry: Entry?) -> DecimalNumber? {
        guard let entry else { return nil }
        guard document.kind(of: entry.index) == .number else {
            report(
                .invalidAttribute, "expected a number, found \(document.kind(of: entry.index))", entry.index,
                entry.pointer)
            return nil
        }
        return DecimalNumber(lexeme: document.numberLexeme(at: entry.index))
    }

    mutating func integer(_ entry: Entry) -> Int? {
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
    mutating func counts<Kind: BoundKind>(_ members: [String: Entry]) -> Bounds<Kind> where Kind.Value == Int {
        Bounds(lower: count(members[Kind.keywords.lower]), upper: count(members[Kind.keywords.upper]))
    }

    mutating func stringList(_ entry: Entry?, pointer: String) -> [String]? {
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

    func location(_ index: JSONDocument.Index, _ pointer: String) -> SchemaLocation {
        SchemaLocation(file: file, pointer: pointer, position: document.position(of: index, lines: lines))
    }

    mutating func report(
        _ code: SchemaProblem.Code, _ message: String, _ index: JSONDocument.Index, _ pointer: String,
        cause: (any Error)? = nil
    ) {
        problems.append(SchemaProblem(code: code, message: message, location: location(index, pointer), cause: cause))
    }
}
