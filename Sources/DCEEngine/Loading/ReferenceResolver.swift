/// Replaces every `ref` in a schema with the definition it names, across schema files, and rejects cycles.
///
/// A field that uses a definition keeps its own `key` and anything it writes itself (`name`, `required`, …);
/// the definition supplies the rest, including its nested `fields` or `items` and its overrides.
struct ReferenceResolver {
    /// The loader, with every document read so far cached.
    private(set) var loader: SchemaLoader
    private var problems: [SchemaProblem] = []
    /// The references being expanded, outermost first, to detect cycles.
    private var expanding: [String] = []
    /// Contexts declared by referenced schemas, by name.
    private var referencedContexts: [String: ContextDefinition] = [:]
    private var referencedContextOrder: [String] = []

    init(loader: SchemaLoader) {
        self.loader = loader
    }

    mutating func resolve(_ id: String) throws(SchemaError) -> ResolvedSchema {
        let document = try loader.load(id)
        let root = resolve(document.root, in: document)
        var contexts = document.contexts
        for name in referencedContextOrder where !contexts.contains(where: { $0.name == name }) {
            if var context = referencedContexts[name] {
                context.derive = []  // derive rules read the payload from its root: only the validated schema's apply
                contexts.append(context)
            }
        }
        guard problems.isEmpty, let root else { throw SchemaError(problems: problems) }
        return ResolvedSchema(
            id: document.id, version: document.version, name: document.name, description: document.description,
            file: document.file, contexts: contexts, tenderTypes: document.tenderTypes, root: root,
            trustedPatterns: document.trustedPatterns, numericBooleans: document.numericBooleans,
            responseSchema: document.responseSchema, kind: document.kind, locations: document.locations)
    }

    private mutating func resolve(_ field: FieldDefinition, in document: SchemaDocument) -> ResolvedField? {
        guard let ref = field.ref else {
            return build(
                field, shape: field, in: document, shapeDocument: document, rules: field.rules,
                metadata: field.metadata, overrides: field.tenderTypes + field.overrides)
        }
        let refLocation = field.refLocation ?? field.location
        let shapeAttributes = ["dataType", "fields", "items", "additionalFields"].filter { has($0, field) }
        for attribute in shapeAttributes + field.objectRules.map(\.attribute) {
            problems.append(
                SchemaProblem(
                    code: .invalidAttribute,
                    message: "'\(attribute)' comes from the referenced definition; remove it or the 'ref'",
                    location: field.location))
        }
        guard let (target, targetDocument, targetKey) = lookUp(ref, from: document, at: refLocation) else { return nil }
        guard !expanding.contains(targetKey) else {
            problems.append(
                SchemaProblem(
                    code: .referenceCycle,
                    message: "reference cycle: \((expanding + [targetKey]).joined(separator: " → "))",
                    location: refLocation))
            return nil
        }
        expanding.append(targetKey)
        defer { expanding.removeLast() }
        // The definition may itself be a reference: resolve it first, then lay this field's attributes on top.
        guard let base = resolve(target, in: targetDocument) else { return nil }
        return ResolvedField(
            location: field.location, key: field.key,
            rules: base.rules.overlaid(with: field.rules),
            metadata: base.metadata.overlaid(with: field.metadata),
            fields: base.fields, additionalFields: base.additionalFields, items: base.items,
            overrides: base.overrides + field.tenderTypes + field.overrides, bindings: base.bindings + field.bindings,
            objectRules: base.objectRules, existsIn: checked(field.existsIn) ?? base.existsIn)
    }

    private mutating func build(
        _ field: FieldDefinition, shape: FieldDefinition, in document: SchemaDocument, shapeDocument: SchemaDocument,
        rules: Rules, metadata: FieldMetadata, overrides: [FieldOverride]
    ) -> ResolvedField? {
        var resolvedFields: [ResolvedField]?
        if let fields = shape.fields {
            var children: [ResolvedField] = []
            for child in fields {
                if let resolved = resolve(child, in: shapeDocument) { children.append(resolved) }
            }
            resolvedFields = children
        }
        let items = shape.items?.first.flatMap { resolve($0, in: shapeDocument) }
        return ResolvedField(
            location: field.location, key: field.key, rules: rules, metadata: metadata,
            fields: resolvedFields, additionalFields: shape.additionalFields ?? false, items: items,
            overrides: overrides,
            bindings: field.bindings, objectRules: shape.objectRules, existsIn: checked(field.existsIn))
    }

