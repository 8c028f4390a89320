import DCEEngine
import Foundation

/// Reads schema documents into the declarations their models need: a struct for each schema's root and each object
/// definition, the objects and options written in place, and the schemas their `ref`s reach.
struct ModelBuilder {
    private var loader: SchemaLoader
    private var documents: [String: SchemaDocument] = [:]
    /// The schemas still to declare, in the order they were reached.
    private var queue: [String] = []
    private var queued: Set<String> = []
    /// The top-level declarations of each schema's file.
    private(set) var files: [String: [Declaration]] = [:]
    /// Every top-level type, by name: the schema whose file declares it.
    private var topLevel: [String: String] = [:]
    private(set) var problems: [String] = []

    init(source: SchemaSource) {
        loader = SchemaLoader(source: source)
    }

    /// Declares the models of these schemas and of every schema their `ref`s reach.
    ///
    /// - Returns: Each schema's declarations, by schema id, in the order of the ids.
    mutating func build(_ ids: [String]) throws(SchemaError) -> [(id: String, declarations: [Declaration])] {
        for id in ids { enqueue(id) }
        var index = 0
        while index < queue.count {
            let document = try load(queue[index])
            declare(document)
            index += 1
        }
        for (name, file) in topLevel {
            for case .structure(let structure) in files[file] ?? [] where structure.name == name {
                checkNesting(structure, path: name)
            }
        }
        return queue.sorted().map { ($0, files[$0] ?? []) }
    }

    private mutating func enqueue(_ id: String) {
        guard queued.insert(id).inserted else { return }
        queue.append(id)
    }

    private mutating func load(_ id: String) throws(SchemaError) -> SchemaDocument {
        if let document = documents[id] { return document }
        let document = try loader.load(id)
        documents[id] = document
        return document
    }

    // MARK: Schemas and definitions

    private mutating func declare(_ document: SchemaDocument) {
        let origin = document.file
        // The root comes first in its file, before the types its fields declare beside it.
        let rootPlace = files[document.id, default: []].count
        var root: Structure
        if let items = document.root.items?.first {
            root = Structure(
                name: rootTypeName(document),
                documentation: Documentation(name: document.name, description: document.description),
                schemaID: document.id, members: [], origin: origin)
            root.elementType = swiftType(
                of: items, named: "Element", in: document, nested: &root.nested, origin: origin + "#/items")
        } else {
            root = structure(
                named: rootTypeName(document), fields: document.root.fields ?? [],
                documentation: Documentation(name: document.name, description: document.description),
                in: document, origin: origin)
            root.schemaID = document.id
        }
        declareTopLevel(.structure(root), in: document.id, at: rootPlace)
        for (key, definition) in document.definitions.sorted(by: { $0.key < $1.key }) {
            let origin = "\(document.file)#/definitions/\(key)"
            var nested: [Declaration] = []
            _ = swiftType(
                of: definition, named: key, in: document, nested: &nested, origin: origin,
                topLevelName: definition.codeNames.swiftName ?? SwiftNames.typeName(key))
        }
    }

    private func rootTypeName(_ document: SchemaDocument) -> String {
        document.root.codeNames.swiftName ?? SwiftNames.typeName(document.id)
    }

    /// Adds a top-level type to a schema's file; one with the same name already declared must be the same type
    /// (options are joined: one open enum may serve a request that accepts some of them and a response that lists
    /// all).
    private mutating func declareTopLevel(_ declaration: Declaration, in file: String, at place: Int? = nil) {
        guard let existingFile = topLevel[declaration.name] else {
            files[file, default: []].insert(declaration, at: place ?? files[file, default: []].count)
            topLevel[declaration.name] = file
            return
        }
        let index = files[existingFile]!.firstIndex { $0.name == declaration.name }!
        let existing = files[existingFile]![index]
        switch (existing, declaration) {
        case (.openEnum(var known), .openEnum(let other)):
            for option in other.cases where !known.cases.contains(where: { $0.rawValue == option.rawValue }) {
                known.cases.append(option)
            }
            files[existingFile]![index] = .openEnum(known)
        case (.structure(let known), .structure(let other)) where known.shape == other.shape && known.schemaID == nil:
            break
        default:
            problems.append(
                "\(declaration.origin): the Swift type '\(declaration.name)' is already declared for another shape at "
                    + existing.origin + "; give one of them another 'swiftName'")
        }
    }

