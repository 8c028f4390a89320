/// The `enum` rule (`PDMetaData` options): the values a field accepts.
///
/// Everything the rule means is here, and every consumer asks it: whether a request value is an option
/// (validation), what a value still being typed is (DCEForms' `checkInput(_:at:given:)`), the choices a form offers
/// and the words its message lists (both ``labels``), and its JSON Schema keyword (export).
package struct Options: Sendable {
    /// The values accepted, in the schema's order.
    let values: [SchemaValue]

    /// Whether a request value is one of the options (strings compared as text, numbers exactly).
    func accepts(_ document: JSONDocument, at node: JSONDocument.Index) -> Bool {
        values.contains { $0.matches(document, at: node) }
    }

    /// Whether a whole number typed into a field is one of the options.
    func accepts(_ number: DecimalNumber) -> Bool { values.contains(.number(number)) }

    /// What typed text is: valid when it is a string option, incomplete while it begins one, invalid when no
    /// continuation can become one.
    func judge(partial text: String) -> InputVerdict {
        let strings = values.compactMap { value -> String? in
            if case .string(let option) = value { return option } else { return nil }
        }
        return strings.contains(text) ? .valid : strings.contains { $0.hasPrefix(text) } ? .incomplete : .invalid(.enum)
    }

    /// The options as a person reads them: a string as it is, any other value as JSON.
    package var labels: [String] {
        values.map { value in
            if case .string(let text) = value { return text }
            return value.json
        }
    }

    /// The JSON Schema keyword: `enum` with the options, and `null` too when the field accepts it.
    package func jsonSchema(allowingNull: Bool) -> (key: String, value: SchemaValue) {
        ("enum", .array(values + (allowingNull ? [.null] : [])))
    }
}

extension Rules {
    /// The `enum` rule, when the rules have one.
    package var options: Options? { enumValues.map(Options.init(values:)) }
}
