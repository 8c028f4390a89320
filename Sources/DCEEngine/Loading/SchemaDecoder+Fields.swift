extension SchemaDecoder {
    // MARK: - Fields

    mutating func fieldList(_ entry: Entry?, pointer: String, required: Bool) -> [FieldDefinition]? {
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

    mutating func field(at index: JSONDocument.Index, pointer: String, keyed: Bool) -> FieldDefinition? {
        guard
            let members = object(
                at: index, pointer: pointer, allowed: withRuleKinds(Self.fieldAttributes), what: "a field definition")
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
            objectRules: objectRules(members),
            existsIn: members["existsIn"].flatMap { documentReference($0) },
            codeNames: codeNames(members, options: rules.enumValues))
    }

    /// `swiftName` and `swiftCaseNames`: what generated code calls the field's type and its options.
    private mutating func codeNames(_ members: [String: Entry], options: [SchemaValue]?) -> CodeNames {
        var names = CodeNames(swiftName: swiftName(members["swiftName"]))
        guard let entry = members["swiftCaseNames"],
            let cases = object(at: entry.index, pointer: entry.pointer, allowed: nil, what: "'swiftCaseNames'")
        else { return names }
        let optionTexts = (options ?? []).compactMap { value -> String? in
            if case .string(let text) = value { return text } else { return nil }
        }
        var named: [String: String] = [:]
        for (option, caseEntry) in cases.sorted(by: { $0.value.index < $1.value.index }) {
            guard optionTexts.contains(option) else {
                report(
                    .invalidAttribute,
                    "'swiftCaseNames' names '\(option)', which is not one of the field's 'enum' strings",
                    caseEntry.index, caseEntry.pointer)
                continue
            }
            guard let name = string(caseEntry, pointer: caseEntry.pointer) else { continue }
            guard CodeNames.isCaseName(name) else {
                report(
                    .invalidAttribute,
                    "'\(name)' is not a Swift case name: a lowercase letter, then letters and digits", caseEntry.index,
                    caseEntry.pointer)
                continue
            }
            named[option] = name
        }
        names.swiftCaseNames = named
        return names
    }

    /// `swiftName`: an UpperCamelCase Swift type name.
    mutating func swiftName(_ entry: Entry?) -> String? {
        guard let entry, let name = string(entry, pointer: entry.pointer) else { return nil }
        guard CodeNames.isTypeName(name) else {
            report(
                .invalidAttribute, "'\(name)' is not a Swift type name: a capital letter, then letters and digits",
                entry.index, entry.pointer)
            return nil
        }
        return name
    }

    private mutating func overridable(_ members: [String: Entry], pointer: String) -> Rules {
        var rules = Rules()
        rules.name = text(members["name"], pointer: pointer + "/name")
        rules.placeholder = text(members["placeholder"], pointer: pointer + "/placeholder")
        rules.help = text(members["help"], pointer: pointer + "/help")
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
                members["reverificationRequired"], pointer: members["reverificationRequired"]?.pointer ?? ""),
            autofill: autofill(members["autofill"]))
    }

    /// An `autofill` token, one of ``FieldMetadata/autofillTokens``; another is reported with the nearest one.
    private mutating func autofill(_ entry: Entry?) -> String? {
        guard let entry, let token = string(entry, pointer: entry.pointer) else { return nil }
        guard FieldMetadata.autofillTokens.contains(token) else {
            report(
                .invalidAttribute,
                "unknown autofill token '\(token)'\(Suggestion.hint(for: token, in: FieldMetadata.autofillTokens))",
                entry.index, entry.pointer)
            return nil
        }
        return token
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
}
