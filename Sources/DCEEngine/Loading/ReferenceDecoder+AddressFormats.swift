internal import DCEPattern

/// The address data (`addresses.json`): the default format, and each country's parts, postal codes and subdivisions.
extension ReferenceDecoder {
    /// The address data: the default format and every country (read whole, or a country at a time as asked for).
    mutating func addressFormats(_ top: Node, source: String, published: String) -> AddressFormats? {
        let before = problems.count
        guard let defaultEntry = member("default", of: top) else {
            report(.missingAttribute, "missing 'default'", document.root)
            return nil
        }
        let fallback = addressFormat(defaultEntry, hasCode: false)
        guard let list = nonEmptyArray("countries", of: top) else { return nil }
        if countriesAsAskedFor {
            guard problems.count == before, let fallback else { return nil }
            return countriesAsAskedFor(list, source: source, published: published, defaultFormat: fallback)
        }
        var countries: [AddressFormats.Country] = []
        var seen: Set<String> = []
        for element in document.elements(of: list) {
            guard let country = addressFormat(element, hasCode: true) else { continue }
            if !seen.insert(country.code).inserted {
                report(.duplicate, "country '\(country.code)' is listed twice", element)
            }
            countries.append(country)
        }
        guard problems.count == before, let fallback else { return nil }
        return AddressFormats(source: source, published: published, countries: countries, defaultFormat: fallback)
    }

    /// The address data with each country read the first time it is asked for: only the codes are read now.
    private func countriesAsAskedFor(
        _ list: Node, source: String, published: String, defaultFormat: AddressFormats.Country
    ) -> AddressFormats {
        let document = document
        let entries = document.elements(of: list).compactMap { element -> (code: String, node: Node)? in
            guard document.kind(of: element) == .object, let code = document.member("code", of: element),
                document.kind(of: code) == .string
            else { return nil }
            let text = document.string(at: code)
            guard Self.isCode(text, width: 2) else { return nil }
            return (text, element)
        }.sorted { $0.code < $1.code }
        let file = file
        let nodes = entries.map(\.node)
        return AddressFormats(
            source: source, published: published, codes: entries.map(\.code), defaultFormat: defaultFormat
        ) { index in
            var decoder = ReferenceDecoder(
                file: file, document: document, compilingPatterns: false, countriesAsAskedFor: false)
            guard let country = decoder.addressFormat(nodes[index], hasCode: true), decoder.problems.isEmpty else {
                preconditionFailure("the package's address data is broken: \(decoder.problems.map(\.description))")
            }
            return country
        }
    }