    /// Reports a type nested in another whose name is a top-level type's: inside it, the top-level one could not
    /// be named.
    private mutating func checkNesting(_ structure: Structure, path: String) {
        var names: Set<String> = []
        for declaration in structure.nested {
            let name = declaration.name
            if topLevel[name] != nil || !names.insert(name).inserted {
                problems.append(
                    "\(declaration.origin): the nested type '\(path).\(name)' has the name of another type; give its "
                        + "field a 'swiftName'")
            }
            if case .structure(let inner) = declaration { checkNesting(inner, path: path + "." + name) }
        }
    }

    // MARK: Fields

    private mutating func structure(
        named name: String, fields: [FieldDefinition], documentation: Documentation, in document: SchemaDocument,
        origin: String
    ) -> Structure {
        var result = Structure(
            name: name, documentation: documentation, members: [], numericBooleans: document.numericBooleans,
            origin: origin)
        var names: Set<String> = []
        for (offset, field) in fields.enumerated() {
            guard let key = field.key else { continue }
            let fieldOrigin = "\(origin)/fields/\(offset)"
            let type = swiftType(of: field, named: key, in: document, nested: &result.nested, origin: fieldOrigin)
            var memberName = SwiftNames.isIdentifier(key) ? SwiftNames.escaped(key) : SwiftNames.memberName(key)
            var suffix = 2
            while !names.insert(SwiftNames.bare(memberName)).inserted {
                memberName = SwiftNames.memberName(key) + String(suffix)
                suffix += 1
            }
            let presence: Member.Presence =
                Self.isAlwaysRequired(field)
                ? .required : document.mergePatch && Self.mayBeNull(field) ? .patch : .optional
            let single = type == "String" ? Self.singleOption(field) : nil
            result.members.append(
                Member(
                    key: key, name: memberName, type: type,
                    presence: single != nil && presence == .optional && Self.isRequiredInBase(field)
                        ? .required : presence,
                    documentation: Documentation(name: field.rules.name?.english, description: field.rules.description),
                    defaultValue: single.map(Self.literal),
                    numericBoolean: document.numericBooleans && type == "Bool",
                    masked: type == "SensitiveString" && Self.flag(field, \.maskingRequired)))
        }
        return result
    }

    /// The Swift type of a field's value, declaring the struct or enum it needs: at the top level under its
    /// `swiftName` (or `topLevelName`, for a definition), else nested under its key.
    private mutating func swiftType(
        of field: FieldDefinition, named key: String, in document: SchemaDocument, nested: inout [Declaration],
        origin: String, topLevelName: String? = nil
    ) -> String {
        if let ref = field.ref { return referencedType(ref, from: document, origin: origin) }
        let dataType = field.rules.dataType ?? (field.fields != nil ? .object : field.items != nil ? .array : .string)
        let documentation = Documentation(name: field.rules.name?.english, description: field.rules.description)
        let shared = topLevelName ?? field.codeNames.swiftName
        let name = shared ?? SwiftNames.typeName(key)
        switch dataType {
        case .string, .date, .dateTime:
            if Self.isSensitive(field) { return "SensitiveString" }
            let options = Self.stringOptions(field)
            // A single option with no type asked for is a constant, not a choice: the member is a `String`.
            guard options.count > 1 || (options.count == 1 && shared != nil) else { return "String" }
            let enumeration = OpenEnumeration(
                name: name, documentation: documentation,
                cases: options.filter { SwiftNames.memberName($0) != "unknown" }.map { option in
                    (field.codeNames.swiftCaseNames[option] ?? SwiftNames.memberName(option), option)
                }, origin: origin)
            if shared != nil {
                declareTopLevel(.openEnum(enumeration), in: document.id)
            } else {
                nested.append(.openEnum(enumeration))
            }
            return name
        case .integer: return "Int"
        case .number: return "Double"
        case .boolean: return "Bool"
        case .object:
            if (field.fields ?? []).isEmpty, field.additionalFields == true { return "JSONValue" }
            let structure = structure(
                named: name, fields: field.fields ?? [], documentation: documentation, in: document, origin: origin)
            if shared != nil {
                declareTopLevel(.structure(structure), in: document.id)
            } else {
                nested.append(.structure(structure))
            }
            return name
        case .array:
            guard let items = field.items?.first else { return "[JSONValue]" }
            let element = swiftType(
                of: items, named: SwiftNames.typeName(key) + "Item", in: document, nested: &nested,
                origin: origin + "/items")
            return "[\(element)]"
        }
    }

