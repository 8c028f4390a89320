extension JSONSchemaExporter {
    // MARK: - Addresses

    /// What an address object's country asks of its parts (`postalAddress`), one `if`/`then` per country of the
    /// address data: the parts it requires (present, a non-empty string), its postal-code pattern, its subdivisions
    /// (by key or name, any case, surrounding spaces allowed), and, one `if`/`then` per subdivision with a prefix,
    /// the postal-code prefix of the state named. An empty part is not judged by the country's patterns, as in
    /// dce-validate. Codes compared in capitals get patterns that accept either case.
    func addressConditionals(_ address: CompiledAddress, of field: CompiledField) -> [SchemaValue] {
        func key(_ member: Int) -> String? { member >= 0 ? field.fields[member].key : nil }
        guard let countryKey = key(address.country) else { return [] }
        let stateKey = key(address.member(.state))
        let postalKey = key(address.member(.postalCode))
        var conditionals: [SchemaValue] = []
        for country in schema.reference.addresses.countries {
            // The keywords for each member, in the order the members first get one.
            var keywords: [(key: String, members: [SchemaValue.Member])] = []
            func add(_ key: String, _ keyword: String, _ value: SchemaValue) {
                if let index = keywords.firstIndex(where: { $0.key == key }) {
                    keywords[index].members.append(.init(key: keyword, value: value))
                } else {
                    keywords.append((key, [.init(key: keyword, value: value)]))
                }
            }
            var required: [SchemaValue] = []
            for part in AddressFormats.Part.allCases where country.requires(part) {
                guard let member = key(address.member(part)) else { continue }
                required.append(.string(member))
                add(member, "type", .string("string"))
                add(member, "minLength", .number(DecimalNumber(lexeme: "1")))
            }
            if let postalKey, country.uses(.postalCode), let pattern = country.postalCodePattern {
                add(
                    postalKey, "pattern",
                    .string("^(?:" + Self.exported(pattern, capitals: country.postalCodeInCapitals) + ")?$"))
            }
            if let stateKey, country.uses(.state), !country.subdivisions.isEmpty {
                let names = country.subdivisions.flatMap { [$0.key] + $0.names }
                add(stateKey, "pattern", .string(Self.namePattern(names)))
            }
            let properties = keywords.map { SchemaValue.Member(key: $0.key, value: .object($0.members)) }
            var then: [SchemaValue] = []
            if !properties.isEmpty || !required.isEmpty {
                var members: [SchemaValue.Member] = [.init(key: "properties", value: .object(properties))]
                if !required.isEmpty { members.append(.init(key: "required", value: .array(required))) }
                then.append(.object(members))
            }
            if let stateKey, let postalKey, country.uses(.postalCode) {
                for region in country.subdivisions {
                    guard let prefix = region.postalCodePrefix else { continue }
                    let state = SchemaValue.object([
                        .init(key: "required", value: .array([.string(stateKey)])),
                        .init(
                            key: "properties",
                            value: .object([
                                .init(
                                    key: stateKey,
                                    value: .object([
                                        .init(key: "type", value: .string("string")),
                                        .init(
                                            key: "pattern",
                                            value: .string(
                                                Self.namePattern([region.key] + region.names, allowEmpty: false))),
                                    ]))
                            ])),
                    ])
                    let source = "^(?:" + Self.exported(prefix, capitals: country.postalCodeInCapitals) + ")|^$"
                    let postal = SchemaValue.object([
                        .init(
                            key: "properties",
                            value: .object([
                                .init(key: postalKey, value: .object([.init(key: "pattern", value: .string(source))]))
                            ]))
                    ])
                    then.append(.object([.init(key: "if", value: state), .init(key: "then", value: postal)]))
                }
            }
            guard !then.isEmpty else { continue }
            let condition = SchemaValue.object([
                .init(key: "required", value: .array([.string(countryKey)])),
                .init(
                    key: "properties",
                    value: .object([
                        .init(key: countryKey, value: .object([.init(key: "const", value: .string(country.code))]))
                    ])),
            ])
            conditionals.append(
                .object([
                    .init(key: "if", value: condition),
                    .init(
                        key: "then",
                        value: then.count == 1 ? then[0] : .object([.init(key: "allOf", value: .array(then))])),
                ]))
        }
        return conditionals
    }

    /// A pattern matching any of `names` in any case, with spaces around (and the empty string, unless not allowed).
    private static func namePattern(_ names: [String], allowEmpty: Bool = true) -> String {
        let alternatives = names.map { name in
            name.map { character -> String in
                let text = String(character)
                let lower = text.lowercased()
                let upper = text.uppercased()
                if lower != upper && lower.count == 1 && upper.count == 1 { return "[\(lower)\(upper)]" }
                return "\\^$.|?*+()[]{}/-".contains(character) ? "\\" + text : text
            }.joined()
        }
        return "^\\s*(?:" + alternatives.joined(separator: "|") + ")\\s*$" + (allowEmpty ? "|^$" : "")
    }

    /// A pattern of the address data as exported: as written, or accepting either case of every letter for a code
    /// compared in capitals (ECMA-262 patterns have no inline `(?i)`).
    static func exported(_ pattern: String, capitals: Bool) -> String {
        guard capitals else { return pattern }
        var result = ""
        var characters = Array(pattern)[...]
        func isLetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }
        while let character = characters.popFirst() {
            if character == "\\" {
                result.append(character)
                if let next = characters.popFirst() { result.append(next) }
            } else if character == "[" {
                var body = ""
                var extra = ""
                while let inner = characters.popFirst(), inner != "]" {
                    body.append(inner)
                    if inner == "\\", let next = characters.popFirst() {
                        body.append(next)
                    } else if isLetter(inner) {
                        if characters.first == "-", characters.count > 1,
                            isLetter(characters[characters.startIndex + 1])
                        {
                            characters.removeFirst()
                            let end = characters.removeFirst()
                            body.append("-")
                            body.append(end)
                            extra += Self.otherCase(inner) + "-" + Self.otherCase(end)
                        } else {
                            extra += Self.otherCase(inner)
                        }
                    }
                }
                result += "[" + body + extra + "]"
            } else if isLetter(character) {
                result += "[" + String(character) + Self.otherCase(character) + "]"
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func otherCase(_ letter: Character) -> String {
        letter.isUppercase ? letter.lowercased() : letter.uppercased()
    }
}