    /// A country's format (`hasCode`: the entry has a `code`) or the default one.
    private mutating func addressFormat(_ at: Node, hasCode: Bool) -> AddressFormats.Country? {
        let common = ["parts", "required", "postalCodeName", "subdivisionName"]
        let own = ["code", "postalCodeInCapitals", "postalCode", "examples", "subdivisions"]
        guard let members = object(at, allowed: hasCode ? common + own : common, what: "an address format") else {
            return nil
        }
        var code = "ZZ"
        if hasCode {
            guard let text = string(member("code", of: members), required: "code", in: at) else { return nil }
            if !Self.isCode(text, width: 2) {
                report(.invalidAttribute, "'\(text)' is not 2 capital letters A-Z", member("code", of: members)!)
                return nil
            }
            code = text
        }
        let parts = addressParts(member("parts", of: members), required: "parts", in: at) ?? []
        let required = addressParts(member("required", of: members), required: "required", in: at) ?? []
        for part in required where !parts.contains(part) {
            report(
                .invalidAttribute, "'\(part.rawValue)' is required but not one of the country's parts",
                member("required", of: members)!)
        }
        let postalCodeName =
            string(member("postalCodeName", of: members), required: "postalCodeName", in: at) ?? "postal"
        let subdivisionName =
            string(member("subdivisionName", of: members), required: "subdivisionName", in: at) ?? "province"
        var capitals = false
        if let entry = member("postalCodeInCapitals", of: members) {
            if document.kind(of: entry) == .boolean {
                capitals = document.boolean(at: entry)
            } else {
                report(.invalidAttribute, "expected true or false", entry)
            }
        }
        let patternEntry = member("postalCode", of: members)
        let pattern = string(patternEntry, required: nil, in: at)
        if let patternEntry, pattern?.isEmpty == true {
            report(.invalidAttribute, "a postal-code pattern is not empty", patternEntry)
        }
        if let patternEntry, pattern != nil, !parts.contains(.postalCode) {
            report(
                .invalidAttribute, "a country without the part 'postalCode' has no postal-code pattern", patternEntry)
        }
        let examples = member("examples", of: members).flatMap { stringList($0) } ?? []
        if pattern != nil && examples.isEmpty {
            report(.missingAttribute, "a postal-code pattern needs 'examples' (messages show one)", at)
        }
        var subdivisions: [AddressFormats.Subdivision] = []
        if let entry = member("subdivisions", of: members) {
            if document.kind(of: entry) != .array {
                report(.invalidAttribute, "expected an array of subdivisions", entry)
            } else {
                for element in document.elements(of: entry) {
                    guard
                        let parts = object(
                            element, allowed: ["key", "names", "iso", "postalCodePrefix", "examples"],
                            what: "a subdivision"),
                        let key = string(member("key", of: parts), required: "key", in: element)
                    else { continue }
                    if key.isEmpty {
                        report(.invalidAttribute, "a subdivision's key is not empty", member("key", of: parts)!)
                    }
                    _ = string(member("iso", of: parts), required: nil, in: element)
                    let prefixEntry = member("postalCodePrefix", of: parts)
                    let subdivision = AddressFormats.Subdivision(
                        key: key, names: member("names", of: parts).flatMap { stringList($0) } ?? [],
                        postalCodePrefix: string(prefixEntry, required: nil, in: element),
                        examples: member("examples", of: parts).flatMap { stringList($0) } ?? [], capitals: capitals)
                    if let prefixEntry { compile(subdivision.prefix, of: code, at: prefixEntry) }
                    subdivisions.append(subdivision)
                }
            }
        }
        let country = AddressFormats.Country(
            code: code, parts: parts, required: required, postalCodeName: postalCodeName,
            subdivisionName: subdivisionName,
            postalCodePattern: pattern, postalCodeInCapitals: capitals, examples: examples, subdivisions: subdivisions)
        if let patternEntry { compile(country.postalCode, of: code, at: patternEntry) }
        return country
    }

    /// With `compilingPatterns`, compiles a pattern of the data as evaluation will, reporting one PCRE2 refuses.
    private mutating func compile(_ pattern: LazyPattern?, of country: String, at node: Node) {
        guard compilingPatterns, let pattern, case .failure(let error) = pattern.compiled() else { return }
        report(.invalidRegex, "PCRE2 cannot compile the pattern of \(country): \(error.reason)", node)
    }

    private mutating func addressParts(_ list: Node?, required: String, in parent: Node) -> [AddressFormats.Part]? {
        guard let list else {
            report(.missingAttribute, "missing '\(required)'", parent)
            return nil
        }
        guard let names = stringList(list) else { return nil }
        var parts: [AddressFormats.Part] = []
        for (element, name) in zip(document.elements(of: list), names) {
            guard let part = AddressFormats.Part(rawValue: name) else {
                let known = AddressFormats.Part.allCases.map(\.rawValue)
                report(
                    .invalidAttribute, "unknown address part '\(name)'\(Suggestion.hint(for: name, in: known))", element
                )
                continue
            }
            if parts.contains(part) { report(.duplicate, "'\(name)' is listed twice", element) }
            parts.append(part)
        }
        return parts
    }
}
