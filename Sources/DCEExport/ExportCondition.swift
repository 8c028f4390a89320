import DCEEngine
internal import DCEPattern

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