    /// The type a `ref` names: a schema's root type, or a definition's (its schema is declared too).
    private mutating func referencedType(_ ref: String, from document: SchemaDocument, origin: String) -> String {
        let parts = ref.components(separatedBy: "#/definitions/")
        let schemaID = parts[0].isEmpty ? document.id : parts[0]
        let target: SchemaDocument
        do {
            target = try load(schemaID)
        } catch {
            problems.append(contentsOf: error.problems.map(\.description))
            return "JSONValue"
        }
        enqueue(schemaID)
        guard parts.count == 2 else { return rootTypeName(target) }
        guard let definition = target.definitions[parts[1]] else {
            problems.append("\(origin): '\(ref)' names no definition")
            return "JSONValue"
        }
        var unused: [Declaration] = []
        let name = definition.codeNames.swiftName ?? SwiftNames.typeName(parts[1])
        // The definition's own type is declared with its schema; only its name is wanted here.
        var scratch = self
        return scratch.swiftType(
            of: definition, named: parts[1], in: target, nested: &unused, origin: origin, topLevelName: name)
    }

    // MARK: What a field's attributes decide

    /// Whether the field must be sent under every context and tender type.
    static func isAlwaysRequired(_ field: FieldDefinition) -> Bool {
        guard field.rules.presence.mustBePresent else { return false }
        return !(field.tenderTypes + field.overrides).contains {
            $0.rules.presence.required == false || $0.rules.presence.forbidden == true
        }
    }

    private static func isRequiredInBase(_ field: FieldDefinition) -> Bool { field.rules.presence.mustBePresent }

    /// Whether `null` is accepted under some override or tender type.
    static func mayBeNull(_ field: FieldDefinition) -> Bool {
        field.rules.presence.nullable == true
            || (field.tenderTypes + field.overrides).contains { $0.rules.presence.nullable == true }
    }

    /// Whether the masking policy keeps the value out of every output: one of the sensitivity flags, under any
    /// tender type.
    static func isSensitive(_ field: FieldDefinition) -> Bool {
        flag(field, \.pciEncryptionRequired) || flag(field, \.storageRestricted) || flag(field, \.maskingRequired)
    }

    static func flag(_ field: FieldDefinition, _ attribute: KeyPath<FieldMetadata, Bool?>) -> Bool {
        field.metadata[keyPath: attribute] == true
            || field.tenderTypes.contains { $0.metadata[keyPath: attribute] == true }
    }

    /// The string options of the field and of its overrides, in the order written.
    static func stringOptions(_ field: FieldDefinition) -> [String] {
        var options: [String] = []
        for values in [field.rules.enumValues] + (field.tenderTypes + field.overrides).map(\.rules.enumValues) {
            for case .string(let option) in values ?? [] where !options.contains(option) { options.append(option) }
        }
        return options
    }

    /// The one option of a field that has a single one, which its initializer gives by default.
    static func singleOption(_ field: FieldDefinition) -> String? {
        let options = stringOptions(field)
        return options.count == 1 ? options[0] : nil
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension Declaration {
    var origin: String {
        switch self {
        case .structure(let structure): structure.origin
        case .openEnum(let enumeration): enumeration.origin
        }
    }
}