    /// A document reference whose schema loads and whose pointer names a field of it, or `nil` after reporting
    /// what is wrong.
    private mutating func checked(_ reference: DocumentReference?) -> DocumentReference? {
        guard let reference else { return nil }
        let target: SchemaDocument
        do {
            target = try loader.load(reference.schema, referencedFrom: reference.location)
        } catch {
            problems.append(contentsOf: error.problems)
            return nil
        }
        var field = target.root
        var holder: FieldDefinition?
        var walked = ""
        var document = target
        for token in reference.tokens {
            // A field that uses a definition has the definition's shape (which may be in yet another schema).
            if let ref = field.ref,
                let (definition, definitionDocument, _) = lookUp(ref, from: document, at: reference.location)
            {
                (field, document) = (definition, definitionDocument)
            }
            if let token {
                walked += "/" + token
                holder = field
                guard let next = field.fields?.first(where: { $0.key == token }) else {
                    let hint = Suggestion.hint(for: token, in: (field.fields ?? []).compactMap(\.key))
                    problems.append(
                        SchemaProblem(
                            code: .unknownField,
                            message:
                                "'existsIn' points at '\(walked)', which is not a field of '\(reference.schema)'\(hint)",
                            location: reference.location))
                    return nil
                }
                field = next
            } else {
                walked += "/*"
                holder = nil
                if let next = field.items?.first {
                    field = next
                } else if field.fields != nil || field.rules.dataType == .object {
                    // '*' over an object's members, which the schema does not list: nothing more to check
                    return checkedCondition(of: reference, holder: nil)
                } else {
                    problems.append(
                        SchemaProblem(
                            code: .unknownField,
                            message:
                                "'existsIn' has '*' at '\(walked)', where '\(reference.schema)' has no list or object",
                            location: reference.location))
                    return nil
                }
            }
        }
        return checkedCondition(of: reference, holder: holder)
    }

    /// The reference when its `where` names a member of the object that holds the matched value (`holder`, `nil`
    /// when the pointer ends in `*`), or when it has none; otherwise `nil`, after reporting what is wrong.
    private mutating func checkedCondition(of reference: DocumentReference, holder: FieldDefinition?)
        -> DocumentReference?
    {
        guard let condition = reference.condition else { return reference }
        guard let holder else {
            problems.append(
                SchemaProblem(
                    code: .invalidAttribute,
                    message:
                        "'existsIn' has a 'where' but its pointer ends in '*': the matched value must be a member of an object",
                    location: reference.location))
            return nil
        }
        let members = (holder.fields ?? []).compactMap(\.key)
        guard members.contains(condition.member) else {
            problems.append(
                SchemaProblem(
                    code: .unknownField,
                    message:
                        "'existsIn' has a 'where' on '\(condition.member)', which is not a member beside the matched value in '\(reference.schema)'\(Suggestion.hint(for: condition.member, in: members))",
                    location: reference.location))
            return nil
        }
        return reference
    }

    private func has(_ attribute: String, _ field: FieldDefinition) -> Bool {
        switch attribute {
        case "dataType": field.rules.dataType != nil
        case "fields": field.fields != nil
        case "items": field.items != nil
        default: field.additionalFields != nil
        }
    }

    /// Finds the definition a `ref` names: `#/definitions/Name`, `schema-id` or `schema-id#/definitions/Name`.
    private mutating func lookUp(
        _ ref: String, from document: SchemaDocument, at location: SchemaLocation
    ) -> (FieldDefinition, SchemaDocument, String)? {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let targetID = parts[0].isEmpty ? document.id : parts[0]
        let targetDocument: SchemaDocument
        if targetID == document.id {
            targetDocument = document
        } else {
            do {
                targetDocument = try loader.load(targetID, referencedFrom: location)
            } catch {
                problems.append(contentsOf: error.problems)
                return nil
            }
            for context in targetDocument.contexts where referencedContexts[context.name] == nil {
                referencedContexts[context.name] = context
                referencedContextOrder.append(context.name)
            }
        }
        guard parts.count == 2 else {
            guard targetID != document.id else {
                problems.append(
                    SchemaProblem(
                        code: .referenceCycle, message: "a schema cannot reference its own root", location: location))
                return nil
            }
            return (targetDocument.root, targetDocument, targetID)
        }
        let prefix = "/definitions/"
        guard parts[1].hasPrefix(prefix) else {
            problems.append(
                SchemaProblem(
                    code: .unknownReference, message: "'\(ref)' must point into '#/definitions/'", location: location))
            return nil
        }
        let name = String(parts[1].dropFirst(prefix.count))
        guard let definition = targetDocument.definitions[name] else {
            problems.append(
                SchemaProblem(
                    code: .unknownReference,
                    message:
                        "no definition '\(name)' in schema '\(targetID)'\(Suggestion.hint(for: name, in: targetDocument.definitions.keys))",
                    location: location))
            return nil
        }
        return (definition, targetDocument, "\(targetID)#/definitions/\(name)")
    }
}
