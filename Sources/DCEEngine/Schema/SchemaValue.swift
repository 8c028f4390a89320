/// A JSON value written in a schema: an `enum` member, a `defaultValue`, a value a condition compares with.
public indirect enum SchemaValue: Hashable, Sendable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// A number, kept exact.
    case number(DecimalNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([SchemaValue])
    /// An object, members in the order written.
    case object([Member])

    /// One member of an object value.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: SchemaValue

        /// Creates a member.
        ///
        /// - Parameters:
        ///   - key: The name.
        ///   - value: The value.
        public init(key: String, value: SchemaValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value as compact JSON.
    public var description: String { json }

    /// The value as compact JSON text.
    package var json: String {
        switch self {
        case .null: "null"
        case .boolean(let value): value ? "true" : "false"
        case .number(let value): value.lexeme
        case .string(let value): Self.quote(value)
        case .array(let values): "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { Self.quote($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// The value as JSON text indented by two spaces a level.
    package func prettyJSON(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .array(let values) where !values.isEmpty:
            if values.allSatisfy({ if case .string = $0 { return true } else { return false } }) && values.count > 8 {
                return json  // long code lists stay on one line
            }
            return "[\n" + values.map { inner + $0.prettyJSON(indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n"
                + members.map { inner + Self.quote($0.key) + ": " + $0.value.prettyJSON(indent: inner) }.joined(
                    separator: ",\n")
                + "\n" + indent + "}"
        default: return json
        }
    }

    /// The value's JSON kind.
    var kind: JSONDocument.Kind {
        switch self {
        case .null: .null
        case .boolean: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// A JSON string literal for `text`.
    package static func quote(_ text: String) -> String {
        var builder = ByteBuilder(capacity: text.utf8.count + 2)
        builder.appendJSONString(text)
        return builder.string
    }

    /// The value of a node of a read document.
    ///
    /// - Parameters:
    ///   - document: The document.
    ///   - index: The node (``JSONDocument/root`` for the whole document).
    public init(document: JSONDocument, at index: JSONDocument.Index) {
        switch document.kind(of: index) {
        case .null: self = .null
        case .boolean: self = .boolean(document.boolean(at: index))
        case .number: self = .number(DecimalNumber(lexeme: document.numberLexeme(at: index)))
        case .string: self = .string(document.string(at: index))
        case .array: self = .array(document.elements(of: index).map { SchemaValue(document: document, at: $0) })
        case .object:
            self = .object(
                document.members(of: index).map {
                    Member(key: document.string(at: $0.key), value: SchemaValue(document: document, at: $0.value))
                })
        }
    }

    /// Whether a payload value equals this value (numbers by value, strings by code points, containers deeply).
    func matches(_ document: JSONDocument, at index: JSONDocument.Index) -> Bool {
        switch (self, document.kind(of: index)) {
        case (.null, .null): return true
        case (.boolean(let value), .boolean): return document.boolean(at: index) == value
        case (.number(let value), .number): return DecimalNumber(lexeme: document.numberLexeme(at: index)) == value
        case (.string(let value), .string): return document.string(at: index, equals: value)
        case (.array(let values), .array):
            guard values.count == document.count(of: index) else { return false }
            return zip(values, document.elements(of: index)).allSatisfy { $0.matches(document, at: $1) }
        case (.object(let members), .object):
            let payload = Array(document.members(of: index))
            guard members.count == payload.count else { return false }
            return members.allSatisfy { member in
                payload.contains {
                    document.string(at: $0.key, equals: member.key) && member.value.matches(document, at: $0.value)
                }
            }
        default: return false
        }
    }
}

extension SchemaValue {
    /// This value with a JSON Merge Patch applied (RFC 7396, as seed 003 describes an update): in an object patch
    /// an absent member keeps the stored value, `null` removes it and any other value replaces it, objects merging
    /// member by member; any other patch (an array, a string, …) replaces the value whole. Members keep their stored
    /// order; added members follow in the patch's order.
    ///
    /// - Parameter patch: The update.
    /// - Returns: The record after the update.
    func merged(with patch: SchemaValue) -> SchemaValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [Member]
        if case .object(let stored) = self { members = stored } else { members = [] }
        for change in changes {
            let existing = members.firstIndex { $0.key == change.key }
            switch (change.value, existing) {
            case (.null, let position?):
                members.remove(at: position)
            case (.null, nil):
                continue
            case (let value, let position?):
                members[position].value = members[position].value.merged(with: value)
            case (let value, nil):
                members.append(Member(key: change.key, value: SchemaValue.null.merged(with: value)))
            }
        }
        return .object(members)
    }
}

extension SchemaValue {
    /// This value without what is at the tokens (a member, or a list's item, the items after it moving up); the
    /// same value when nothing is there.
    package func removing(_ tokens: ArraySlice<String>) -> SchemaValue {
        guard let token = tokens.first else { return self }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var members):
            guard let position = members.lastIndex(where: { $0.key == token }) else { return self }
            if rest.isEmpty {
                members.remove(at: position)
            } else {
                members[position].value = members[position].value.removing(rest)
            }
            return .object(members)
        case .array(var items):
            guard let offset = Int(token), offset >= 0, offset < items.count else { return self }
            if rest.isEmpty { items.remove(at: offset) } else { items[offset] = items[offset].removing(rest) }
            return .array(items)
        default:
            return self
        }
    }
}
