import DCEEngine
import Foundation

/// Payloads made from a schema, for witnesses where no example fits: every field that must be present under a scope,
/// each with a value its rules take, repaired until the schema accepts it or nothing is left to try.
extension SchemaComparison {
    /// The most rounds of repair: each changes at least one field's value, or brings in a field an override requires.
    static let repairRounds = 16

    /// A payload `prepared` accepts, made from `schema`'s fields in force under `scope`, with the field at `path`
    /// (and the objects and list items around it) present too; `nil` when none of the values tried passes (a pattern
    /// no sample matches, a rule that reads values no sample holds).
    ///
    /// The value the scope gives another field (``Scope/given``) is placed as it is, whatever else is repaired.
    func madePayload(for schema: CompiledSchema, in scope: Scope, prepared: PreparedSchema, including path: String = "")
        -> [UInt8]?
    {
        guard
            let fields = try? schema.fieldsInForce(
                context: scope.context, tenderType: scope.tenderType,
                given: scope.given.map { [$0.tokens: $0.value] } ?? [:], primitiveItems: true)
        else { return nil }
        let byPath = Dictionary(fields.map { ($0.path, $0) }) { first, _ in first }
        var included = Set(fields.filter { $0.rules.presence.mustBePresent }.map(\.path))
        // Which of its alternatives each field holds.
        var choices: [String: Int] = [:]
        let alternatives = Dictionary(
            fields.map { ($0.path, Self.alternatives($0.field.dataType, $0.rules, now: old.now())) },
            uniquingKeysWith: { a, _ in a })
        let fixed = scope.given.flatMap { given in
            byPath[given.pointer] == nil ? nil : given.typedValue(in: schema).map { (path: given.pointer, value: $0) }
        }

        /// How many items a list holds: its minimum, and one when something inside it must be present.
        func count(of list: String) -> Int {
            let minimum = byPath[list]?.rules.itemCounts.lower ?? 0
            let needed = included.contains { $0.hasPrefix(list + "/-") } ? 1 : 0
            return max(minimum, needed)
        }
        func isIn(_ path: String) -> Bool {
            if path.isEmpty { return true }
            if path.hasSuffix("/-") {
                let list = String(path.dropLast(2))
                return isIn(list) && count(of: list) > 0
            }
            return included.contains(path) && isIn(Self.parentPath(path))
        }
        /// The pointers a field's path stands for: `-` as each item of its list.
        func concrete(_ tokens: ArraySlice<String>, prefix: [String]) -> [[String]] {
            guard let token = tokens.first else { return [prefix] }
            guard token == "-" else { return concrete(tokens.dropFirst(), prefix: prefix + [token]) }
            let list = "/" + prefix.map(JSONPointer.escape).joined(separator: "/")
            return (0..<count(of: list)).flatMap { concrete(tokens.dropFirst(), prefix: prefix + [String($0)]) }
        }

        func include(_ path: String) -> Bool {
            var added = false
            var ancestor = path
            while !ancestor.isEmpty {
                if !ancestor.hasSuffix("/-") && byPath[ancestor] != nil {
                    added = included.insert(ancestor).inserted || added
                }
                ancestor = Self.parentPath(ancestor)
            }
            return added
        }
        _ = include(path)
        if let fixed { _ = include(fixed.path) }

        for _ in 0..<Self.repairRounds {
            var payload = SchemaValue.object([])
            for field in fields where isIn(field.path) {
                guard let values = alternatives[field.path], !values.isEmpty else { continue }
                let value = values[min(choices[field.path] ?? 0, values.count - 1)]
                for tokens in concrete(field.tokens[...], prefix: []) {
                    if let placed = try? schema.placing(value, at: tokens, in: payload) { payload = placed }
                }
            }
            if let fixed, let tokens = JSONPointer.tokens(of: fixed.path) {
                for tokens in concrete(tokens[...], prefix: []) {
                    if let placed = try? schema.placing(fixed.value, at: tokens, in: payload) { payload = placed }
                }
            }
            let bytes = Array(payload.json.utf8)
            let errors = prepared.validate(json: bytes).errors
            if errors.isEmpty { return bytes }
            var repaired = false
            for error in errors {
                let path = Self.fieldPath(of: error.path, in: byPath)
                guard let path, path != fixed?.path else { continue }
                if !isIn(path) {
                    // An override (or a list's minimum) asks for a field the rules in force did not require.
                    repaired = include(path) || repaired
                } else if let values = alternatives[path], (choices[path] ?? 0) + 1 < values.count {
                    choices[path, default: 0] += 1
                    repaired = true
                }
            }
            if !repaired { return nil }
        }
        return nil
    }

