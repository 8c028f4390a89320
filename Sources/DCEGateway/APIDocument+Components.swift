import DCEEngine
import DCEExport

/// The exports' documents made components: each request schema's values under its id, the definitions every export
/// shares word for word written once, the others under their schema's id, every `$ref` pointed at its new place.
struct Components {
    private(set) var schemas: [SchemaValue.Member] = []
    /// A shared definition's component name by its JSON text.
    private var shared: [String: String] = [:]

    /// A component name for a schema id or definition: letters, digits, `.`, `-` and `_` (what OpenAPI allows).
    static func name(_ text: String) -> String {
        String(
            text.map { character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "_"
            })
    }

    mutating func add(values export: SchemaValue, of id: String) {
        guard case .object(var members) = export else {
            schemas.append(.init(key: Self.name(id), value: export))
            return
        }
        var renamed: [String: String] = [:]
        if let index = members.firstIndex(where: { $0.key == "$defs" }),
            case .object(let definitions) = members[index].value
        {
            members.remove(at: index)
            // A definition that refers to no other is shared by its text: the address rules, the same in every export.
            for definition in definitions where !Self.refers(definition.value) {
                let text = definition.value.json
                if let existing = shared[text] {
                    renamed[definition.key] = existing
                } else {
                    let name = Self.name("shared." + definition.key)
                    let unique = schemas.contains { $0.key == name } ? Self.name("\(id).\(definition.key)") : name
                    shared[text] = unique
                    renamed[definition.key] = unique
                    schemas.append(.init(key: unique, value: definition.value))
                }
            }
            for definition in definitions where Self.refers(definition.value) {
                renamed[definition.key] = Self.name("\(id).\(definition.key)")
            }
            for definition in definitions where Self.refers(definition.value) {
                schemas.append(.init(key: renamed[definition.key]!, value: Self.repoint(definition.value, renamed)))
            }
        }
        // `$schema` is the document's dialect, already said once for the whole document.
        members.removeAll { $0.key == "$schema" }
        schemas.append(.init(key: Self.name(id), value: Self.repoint(.object(members), renamed)))
    }

    /// Whether a schema holds a `$ref`.
    private static func refers(_ value: SchemaValue) -> Bool {
        switch value {
        case .object(let members): members.contains { $0.key == "$ref" || refers($0.value) }
        case .array(let items): items.contains(where: refers)
        default: false
        }
    }

    /// Every `#/$defs/NAME` reference pointed at NAME's component.
    private static func repoint(_ value: SchemaValue, _ renamed: [String: String]) -> SchemaValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "$ref", case .string(let target) = member.value, target.hasPrefix("#/$defs/"),
                        let name = renamed[String(target.dropFirst("#/$defs/".count))]
                    {
                        return .init(key: "$ref", value: .string("#/components/schemas/" + name))
                    }
                    return .init(key: member.key, value: repoint(member.value, renamed))
                })
        case .array(let items): return .array(items.map { repoint($0, renamed) })
        default: return value
        }
    }
}
