/// Reads one reference data file (`Schemas/reference/*.json`), reporting every problem with the file, the JSON
/// Pointer, line and column, as the schema decoder does for schemas.
struct ReferenceDecoder {
    enum Decoded {
        case currencies(CodeList)
        case countries(CodeList)
        case cardBrands(CardBrands)
        case addresses(AddressFormats)
    }

    let file: String
    private(set) var problems: [SchemaProblem] = []
    private let document: JSONDocument
    private let lines: LineIndex

    private init(file: String, document: JSONDocument) {
        self.file = file
        self.document = document
        self.lines = document.lineIndex()
    }

    private static let common = ["$schema", "kind", "id", "title", "source", "published", "description"]

    /// Decodes a file whose name (without `.json`) is `expectedID`: the data, or every problem found.
    static func decode(_ bytes: [UInt8], file: String, expectedID: String) -> (data: Decoded?, problems: [SchemaProblem]) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            return (nil, [SchemaProblem(
                code: .json, message: "not well-formed JSON: \(error.message)", location: SchemaLocation(file: file, pointer: "", position: error.position))])
        }
        var decoder = ReferenceDecoder(file: file, document: document)
        let data = decoder.decode(expectedID: expectedID)
        return (decoder.problems.isEmpty ? data : nil, decoder.problems)
    }

    private mutating func decode(expectedID: String) -> Decoded? {
        let root = document.root
        guard let top = object(root, "", allowed: nil, what: "a reference data file"),
            let kind = string(top["kind"], required: "kind", in: root, "")
        else { return nil }
        guard let known = ReferenceData.kinds.first(where: { $0.kind == kind }) else {
            let kinds = ReferenceData.kinds.map(\.kind)
            report(.invalidAttribute, "unknown kind '\(kind)'\(Suggestion.hint(for: kind, in: kinds)) (known: \(kinds.joined(separator: ", ")))", top["kind"]!)
            return nil
        }
        let specific: [String] = switch kind {
        case "card-brands": ["brands"]
        case "address-formats": ["default", "countries"]
        case "country-codes": ["codes", "withdrawn", "groups"]
        default: ["codes", "withdrawn"]
        }
        for (key, entry) in top where !Self.common.contains(key) && !specific.contains(key) {
            report(.unknownAttribute, "unknown attribute '\(key)'\(Suggestion.hint(for: key, in: Self.common + specific))", entry)
        }
        let id = string(top["id"], required: "id", in: root, "")
        if let id, id != known.id || id != expectedID {
            report(.invalidAttribute, "a '\(kind)' file is named '\(known.id)' (its id and its file name), not '\(id)' in '\(expectedID).json'", top["id"]!)
        }
        _ = string(top["title"], required: "title", in: root, "")
        _ = string(top["description"], required: nil, in: root, "")
        let source = string(top["source"], required: "source", in: root, "") ?? ""
        let published = date(top["published"], required: "published", in: root, "") ?? ""
        switch kind {
        case "card-brands":
            return cardBrands(top, source: source, published: published).map(Decoded.cardBrands)
        case "address-formats":
            return addressFormats(top, source: source, published: published).map(Decoded.addresses)
        case "country-codes":
            return codeList(top, id: known.id, width: 2, source: source, published: published).map(Decoded.countries)
        default:
            return codeList(top, id: known.id, width: 3, source: source, published: published).map(Decoded.currencies)
        }
    }

    // MARK: - Code lists

    private mutating func codeList(_ top: [String: Entry], id: String, width: Int, source: String, published: String) -> CodeList? {
        let before = problems.count
        let codes = entries(top["codes"], required: "codes", width: width, withdrawn: false)
        let withdrawn = top["withdrawn"].map { entries($0, required: nil, width: width, withdrawn: true) } ?? []
        var seen: [String: Entry] = [:]
        for (entry, at) in codes + withdrawn {
            if seen.updateValue(at, forKey: entry.code) != nil { report(.duplicate, "'\(entry.code)' is listed twice", at) }
        }
        let current = Set(codes.map(\.0.code))
        for (entry, at) in withdrawn {
            if let replacement = entry.replacedBy, !current.contains(replacement) {
                report(.invalidAttribute, "'\(entry.code)' is replaced by '\(replacement)', which is not a code in force", at)
            }
        }
        var groups: [String: [String]] = [:]
        if let entry = top["groups"], let members = object(entry.index, entry.pointer, allowed: nil, what: "groups of codes") {
            for (name, member) in members {
                let list = stringList(member) ?? []
                for (offset, code) in list.enumerated() where !current.contains(code) {
                    report(.invalidAttribute, "group '\(name)' names '\(code)', which is not a code in force", member, suffix: "/\(offset)")
                }
                groups[name] = list
            }
        }
        guard problems.count == before else { return nil }
        return CodeList(id: id, source: source, published: published, width: width, codes: codes.map(\.0), withdrawn: withdrawn.map(\.0), groups: groups)
    }

    private mutating func entries(_ entry: Entry?, required: String?, width: Int, withdrawn: Bool) -> [(CodeList.Entry, Entry)] {
        guard let entry else {
            if let required { report(.missingAttribute, "missing '\(required)'", Entry(index: document.root, pointer: "")) }
            return []
        }
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "expected an array of codes", entry)
            return []
        }
        var result: [(CodeList.Entry, Entry)] = []
        let allowed = ["code", "name", "numeric", "alpha3"] + (withdrawn ? ["withdrawn", "replacedBy", "note"] : ["added", "note"])
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            let at = Entry(index: element, pointer: "\(entry.pointer)/\(offset)")
            guard let members = object(element, at.pointer, allowed: allowed, what: "a code") else { continue }
            guard let code = string(members["code"], required: "code", in: element, at.pointer),
                let name = string(members["name"], required: "name", in: element, at.pointer)
            else { continue }
            if code.utf8.count != width || !code.utf8.allSatisfy({ $0 &- 65 < 26 }) {
                report(.invalidAttribute, "'\(code)' is not \(width) capital letters A-Z", members["code"]!)
            }
            let numeric = string(members["numeric"], required: nil, in: element, at.pointer)
            if let numeric, numeric.utf8.count != 3 || !numeric.utf8.allSatisfy({ $0 &- 0x30 < 10 }) {
                report(.invalidAttribute, "a numeric code is three digits, not '\(numeric)'", members["numeric"]!)
            }
            _ = string(members["alpha3"], required: nil, in: element, at.pointer)
            _ = string(members["note"], required: nil, in: element, at.pointer)
            _ = date(members["added"], required: nil, in: element, at.pointer)
            let day = withdrawn ? date(members["withdrawn"], required: "withdrawn", in: element, at.pointer) : nil
            let replacedBy = string(members["replacedBy"], required: nil, in: element, at.pointer)
            result.append((CodeList.Entry(code: code, name: name, numeric: numeric, withdrawn: day, replacedBy: replacedBy), at))
        }
        return result
    }

    // MARK: - Card brands

    private mutating func cardBrands(_ top: [String: Entry], source: String, published: String) -> CardBrands? {
        let before = problems.count
        guard let list = top["brands"] else {
            report(.missingAttribute, "missing 'brands'", Entry(index: document.root, pointer: ""))
            return nil
        }
        guard document.kind(of: list.index) == .array, document.count(of: list.index) > 0 else {
            report(.invalidAttribute, "expected a non-empty array of brands", list)
            return nil
        }
        var brands: [CardBrands.Brand] = []
        var ranges: [(CardBrands.Range, Entry)] = []
        let allowed = ["id", "name", "prefixes", "lengths", "securityCode", "luhn", "grouping", "groupingByLength"]
        for (offset, element) in document.elements(of: list.index).enumerated() {
            let at = Entry(index: element, pointer: "\(list.pointer)/\(offset)")
            guard let members = object(element, at.pointer, allowed: allowed, what: "a brand"),
                let id = string(members["id"], required: "id", in: element, at.pointer),
                let name = string(members["name"], required: "name", in: element, at.pointer)
            else { continue }
            if id.isEmpty || !id.utf8.allSatisfy({ $0 &- 97 < 26 || $0 &- 0x30 < 10 || $0 == UInt8(ascii: "-") }) {
                report(.invalidAttribute, "a brand id is lower-case letters, digits and '-', not '\(id)'", members["id"]!)
            }
            if brands.contains(where: { $0.id == id }) { report(.duplicate, "brand '\(id)' is listed twice", members["id"]!) }
            let lengths = integers(members["lengths"], required: "lengths", in: at, range: 8...19) ?? []
            if lengths != Array(Set(lengths)).sorted() { report(.invalidAttribute, "lengths are listed once each, ascending", members["lengths"] ?? at) }
            var codeName = "CVV"
            var codeLength = 3
            if let code = members["securityCode"], let parts = object(code.index, code.pointer, allowed: ["name", "length"], what: "a security code") {
                codeName = string(parts["name"], required: "name", in: code.index, code.pointer) ?? codeName
                if let length = parts["length"], let value = integer(length) {
                    if (3...4).contains(value) { codeLength = value } else { report(.invalidAttribute, "a security code has 3 or 4 digits", length) }
                } else if parts["length"] == nil {
                    report(.missingAttribute, "missing 'length'", code)
                }
            } else if members["securityCode"] == nil {
                report(.missingAttribute, "missing 'securityCode'", at)
            }
            var luhn = true
            if let entry = members["luhn"] {
                if document.kind(of: entry.index) == .boolean { luhn = document.boolean(at: entry.index) } else { report(.invalidAttribute, "expected true or false", entry) }
            } else {
                report(.missingAttribute, "missing 'luhn'", at)
            }
            let grouping = integers(members["grouping"], required: "grouping", in: at, range: 1...19) ?? [4, 4, 4, 4, 3]
            var byLength: [Int: [Int]] = [:]
            if let entry = members["groupingByLength"], let groups = object(entry.index, entry.pointer, allowed: nil, what: "groupings by length") {
                for (key, member) in groups {
                    guard let length = Int(key), lengths.contains(length) else {
                        report(.invalidAttribute, "'\(key)' is not one of the brand's lengths", member)
                        continue
                    }
                    byLength[length] = integers(member, required: nil, in: member, range: 1...19)
                }
            }
            let brandIndex = brands.count
            if let entry = members["prefixes"] {
                if document.kind(of: entry.index) != .array || document.count(of: entry.index) == 0 {
                    report(.invalidAttribute, "expected a non-empty array of prefixes", entry)
                } else {
                    for (rangeOffset, rangeElement) in document.elements(of: entry.index).enumerated() {
                        let rangeAt = Entry(index: rangeElement, pointer: "\(entry.pointer)/\(rangeOffset)")
                        if let range = prefixRange(rangeAt, brand: brandIndex) { ranges.append((range, rangeAt)) }
                    }
                }
            } else {
                report(.missingAttribute, "missing 'prefixes'", at)
            }
            brands.append(CardBrands.Brand(
                id: id, name: name, lengths: lengths, securityCodeName: codeName, securityCodeLength: codeLength, luhn: luhn,
                grouping: grouping, groupingByLength: byLength))
        }
        if brands.count > 64 { report(.invalidAttribute, "at most 64 brands (conditions hold a brand set in 64 bits)", list) }
        // Two ranges of the same length that overlap would leave a number's brand to the order of the file.
        for (index, (range, at)) in ranges.enumerated() {
            for (other, _) in ranges[..<index] where other.digits == range.digits && other.low <= range.high && range.low <= other.high {
                let names = (brands[other.brand].id, brands[range.brand].id)
                report(.duplicate, "this range overlaps a range of \(names.0 == names.1 ? "the same brand" : "'\(names.0)'") of as many digits", at)
            }
        }
        guard problems.count == before else { return nil }
        return CardBrands(source: source, published: published, brands: brands, ranges: ranges.map(\.0))
    }

    private mutating func prefixRange(_ at: Entry, brand: Int) -> CardBrands.Range? {
        guard let members = object(at.index, at.pointer, allowed: ["prefix", "from", "to"], what: "a prefix") else { return nil }
        func digits(_ entry: Entry?) -> String? {
            guard let entry, let text = string(entry, required: nil, in: at.index, at.pointer) else { return nil }
            guard (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ $0 &- 0x30 < 10 }) else {
                report(.invalidAttribute, "a prefix is 1 to 8 digits (ISO/IEC 7812-1), not '\(text)'", entry)
                return nil
            }
            return text
        }
        if let prefix = members["prefix"] {
            guard members.count == 1, let text = digits(prefix), let value = Int(text) else {
                if members.count != 1 { report(.invalidAttribute, "'prefix' stands alone; a range is 'from' and 'to'", at) }
                return nil
            }
            return CardBrands.Range(digits: text.utf8.count, low: value, high: value, brand: brand)
        }
        guard let fromEntry = members["from"], let toEntry = members["to"] else {
            report(.missingAttribute, "a prefix is 'prefix', or 'from' and 'to'", at)
            return nil
        }
        guard let from = digits(fromEntry), let to = digits(toEntry), let low = Int(from), let high = Int(to) else { return nil }
        guard from.utf8.count == to.utf8.count, low <= high else {
            report(.invalidRange, "'from' and 'to' have as many digits, and 'from' is not above 'to'", at)
            return nil
        }
        return CardBrands.Range(digits: from.utf8.count, low: low, high: high, brand: brand)
    }

    // MARK: - Address formats

    private mutating func addressFormats(_ top: [String: Entry], source: String, published: String) -> AddressFormats? {
        let before = problems.count
        let root = Entry(index: document.root, pointer: "")
        guard let defaultEntry = top["default"] else {
            report(.missingAttribute, "missing 'default'", root)
            return nil
        }
        let fallback = addressFormat(defaultEntry, code: nil)
        guard let list = top["countries"] else {
            report(.missingAttribute, "missing 'countries'", root)
            return nil
        }
        guard document.kind(of: list.index) == .array, document.count(of: list.index) > 0 else {
            report(.invalidAttribute, "expected a non-empty array of countries", list)
            return nil
        }
        var countries: [AddressFormats.Country] = []
        var seen: Set<String> = []
        for (offset, element) in document.elements(of: list.index).enumerated() {
            guard let country = addressFormat(Entry(index: element, pointer: "\(list.pointer)/\(offset)"), code: "") else { continue }
            if !seen.insert(country.code).inserted {
                report(.duplicate, "country '\(country.code)' is listed twice", Entry(index: element, pointer: "\(list.pointer)/\(offset)"))
            }
            countries.append(country)
        }
        guard problems.count == before, let fallback else { return nil }
        return AddressFormats(source: source, published: published, countries: countries, defaultFormat: fallback)
    }

    /// A country's format (`code` non-nil: the entry has a `code`) or the default one.
    private mutating func addressFormat(_ at: Entry, code expectsCode: String?) -> AddressFormats.Country? {
        let common = ["parts", "required", "postalCodeName", "subdivisionName"]
        let own = ["code", "postalCodeInCapitals", "postalCode", "examples", "subdivisions"]
        guard let members = object(at.index, at.pointer, allowed: expectsCode == nil ? common : common + own, what: "an address format")
        else { return nil }
        var code = "ZZ"
        if expectsCode != nil {
            guard let text = string(members["code"], required: "code", in: at.index, at.pointer) else { return nil }
            if text.utf8.count != 2 || !text.utf8.allSatisfy({ $0 &- 65 < 26 }) {
                report(.invalidAttribute, "'\(text)' is not 2 capital letters A-Z", members["code"]!)
                return nil
            }
            code = text
        }
        let parts = addressParts(members["parts"], required: "parts", in: at) ?? []
        let required = addressParts(members["required"], required: "required", in: at) ?? []
        for part in required where !parts.contains(part) {
            report(.invalidAttribute, "'\(part.rawValue)' is required but not one of the country's parts", members["required"]!)
        }
        let postalCodeName = string(members["postalCodeName"], required: "postalCodeName", in: at.index, at.pointer) ?? "postal"
        let subdivisionName = string(members["subdivisionName"], required: "subdivisionName", in: at.index, at.pointer) ?? "province"
        var capitals = false
        if let entry = members["postalCodeInCapitals"] {
            if document.kind(of: entry.index) == .boolean { capitals = document.boolean(at: entry.index) } else { report(.invalidAttribute, "expected true or false", entry) }
        }
        let pattern = string(members["postalCode"], required: nil, in: at.index, at.pointer)
        if pattern?.isEmpty == true { report(.invalidAttribute, "a postal-code pattern is not empty", members["postalCode"]!) }
        if pattern != nil && !parts.contains(.postalCode) {
            report(.invalidAttribute, "a country without the part 'postalCode' has no postal-code pattern", members["postalCode"]!)
        }
        let examples = members["examples"].flatMap { stringList($0) } ?? []
        if pattern != nil && examples.isEmpty { report(.missingAttribute, "a postal-code pattern needs 'examples' (messages show one)", at) }
        var subdivisions: [AddressFormats.Subdivision] = []
        if let entry = members["subdivisions"] {
            if document.kind(of: entry.index) != .array {
                report(.invalidAttribute, "expected an array of subdivisions", entry)
            } else {
                for (offset, element) in document.elements(of: entry.index).enumerated() {
                    let here = Entry(index: element, pointer: "\(entry.pointer)/\(offset)")
                    guard let parts = object(element, here.pointer, allowed: ["key", "names", "iso", "postalCodePrefix", "examples"], what: "a subdivision"),
                        let key = string(parts["key"], required: "key", in: element, here.pointer)
                    else { continue }
                    if key.isEmpty { report(.invalidAttribute, "a subdivision's key is not empty", parts["key"]!) }
                    _ = string(parts["iso"], required: nil, in: element, here.pointer)
                    let prefix = string(parts["postalCodePrefix"], required: nil, in: element, here.pointer)
                    subdivisions.append(AddressFormats.Subdivision(
                        key: key, names: parts["names"].flatMap { stringList($0) } ?? [], postalCodePrefix: prefix,
                        prefixLocation: parts["postalCodePrefix"].map(patternLocation),
                        examples: parts["examples"].flatMap { stringList($0) } ?? [], capitals: capitals))
                }
            }
        }
        return AddressFormats.Country(
            code: code, parts: parts, required: required, postalCodeName: postalCodeName, subdivisionName: subdivisionName,
            postalCodePattern: pattern, postalCodeLocation: members["postalCode"].map(patternLocation), postalCodeInCapitals: capitals,
            examples: examples, subdivisions: subdivisions)
    }

    private mutating func addressParts(_ entry: Entry?, required: String, in parent: Entry) -> [AddressFormats.Part]? {
        guard let entry else {
            report(.missingAttribute, "missing '\(required)'", parent)
            return nil
        }
        guard let names = stringList(entry) else { return nil }
        var parts: [AddressFormats.Part] = []
        for (offset, name) in names.enumerated() {
            guard let part = AddressFormats.Part(rawValue: name) else {
                let known = AddressFormats.Part.allCases.map(\.rawValue)
                report(.invalidAttribute, "unknown address part '\(name)'\(Suggestion.hint(for: name, in: known))", entry, suffix: "/\(offset)")
                continue
            }
            if parts.contains(part) { report(.duplicate, "'\(name)' is listed twice", entry, suffix: "/\(offset)") }
            parts.append(part)
        }
        return parts
    }

    // MARK: - Primitive readers

    struct Entry {
        var index: JSONDocument.Index
        var pointer: String
    }

    private mutating func object(_ index: JSONDocument.Index, _ pointer: String, allowed: [String]?, what: String) -> [String: Entry]? {
        guard document.kind(of: index) == .object else {
            report(.invalidAttribute, "expected \(what) (an object), found \(document.kind(of: index))", Entry(index: index, pointer: pointer))
            return nil
        }
        var members: [String: Entry] = [:]
        for (keyIndex, valueIndex) in document.members(of: index) {
            let key = document.string(at: keyIndex)
            let at = Entry(index: keyIndex, pointer: JSONPointer.appending(key, to: pointer))
            if members[key] != nil {
                report(.duplicate, "'\(key)' is written twice", at)
            } else if let allowed, !allowed.contains(key) {
                report(.unknownAttribute, "unknown attribute '\(key)'\(Suggestion.hint(for: key, in: allowed))", at)
            } else {
                members[key] = Entry(index: valueIndex, pointer: at.pointer)
            }
        }
        return members
    }

    private mutating func string(_ entry: Entry?, required: String?, in parent: JSONDocument.Index, _ pointer: String) -> String? {
        guard let entry else {
            if let required { report(.missingAttribute, "missing '\(required)'", Entry(index: parent, pointer: pointer)) }
            return nil
        }
        guard document.kind(of: entry.index) == .string else {
            report(.invalidAttribute, "expected a string, found \(document.kind(of: entry.index))", entry)
            return nil
        }
        return document.string(at: entry.index)
    }

    /// A day as `YYYY-MM-DD`.
    private mutating func date(_ entry: Entry?, required: String?, in parent: JSONDocument.Index, _ pointer: String) -> String? {
        guard let text = string(entry, required: required, in: parent, pointer), let entry else { return nil }
        var bytes = text
        guard bytes.withUTF8({ Format.isDate($0) }) else {
            report(.invalidAttribute, "expected a date such as 2026-01-01, found '\(text)'", entry)
            return nil
        }
        return text
    }

    private mutating func integer(_ entry: Entry) -> Int? {
        guard document.kind(of: entry.index) == .number, document.isIntegerLiteral(at: entry.index),
            let value = Int(document.numberLexeme(at: entry.index))
        else {
            report(.invalidAttribute, "expected an integer", entry)
            return nil
        }
        return value
    }

    private mutating func integers(_ entry: Entry?, required: String?, in parent: Entry, range: ClosedRange<Int>) -> [Int]? {
        guard let entry else {
            if let required { report(.missingAttribute, "missing '\(required)'", parent) }
            return nil
        }
        guard document.kind(of: entry.index) == .array, document.count(of: entry.index) > 0 else {
            report(.invalidAttribute, "expected a non-empty array of integers", entry)
            return nil
        }
        var values: [Int] = []
        for (offset, element) in document.elements(of: entry.index).enumerated() {
            let at = Entry(index: element, pointer: "\(entry.pointer)/\(offset)")
            guard let value = integer(at) else { continue }
            guard range.contains(value) else {
                report(.invalidAttribute, "expected \(range.lowerBound) to \(range.upperBound), found \(value)", at)
                continue
            }
            values.append(value)
        }
        return values
    }

    private mutating func stringList(_ entry: Entry) -> [String]? {
        guard document.kind(of: entry.index) == .array else {
            report(.invalidAttribute, "expected an array of strings", entry)
            return nil
        }
        return document.elements(of: entry.index).enumerated().compactMap { offset, element in
            string(Entry(index: element, pointer: "\(entry.pointer)/\(offset)"), required: nil, in: element, "")
        }
    }

    private mutating func report(_ code: SchemaProblem.Code, _ message: String, _ entry: Entry, suffix: String = "") {
        var at = location(entry)
        at.pointer += suffix
        problems.append(SchemaProblem(code: code, message: message, location: at))
    }

    /// Where a pattern of the address data is written, by pointer only: a line and column for each of the data's
    /// 1,600 patterns cost 5 % of a command-line run at every start, for a problem only `lint` reports.
    private func patternLocation(_ entry: Entry) -> SchemaLocation {
        SchemaLocation(file: file, pointer: entry.pointer, position: nil)
    }

    private func location(_ entry: Entry) -> SchemaLocation {
        SchemaLocation(file: file, pointer: entry.pointer, position: document.position(of: entry.index, lines: lines))
    }
}
