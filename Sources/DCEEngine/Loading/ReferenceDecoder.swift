internal import DCEPattern

/// Reads one reference data file (`Schemas/reference/*.json`), reporting every problem with the file, the JSON
/// Pointer, line and column, as the schema decoder does for schemas.
///
/// The reader works on the document's node indices and makes no string it does not keep: a member is found by
/// comparing key bytes, and a pointer is worked out only for a problem. (Every command-line run reads the address
/// data's 250 countries and 1,400 subdivisions; building a pointer and a dictionary per member cost 2 ms a start.)
struct ReferenceDecoder {
    enum Decoded {
        case currencies(CodeList)
        case countries(CodeList)
        case cardBrands(CardBrands)
        case addresses(AddressFormats)
    }

    typealias Node = JSONDocument.Index

    let file: String
    private(set) var problems: [SchemaProblem] = []
    let document: JSONDocument
    /// Where each line starts, worked out for the first problem.
    private lazy var lines = document.lineIndex()
    /// Whether each pattern of the data is compiled and a pattern PCRE2 refuses reported (`lint`); loading compiles
    /// none, so that a process pays only for the countries it sees.
    let compilingPatterns: Bool
    /// Whether the address data's countries are read only as they are asked for (the package's own data, whose every
    /// country its tests check): then only their codes are read now, and nothing of them is checked.
    let countriesAsAskedFor: Bool

    init(file: String, document: JSONDocument, compilingPatterns: Bool, countriesAsAskedFor: Bool) {
        self.file = file
        self.document = document
        self.compilingPatterns = compilingPatterns
        self.countriesAsAskedFor = countriesAsAskedFor
    }

    private static let common = ["$schema", "kind", "id", "title", "source", "published", "description"]

