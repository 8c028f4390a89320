internal import DCEPattern

/// `postalAddress`: an object is an address that follows the format of the country it names
/// (`Schemas/reference/addresses.json`): the parts the country requires, its postal-code pattern, its subdivisions,
/// and the postal-code prefix of the subdivision named.
///
/// ```json
/// "postalAddress": {"country": "countryCode", "state": "state", "postalCode": "postalCode"}
/// ```
struct PostalAddressRule: ObjectRuleKind {
    /// The member naming the country (ISO 3166-1 alpha-2), by its place among the object's fields.
    let country: Int
    /// The member holding each part, in the order of ``AddressFormats/Part/allCases``; -1 for a part not named.
    let members: [Int]

    /// The member naming the country and the member holding each part the schema names, by key.
    struct Definition: Sendable {
        var country: String
        var parts: [(part: AddressFormats.Part, key: String)]
    }

    static let attribute = "postalAddress"

    // MARK: - Reading and compiling

    static func decode(_ entry: AttributeEntry, with reader: inout some AttributeReader) -> Definition? {
        let names = AddressFormats.Part.allCases.map(\.rawValue)
        guard
            let members = reader.members(of: entry, allowed: ["country"] + names, what: "an object of address members")
        else { return nil }
        guard
            let country = reader.string(
                members.first { $0.key == "country" }?.entry, named: "country", required: true, in: entry)
        else { return nil }
        var parts: [(part: AddressFormats.Part, key: String)] = []
        for (name, member) in members where name != "country" {
            if let part = AddressFormats.Part(rawValue: name),
                let key = reader.string(member, named: name, required: false, in: entry)
            {
                parts.append((part, key))
            }
        }
        return Definition(country: country, parts: parts)
    }

    /// Each member named is a `String` member of the object, and none is named twice.
    static func compile(
        _ definition: Definition, members: [ObjectRuleMember], object: String,
        report: (ObjectRuleProblem, String) -> Void
    ) -> Self? {
        func member(_ key: String, as role: String) -> Int? {
            guard let offset = members.firstIndex(where: { $0.key == key }) else {
                report(
                    .unknownMember,
                    "'postalAddress' names '\(key)' as the \(role), which is not a field of \(object)"
                        + Suggestion.hint(for: key, in: members.compactMap(\.key)))
                return nil
            }
            let type = members[offset].dataType
            if type != .string {
                report(
                    .invalid, "'postalAddress' names '\(key)' as the \(role), but it is \(type.rawValue), not String")
            }
            return offset
        }
        let country = member(definition.country, as: "country")
        var places = [Int](repeating: -1, count: AddressFormats.Part.allCases.count)
        for (part, key) in definition.parts {
            guard let offset = member(key, as: part.rawValue) else { continue }
            if offset == country || places.contains(offset) {
                report(.duplicate, "'postalAddress' names '\(key)' for two parts")
            }
            places[part.index] = offset
        }
        return country.map { Self(country: $0, members: places) }
    }

    /// The member holding a part, or -1.
    func member(_ part: AddressFormats.Part) -> Int { members[part.index] }

    /// The part the member at `place` holds; `nil` for a member that is no part of the address.
    func part(at place: Int) -> AddressFormats.Part? { AddressFormats.Part.allCases.first { member($0) == place } }

    // MARK: - Validation

    /// What the country asks of the address: the parts it requires, its postal-code pattern, its subdivisions, and
    /// the postal-code prefix of the subdivision named. Nothing when the country is missing, broke its own rules, or
    /// is one the data does not know.
    func evaluate(
        _ object: ObjectRuleMembers, reference: ReferenceData, into findings: inout [ObjectRuleFinding]
    ) {
        let formats = reference.addresses
        guard object.value(country) == .string, object.isClean(country),
            let countryIndex = object.withStringBytes(country, { formats.index(of: $0) })
        else { return }
        let country = formats.country(at: countryIndex)
        let detail = Self.detail(country: countryIndex, subdivision: -1)
        // Which subdivision the state names, when the country has them: its postal-code prefix applies even where the
        // country's addresses do not show the state (Andorra's parishes), as in the data's own validator.
        var subdivision: Int?
        let stateMember = member(.state)
        if stateMember >= 0, !country.subdivisions.isEmpty, object.value(stateMember) == .string {
            subdivision = object.withStringBytes(stateMember) { country.subdivision(named: $0) }
            if subdivision == nil && country.uses(.state) && object.isClean(stateMember) {
                findings.append(ObjectRuleFinding(rule: .enum, member: stateMember, detail: detail))
            }
        }
        for part in AddressFormats.Part.allCases {
            let member = member(part)
            guard member >= 0, country.uses(part), object.isClean(member) else { continue }
            let value = object.value(member)
            if value.isEmpty {
                if country.requires(part) {
                    findings.append(ObjectRuleFinding(rule: .required, member: member, detail: detail))
                }
                continue
            }
            guard part == .postalCode, value == .string else { continue }
            let scratch = object.scratch
            let subdivisionPrefix = subdivision.flatMap { country.subdivisions[$0].prefix }
            let verdict: (whole: Bool?, prefix: Bool?) = object.withStringBytes(member) { bytes in
                (
                    country.postalCode?.matches(bytes, scratch: scratch),
                    subdivisionPrefix?.matches(bytes, scratch: scratch)
                )
            }
            if verdict.whole == false {
                findings.append(ObjectRuleFinding(rule: .format, member: member, detail: detail))
            } else if verdict.prefix == false, let subdivision {
                findings.append(
                    ObjectRuleFinding(
                        rule: .format, member: member,
                        detail: Self.detail(country: countryIndex, subdivision: subdivision)))
            }
        }
    }