    /// The schema path (`-` for list items) of a violation's pointer, when a field is there.
    private static func fieldPath(of pointer: String, in fields: [String: FieldInForce]) -> String? {
        if fields[pointer] != nil { return pointer }
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        let path =
            "/"
            + tokens.map { $0.allSatisfy(\.isNumber) && !$0.isEmpty ? "-" : JSONPointer.escape($0) }
            .joined(separator: "/")
        return fields[path] != nil ? path : nil
    }

    /// The values a field is tried with, the likeliest first: its options; a sample of each of its formats; text of
    /// its bounds' lengths in letters, digits and common shapes; its bounds for a number.
    static func alternatives(_ dataType: DataType, _ rules: Rules, now: Date) -> [SchemaValue] {
        if let options = rules.enumValues, !options.isEmpty { return options }
        switch dataType {
        case .object: return [.object([])]
        case .array: return [.array([])]
        case .boolean: return [.boolean(true), .boolean(false)]
        case .integer, .number:
            let range = rules.valueRange
            return ([range.lower, range.upper].compactMap { $0 } + ["0", "1"].map { DecimalNumber(lexeme: $0) })
                .map { .number($0) }
        case .date: return [.string(Self.date(now, years: 1))]
        case .dateTime: return [.string(Self.date(now, years: 1) + "T00:00:00Z")]
        case .string:
            let samples =
                rules.formatList.compactMap { sample(of: $0, now: now) }
                + rules.validationList.compactMap(\.regex).compactMap(PatternSample.sample(of:))
            let lengths = rules.effectiveLengths
            let shortest = max(lengths.lower ?? 1, 1)
            let shapes = [
                "A", "1", "a", "AB", "12", "AB12", "1234", "123456", "12345678", "1234567890", "abc", "ABC",
                "+1 123456789", "user@example.com", "https://example.com",
            ]
            let fitting = shapes.filter { $0.count >= shortest && $0.count <= (lengths.upper ?? Int.max) }
            let padded = ["A", "1", "a"].map { String(repeating: $0, count: shortest) }
            var seen: Set<String> = []
            return (samples + fitting + padded).filter { seen.insert($0).inserted }.map { .string($0) }
        }
    }

    /// A value of the format that its check accepts.
    private static func sample(of format: Format, now: Date) -> String? {
        switch format {
        case .iso4217, .iso4217OrWithdrawn: "EUR"
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn: "DE"
        case .cardNumber, .cardNumberWithSeparators, .luhn: "4111111111111111"
        case .hex: "00ff"
        case .base64: "AAAA"
        case .pemCertificate: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"
        case .uuid: "00000000-0000-4000-8000-000000000000"
        case .date: Self.date(now, years: 1)
        case .dateTime: Self.date(now, years: 1) + "T00:00:00Z"
        case .cardExpiry: "12/" + String(Self.date(now, years: 2).prefix(4).suffix(2))
        }
    }

    /// `YYYY-01-01`, some years after `now`'s year (UTC).
    private static func date(_ now: Date, years: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return String(format: "%04d-01-01", calendar.component(.year, from: now) + years)
    }
}