    /// Decodes a file whose name (without `.json`) is `expectedID`: the data, or every problem found (with
    /// `compilingPatterns`, also each pattern PCRE2 refuses). With `countriesAsAskedFor`, the address data's
    /// countries are read the first time each is asked for, unchecked (the package's own data only).
    static func decode(
        _ bytes: [UInt8], file: String, expectedID: String, compilingPatterns: Bool = false,
        countriesAsAskedFor: Bool = false
    ) -> (data: Decoded?, problems: [SchemaProblem]) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            return (
                nil,
                [
                    SchemaProblem(
                        code: .json, message: "not well-formed JSON: \(error.message)",
                        location: SchemaLocation(file: file, pointer: "", position: error.position), cause: error)
                ]
            )
        }
        var decoder = ReferenceDecoder(
            file: file, document: document, compilingPatterns: compilingPatterns,
            countriesAsAskedFor: countriesAsAskedFor)
        let data = decoder.decode(expectedID: expectedID)
        return (decoder.problems.isEmpty ? data : nil, decoder.problems)
    }

    private mutating func decode(expectedID: String) -> Decoded? {
        let root = document.root
        guard let top = object(root, allowed: nil, what: "a reference data file"),
            let kind = string(member("kind", of: top), required: "kind", in: root)
        else { return nil }
        guard let known = ReferenceData.kinds.first(where: { $0.kind == kind }) else {
            let kinds = ReferenceData.kinds.map(\.kind)
            report(
                .invalidAttribute,
                "unknown kind '\(kind)'\(Suggestion.hint(for: kind, in: kinds)) (known: \(kinds.joined(separator: ", ")))",
                member("kind", of: top)!)
            return nil
        }
        let specific: [String] =
            switch kind {
            case "card-brands": ["brands", "differences"]
            case "address-formats": ["default", "countries"]
            case "country-codes": ["codes", "withdrawn", "groups"]
            default: ["codes", "withdrawn"]
            }
        let allowed = Self.common + specific
        for (key, _) in document.members(of: top)
        where !allowed.contains(where: { document.string(at: key, equals: $0) }) {
            let name = document.string(at: key)
            report(.unknownAttribute, "unknown attribute '\(name)'\(Suggestion.hint(for: name, in: allowed))", key)
        }
        let id = string(member("id", of: top), required: "id", in: root)
        if let id, id != known.id || id != expectedID {
            report(
                .invalidAttribute,
                "a '\(kind)' file is named '\(known.id)' (its id and its file name), not '\(id)' in '\(expectedID).json'",
                member("id", of: top)!)
        }
        _ = string(member("title", of: top), required: "title", in: root)
        _ = string(member("description", of: top), required: nil, in: root)
        let source = string(member("source", of: top), required: "source", in: root) ?? ""
        let published = date(member("published", of: top), required: "published", in: root) ?? ""
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

    private mutating func codeList(_ top: Node, id: String, width: Int, source: String, published: String) -> CodeList?
    {
        let before = problems.count
        let codes = entries(member("codes", of: top), required: "codes", width: width, withdrawn: false)
        let withdrawn =
            member("withdrawn", of: top).map { entries($0, required: nil, width: width, withdrawn: true) } ?? []
        var seen: Set<String> = []
        for (entry, at) in codes + withdrawn where !seen.insert(entry.code).inserted {
            report(.duplicate, "'\(entry.code)' is listed twice", at)
        }
        let current = Set(codes.map(\.0.code))
        for (entry, at) in withdrawn {
            if let replacement = entry.replacedBy, !current.contains(replacement) {
                report(
                    .invalidAttribute, "'\(entry.code)' is replaced by '\(replacement)', which is not a code in force",
                    at)
            }
        }
        var groups: [String: [String]] = [:]
        if let entry = member("groups", of: top), let members = object(entry, allowed: nil, what: "groups of codes") {
            for (key, value) in document.members(of: members) {
                let name = document.string(at: key)
                let list = stringList(value) ?? []
                for (element, code) in zip(document.elements(of: value), list) where !current.contains(code) {
                    report(.invalidAttribute, "group '\(name)' names '\(code)', which is not a code in force", element)
                }
                groups[name] = list
            }
        }
        guard problems.count == before else { return nil }
        return CodeList(
            id: id, source: source, published: published, width: width, codes: codes.map(\.0),
            withdrawn: withdrawn.map(\.0), groups: groups)
    }

    private mutating func entries(_ list: Node?, required: String?, width: Int, withdrawn: Bool) -> [(
        CodeList.Entry, Node
    )] {
        guard let list else {
            if let required { report(.missingAttribute, "missing '\(required)'", document.root) }
            return []
        }
        guard document.kind(of: list) == .array else {
            report(.invalidAttribute, "expected an array of codes", list)
            return []
        }
        var result: [(CodeList.Entry, Node)] = []
        let allowed =
            ["code", "name", "numeric", "alpha3"]
            + (withdrawn ? ["withdrawn", "replacedBy", "note"] : ["added", "note"])
        for element in document.elements(of: list) {
            guard let members = object(element, allowed: allowed, what: "a code") else { continue }
            guard let code = string(member("code", of: members), required: "code", in: element),
                let name = string(member("name", of: members), required: "name", in: element)
            else { continue }
            if !Self.isCode(code, width: width) {
                report(.invalidAttribute, "'\(code)' is not \(width) capital letters A-Z", member("code", of: members)!)
            }
            let numeric = string(member("numeric", of: members), required: nil, in: element)
            if let numeric, numeric.utf8.count != 3 || !numeric.utf8.allSatisfy({ $0 &- 0x30 < 10 }) {
                report(
                    .invalidAttribute, "a numeric code is three digits, not '\(numeric)'",
                    member("numeric", of: members)!)
            }
            _ = string(member("alpha3", of: members), required: nil, in: element)
            _ = string(member("note", of: members), required: nil, in: element)
            _ = date(member("added", of: members), required: nil, in: element)
            let day = withdrawn ? date(member("withdrawn", of: members), required: "withdrawn", in: element) : nil
            let replacedBy = string(member("replacedBy", of: members), required: nil, in: element)
            result.append(
                (
                    CodeList.Entry(code: code, name: name, numeric: numeric, withdrawn: day, replacedBy: replacedBy),
                    element
                ))
        }
        return result
    }

    // MARK: - Card brands

    private mutating func cardBrands(_ top: Node, source: String, published: String) -> CardBrands? {
        let before = problems.count
        guard let list = nonEmptyArray("brands", of: top) else { return nil }
        var brands: [CardBrands.Brand] = []
        var ranges: [(CardBrands.Range, Node)] = []
        let allowed = [
            "id", "name", "prefixes", "source", "lengths", "securityCode", "luhn", "grouping", "groupingByLength",
        ]
        for at in document.elements(of: list) {
            guard let members = object(at, allowed: allowed, what: "a brand"),
                let id = string(member("id", of: members), required: "id", in: at),
                let name = string(member("name", of: members), required: "name", in: at)
            else { continue }
            _ = string(member("source", of: members), required: nil, in: at)
            if id.isEmpty || !id.utf8.allSatisfy({ $0 &- 97 < 26 || $0 &- 0x30 < 10 || $0 == UInt8(ascii: "-") }) {
                report(
                    .invalidAttribute, "a brand id is lower-case letters, digits and '-', not '\(id)'",
                    member("id", of: members)!)
            }
            if brands.contains(where: { $0.id == id }) {
                report(.duplicate, "brand '\(id)' is listed twice", member("id", of: members)!)
            }
            let lengths = integers(member("lengths", of: members), required: "lengths", in: at, range: 8...19) ?? []
            if lengths != Array(Set(lengths)).sorted() {
                report(
                    .invalidAttribute, "lengths are listed once each, ascending", member("lengths", of: members) ?? at)
            }
            var codeName = "CVV"
            var codeLength = 3
            if let code = member("securityCode", of: members),
                let parts = object(code, allowed: ["name", "length"], what: "a security code")
            {
                codeName = string(member("name", of: parts), required: "name", in: code) ?? codeName
                if let length = member("length", of: parts) {
                    if let value = integer(length) {
                        if (3...4).contains(value) {
                            codeLength = value
                        } else {
                            report(.invalidAttribute, "a security code has 3 or 4 digits", length)
                        }
                    }
                } else {
                    report(.missingAttribute, "missing 'length'", code)
                }
            } else if member("securityCode", of: members) == nil {
                report(.missingAttribute, "missing 'securityCode'", at)
            }
            var luhn = true
            if let entry = member("luhn", of: members) {
                if document.kind(of: entry) == .boolean {
                    luhn = document.boolean(at: entry)
                } else {
                    report(.invalidAttribute, "expected true or false", entry)
                }
            } else {
                report(.missingAttribute, "missing 'luhn'", at)
            }
            let grouping =
                integers(member("grouping", of: members), required: "grouping", in: at, range: 1...19) ?? [
                    4, 4, 4, 4, 3,
                ]
            var byLength: [Int: [Int]] = [:]
            if let entry = member("groupingByLength", of: members),
                let groups = object(entry, allowed: nil, what: "groupings by length")
            {
                for (key, value) in document.members(of: groups) {
                    let text = document.string(at: key)
                    guard let length = Int(text), lengths.contains(length) else {
                        report(.invalidAttribute, "'\(text)' is not one of the brand's lengths", key)
                        continue
                    }
                    byLength[length] = integers(value, required: nil, in: value, range: 1...19)
                }
            }
            let brandIndex = brands.count
            if let entry = nonEmptyArray("prefixes", of: members) {
                for rangeAt in document.elements(of: entry) {
                    if let range = prefixRange(rangeAt, brand: brandIndex) { ranges.append((range, rangeAt)) }
                }
            }
            brands.append(
                CardBrands.Brand(
                    id: id, name: name, lengths: lengths, securityCodeName: codeName, securityCodeLength: codeLength,
                    luhn: luhn,
                    grouping: grouping, groupingByLength: byLength))
        }
        if brands.count > 64 {
            report(.invalidAttribute, "at most 64 brands (conditions hold a brand set in 64 bits)", list)
        }
        // Two ranges of the same length that overlap would leave a number's brand to the order of the file.
        for (index, (range, at)) in ranges.enumerated() {
            for (other, _) in ranges[..<index]
            where other.digits == range.digits && other.low <= range.high && range.low <= other.high {
                let names = (brands[other.brand].id, brands[range.brand].id)
                report(
                    .duplicate,
                    "this range overlaps a range of \(names.0 == names.1 ? "the same brand" : "'\(names.0)'") of as many digits",
                    at)
            }
        }
        if let differences = member("differences", of: top) { brandDifferences(differences) }
        guard problems.count == before else { return nil }
        return CardBrands(source: source, published: published, brands: brands, ranges: ranges.map(\.0))
    }

    /// The cases of braintree's brand tables the data answers otherwise, each with its source: read by the brand
    /// tables test, checked here for their shape only.
    private mutating func brandDifferences(_ list: Node) {
        guard document.kind(of: list) == .array else {
            report(.invalidAttribute, "expected an array of differences", list)
            return
        }
        let allowed = ["library", "table", "inputs", "upstream", "ours", "source"]
        for at in document.elements(of: list) {
            guard let members = object(at, allowed: allowed, what: "a difference") else { continue }
            if let library = string(member("library", of: members), required: "library", in: at),
                !["credit-card-type", "card-validator"].contains(library)
            {
                report(
                    .invalidAttribute, "a difference is from 'credit-card-type' or 'card-validator', not '\(library)'",
                    member("library", of: members)!)
            }
            _ = string(member("table", of: members), required: "table", in: at)
            if let inputs = nonEmptyArray("inputs", of: members) { _ = stringList(inputs) }
            for key in ["upstream", "ours"] where member(key, of: members) == nil {
                report(.missingAttribute, "missing '\(key)'", at)
            }
            if let source = string(member("source", of: members), required: "source", in: at), source.isEmpty {
                report(.invalidAttribute, "a difference names its source", member("source", of: members)!)
            }
        }
    }

    private mutating func prefixRange(_ at: Node, brand: Int) -> CardBrands.Range? {
        guard let members = object(at, allowed: ["prefix", "from", "to"], what: "a prefix") else { return nil }
        func digits(_ entry: Node) -> String? {
            guard let text = string(entry, required: nil, in: at) else { return nil }
            guard (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ $0 &- 0x30 < 10 }) else {
                report(.invalidAttribute, "a prefix is 1 to 8 digits (ISO/IEC 7812-1), not '\(text)'", entry)
                return nil
            }
            return text
        }
        let count = ["prefix", "from", "to"].count { member($0, of: members) != nil }
        if let prefix = member("prefix", of: members) {
            guard count == 1, let text = digits(prefix), let value = Int(text) else {
                if count != 1 { report(.invalidAttribute, "'prefix' stands alone; a range is 'from' and 'to'", at) }
                return nil
            }
            return CardBrands.Range(digits: text.utf8.count, low: value, high: value, brand: brand)
        }
        guard let fromEntry = member("from", of: members), let toEntry = member("to", of: members) else {
            report(.missingAttribute, "a prefix is 'prefix', or 'from' and 'to'", at)
            return nil
        }
        guard let from = digits(fromEntry), let to = digits(toEntry), let low = Int(from), let high = Int(to) else {
            return nil
        }
        guard from.utf8.count == to.utf8.count, low <= high else {
            report(.invalidRange, "'from' and 'to' have as many digits, and 'from' is not above 'to'", at)
            return nil
        }
        return CardBrands.Range(digits: from.utf8.count, low: low, high: high, brand: brand)
    }

    // MARK: - Primitive readers

    /// Whether text is a code of the data: `width` capital letters A-Z (a currency's 3, a country's 2).
    static func isCode(_ text: String, width: Int) -> Bool {
        text.utf8.count == width && text.utf8.allSatisfy { $0 &- 65 < 26 }
    }

    /// The value of an object's member; with a key written twice, the first (the second is reported by ``object``).
    func member(_ key: String, of object: Node) -> Node? {
        document.member(key, of: object)
    }

    /// A member that must be a non-empty array (of what its key names): its node, or `nil` with the problem reported.
    mutating func nonEmptyArray(_ key: String, of object: Node) -> Node? {
        guard let list = member(key, of: object) else {
            report(.missingAttribute, "missing '\(key)'", object)
            return nil
        }
        guard document.kind(of: list) == .array, document.count(of: list) > 0 else {
            report(.invalidAttribute, "expected a non-empty array of \(key)", list)
            return nil
        }
        return list
    }

    /// The object at `index`, its keys checked: each written once, and one of `allowed` when given.
    mutating func object(_ index: Node, allowed: [String]?, what: String) -> Node? {
        guard document.kind(of: index) == .object else {
            report(.invalidAttribute, "expected \(what) (an object), found \(document.kind(of: index))", index)
            return nil
        }
        // The data's objects have a handful of members, compared pairwise; a large one (a file that is not the
        // data) is checked through a set, so that no object costs more than linear time.
        var keys: Set<String>? = document.count(of: index) > 16 ? [] : nil
        var earlier: [Node] = []
        for (key, _) in document.members(of: index) {
            let repeated: Bool
            if keys != nil {
                repeated = !keys!.insert(document.string(at: key)).inserted
            } else {
                repeated = earlier.contains { document.sameString(at: $0, and: key) }
                earlier.append(key)
            }
            if repeated {
                report(.duplicate, "'\(document.string(at: key))' is written twice", key)
            } else if let allowed, !allowed.contains(where: { document.string(at: key, equals: $0) }) {
                let name = document.string(at: key)
                report(.unknownAttribute, "unknown attribute '\(name)'\(Suggestion.hint(for: name, in: allowed))", key)
            }
        }
        return index
    }

    mutating func string(_ entry: Node?, required: String?, in parent: Node) -> String? {
        guard let entry else {
            if let required { report(.missingAttribute, "missing '\(required)'", parent) }
            return nil
        }
        guard document.kind(of: entry) == .string else {
            report(.invalidAttribute, "expected a string, found \(document.kind(of: entry))", entry)
            return nil
        }
        return document.string(at: entry)
    }

    /// A day as `YYYY-MM-DD`.
    private mutating func date(_ entry: Node?, required: String?, in parent: Node) -> String? {
        guard let text = string(entry, required: required, in: parent), let entry else { return nil }
        guard text.withUTF8Span({ Format.isDate($0) }) else {
            report(.invalidAttribute, "expected a date such as 2026-01-01, found '\(text)'", entry)
            return nil
        }
        return text
    }

    private mutating func integer(_ entry: Node) -> Int? {
        guard document.kind(of: entry) == .number, document.isIntegerLiteral(at: entry),
            let value = Int(document.numberLexeme(at: entry))
        else {
            report(.invalidAttribute, "expected an integer", entry)
            return nil
        }
        return value
    }

    private mutating func integers(_ list: Node?, required: String?, in parent: Node, range: ClosedRange<Int>) -> [Int]?
    {
        guard let list else {
            if let required { report(.missingAttribute, "missing '\(required)'", parent) }
            return nil
        }
        guard document.kind(of: list) == .array, document.count(of: list) > 0 else {
            report(.invalidAttribute, "expected a non-empty array of integers", list)
            return nil
        }
        var values: [Int] = []
        for element in document.elements(of: list) {
            guard let value = integer(element) else { continue }
            guard range.contains(value) else {
                report(
                    .invalidAttribute, "expected \(range.lowerBound) to \(range.upperBound), found \(value)", element)
                continue
            }
            values.append(value)
        }
        return values
    }

    /// The strings of an array; an element that is not a string is reported and left out.
    mutating func stringList(_ list: Node) -> [String]? {
        guard document.kind(of: list) == .array else {
            report(.invalidAttribute, "expected an array of strings", list)
            return nil
        }
        return document.elements(of: list).compactMap { string($0, required: nil, in: $0) }
    }

    mutating func report(_ code: SchemaProblem.Code, _ message: String, _ node: Node) {
        problems.append(
            SchemaProblem(
                code: code, message: message,
                location: SchemaLocation(
                    file: file, pointer: document.pointer(to: node), position: document.position(of: node, lines: lines)
                )))
    }
}