    /// A finding's detail: the country's place in the address data, and the subdivision whose postal-code prefix
    /// failed (-1: none).
    private static func detail(country: Int, subdivision: Int) -> Int { country << 12 | (subdivision + 1) }

    /// What the country asks of a part, naming the country (by its ISO 3166-1 name) and giving an example from the
    /// data: "Postal code must look like 1000 for Bulgaria".
    func message(for finding: ObjectRuleFinding, writer: some RuleMessageWriter, reference: ReferenceData) -> String {
        let country = reference.addresses.country(at: finding.detail >> 12)
        let subdivision = (finding.detail & 0xFFF) - 1
        let name = writer.name
        let countryName = reference.countries.name(of: country.code, in: writer.language)
        switch finding.rule {
        case .required:
            return writer.text(.required, variant: "country", .init(name: name, detail: countryName))
        case .enum:
            let first = country.subdivisions[0]
            let example = first.names.first.map { "\(first.key) (\($0))" } ?? first.key
            let kind = writer.term("subdivision.\(country.subdivisionName)")
            return writer.text(
                .enum, variant: "subdivision", .init(name: name, expected: example, found: kind, detail: countryName))
        default:
            guard subdivision >= 0 else {
                return writer.text(
                    .format, variant: "postalCode",
                    .init(name: name, expected: country.examples.first ?? "", detail: countryName))
            }
            let region = country.subdivisions[subdivision]
            let place = "\(region.names.first ?? region.key), \(countryName)"
            if let example = region.examples.first {
                return writer.text(.format, variant: "postalCode", .init(name: name, expected: example, detail: place))
            }
            return writer.text(
                .format, variant: "postalCodePrefix",
                .init(name: name, pattern: region.postalCodePrefix ?? "", detail: place))
        }
    }

    // MARK: - Typing and forms

    /// The country given (and one the data knows) and the subdivision its given state names.
    private func given(_ given: (Int) -> String?, formats: AddressFormats)
        -> (country: AddressFormats.Country, subdivision: Int?)?
    {
        guard let code = given(country), let found = formats.country(code) else { return nil }
        let stateMember = member(.state)
        let state = stateMember >= 0 ? given(stateMember) : nil
        return (found, state.flatMap { found.subdivision(named: $0) })
    }

    /// A postal code against the given country's pattern and the given state's prefix, a state against the country's
    /// subdivisions; nothing before the country is given.
    func judge(partial text: String, at place: Int, given values: (Int) -> String?, reference: ReferenceData)
        -> InputVerdict?
    {
        guard let part = part(at: place), let found = given(values, formats: reference.addresses),
            found.country.uses(part)
        else { return nil }
        let country = found.country
        switch part {
        case .postalCode:
            guard let whole = country.postalCode?.judge(partial: text) else { return nil }
            guard let subdivision = found.subdivision,
                let prefix = country.subdivisions[subdivision].prefix?.judge(partial: text)
            else { return whole }
            // A complete postal code that only begins the state's prefix does not start with it.
            return whole.and(prefix == .incomplete && whole == .valid ? InputVerdict.invalid(.format) : prefix)
        case .state where !country.subdivisions.isEmpty:
            if country.subdivision(named: text) != nil { return .valid }
            return country.mayName(startingWith: text) ? .incomplete : .invalid(.enum)
        default:
            return nil
        }
    }

    /// What part a member is and, once the country is given and known, what the country says of it: used, required,
    /// its name, example postal codes, the subdivisions.
    func describe(
        _ place: Int, keys: [String?], at tokens: [String], given values: (Int) -> String?, reference: ReferenceData
    ) -> MemberPart? {
        guard let part = part(at: place), let countryKey = keys[country] else { return nil }
        var entry = MemberPart(
            part: part.rawValue, countryPath: (tokens + [countryKey]).reduce("") { JSONPointer.appending($1, to: $0) })
        guard let found = given(values, formats: reference.addresses) else { return entry }
        let country = found.country
        entry.country = country.code
        entry.used = country.uses(part)
        entry.required = country.requires(part)
        switch part {
        case .postalCode:
            entry.name = country.postalCodeName
            let stateExamples = found.subdivision.map { country.subdivisions[$0].examples } ?? []
            entry.examples = stateExamples.isEmpty ? country.examples : stateExamples
        case .state:
            entry.name = country.subdivisionName
            if !country.subdivisions.isEmpty {
                entry.subdivisions = country.subdivisions.map { ($0.key, $0.names.first) }
            }
        default:
            break
        }
        return entry
    }

    // MARK: - JSON Schema

    /// One `if`/`then` per country of the address data: the parts it requires (present, a non-empty string), its
    /// postal-code pattern, its subdivisions (by key or name, any case, surrounding spaces allowed), and, one
    /// `if`/`then` per subdivision with a prefix, the postal-code prefix of the state named. An empty part is not
    /// judged by the country's patterns, as in validation. Codes compared in capitals get patterns that accept either
    /// case.
    func export(keys: [String?], reference: ReferenceData) -> [SchemaValue] {
        func key(_ member: Int) -> String? { member >= 0 ? keys[member] : nil }
        guard let countryKey = key(country) else { return [] }
        let stateKey = key(member(.state))
        let postalKey = key(member(.postalCode))
        var conditionals: [SchemaValue] = []
        for country in reference.addresses.countries {
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
                guard let member = key(member(part)) else { continue }
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