/// A string a simple regex matches, for payloads made from a schema: literals, `.`, classes (`[0-9A-Z]`, `\d`, `\w`,
/// `\s`), groups with alternatives (the first taken), and quantifiers (`?`, `*`, `+`, `{n}`, `{n,m}`; the fewest
/// repetitions taken, one for `+`). `nil` for anything else (lookarounds, backreferences, negated classes): the value
/// is checked against the schema after, so a sample is a guess that must still pass.
enum PatternSample {
    static func sample(of pattern: String) -> String? {
        var characters = Array(pattern)[...]
        if characters.first == "^" { characters = characters.dropFirst() }
        if characters.last == "$", characters.dropLast().last != "\\" { characters = characters.dropLast() }
        return alternatives(&characters, closing: false)?.first
    }

    /// A string for each top-level branch of the regex (`PHYSICAL|VIRTUAL`: both) that the sampler can write.
    static func samples(ofBranches pattern: String) -> [String] {
        var characters = Array(pattern)[...]
        if characters.first == "^" { characters = characters.dropFirst() }
        if characters.last == "$", characters.dropLast().last != "\\" { characters = characters.dropLast() }
        return alternatives(&characters, closing: false) ?? []
    }

    /// A sample of each alternative of a sequence, up to its end (or a `)` when `closing`).
    private static func alternatives(_ characters: inout ArraySlice<Character>, closing: Bool) -> [String]? {
        var found: [String] = []
        var current = ""
        while let character = characters.first {
            if character == ")" && closing { break }
            if character == "|" {
                characters = characters.dropFirst()
                found.append(current)
                current = ""
                continue
            }
            guard let (atom, rest) = atom(characters) else { return nil }
            characters = rest
            guard let count = repetitions(&characters) else { return nil }
            current += String(repeating: atom, count: count)
        }
        return found + [current]
    }

    /// One atom's sample and what follows it.
    private static func atom(_ characters: ArraySlice<Character>) -> (String, ArraySlice<Character>)? {
        guard let character = characters.first else { return nil }
        var rest = characters.dropFirst()
        switch character {
        case "\\":
            guard let escaped = rest.first else { return nil }
            rest = rest.dropFirst()
            switch escaped {
            case "d": return ("1", rest)
            case "w": return ("a", rest)
            case "s": return (" ", rest)
            case _ where escaped.isLetter || escaped.isNumber: return nil
            default: return (String(escaped), rest)
            }
        case "[":
            guard rest.first != "^", let end = rest.firstIndex(of: "]"), end > rest.startIndex else { return nil }
            let first = rest[rest.startIndex]
            let sample: String
            if first == "\\" {
                let escaped = rest.dropFirst().first
                sample = escaped == "d" ? "1" : escaped == "w" ? "a" : escaped.map(String.init) ?? ""
            } else {
                sample = String(first)
            }
            return sample.isEmpty ? nil : (sample, rest[(end + 1)...])
        case "(":
            if rest.first == "?" {
                guard rest.dropFirst().first == ":" else { return nil }
                rest = rest.dropFirst(2)
            }
            guard let inner = alternatives(&rest, closing: true)?.first, rest.first == ")" else { return nil }
            return (inner, rest.dropFirst())
        case ".": return ("a", rest)
        case "*", "+", "?", "{", ")", "|", "^", "$": return nil
        default: return (String(character), rest)
        }
    }

    /// The fewest repetitions a quantifier asks for (one without a quantifier), the quantifier consumed.
    private static func repetitions(_ characters: inout ArraySlice<Character>) -> Int? {
        var count = 1
        switch characters.first {
        case "?", "*":
            count = 0
            characters = characters.dropFirst()
        case "+":
            characters = characters.dropFirst()
        case "{":
            guard let end = characters.firstIndex(of: "}") else { return nil }
            let bounds = characters[characters.index(after: characters.startIndex)..<end]
                .split(separator: ",", omittingEmptySubsequences: false)
            guard let lower = bounds.first.flatMap({ Int(String($0)) }) else { return nil }
            count = lower
            characters = characters[(end + 1)...]
        default:
            return 1
        }
        if characters.first == "?" || characters.first == "+" { characters = characters.dropFirst() }
        return count
    }
}
