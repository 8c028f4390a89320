public import Foundation

/// The messages of every rule in one language, keyed by the stable rule code.
///
/// A catalogue is a JSON file: `language`, `messages` (a template per rule code, with optional variants such as
/// `required.null` or `maxLength.count`) and `terms` (how the language names types, formats and JSON kinds).
/// Templates name their parameters in braces: `{name}`, `{min}`, `{max}`, `{count}`, `{expected}`, `{found}`,
/// `{pattern}`, `{key}`, `{suggestion}`, `{detail}`. English and German ship with the package; an app adds a
/// language by loading its own file:
///
/// ```swift
/// let prepared = try validator.prepare("card-create", context: ["region": "EU"], messages: .bundled(language: "de"))
/// let french = try MessageCatalogue(json: Data(contentsOf: frenchURL))
/// ```
///
/// A message or term the catalogue lacks falls back to English, so a partial translation still reads.
public struct MessageCatalogue: Sendable, Hashable {
    /// The language code (`en`, `de`), matched against per-language messages in schemas.
    public var language: String { tables.language }
    var templates: [String: MessageTemplate] { tables.templates }
    /// `templates` grouped by rule (see ``RuleTemplates``).
    var rules: [String: RuleTemplates] { tables.rules }
    /// The same groups for the engine's own codes, by ``ViolationCode/ordinal``.
    var builtIn: [RuleTemplates?] { tables.builtIn }
    var terms: [String: String] { tables.terms }
    /// How this language names each format (`terms` `format.<name>`, else the English article).
    var formatTerms: [Format: String] { tables.formatTerms }
    /// An app's words for a schema's texts (labels, placeholders, help, messages), by their English text
    /// (``overriding(stringCatalog:)``).
    var texts: [String: String] { tables.texts }
    /// Everything above in one object: a copy of the catalogue (one per prepared schema, read for every violation
    /// by every thread) takes one reference count instead of one per table.
    private let tables: Tables

    private final class Tables: Sendable {
        let language: String
        let templates: [String: MessageTemplate]
        let rules: [String: RuleTemplates]
        let builtIn: [RuleTemplates?]
        let terms: [String: String]
        let formatTerms: [Format: String]
        let texts: [String: String]

        init(
            language: String, templates: [String: MessageTemplate], terms: [String: String],
            texts: [String: String] = [:]
        ) {
            self.language = language
            self.texts = texts
            self.templates = templates
            let rules = MessageCatalogue.rules(templates)
            self.rules = rules
            self.builtIn = ViolationCode.catalogue.map { rules[$0.code.rawValue] }
            self.terms = terms
            // English's own terms are the fallback of every other language; English itself falls back to the code's.
            let fallback = language == "en" ? nil : MessageCatalogue.english.tables.formatTerms
            self.formatTerms = Dictionary(
                uniqueKeysWithValues: Format.allCases.map {
                    ($0, terms["format.\($0.rawValue)"] ?? fallback?[$0] ?? $0.article)
                })
        }
    }

    /// Whether two catalogues have the same language, messages, terms and texts.
    public static func == (lhs: MessageCatalogue, rhs: MessageCatalogue) -> Bool {
        lhs.tables === rhs.tables
            || (lhs.language == rhs.language && lhs.templates == rhs.templates && lhs.terms == rhs.terms
                && lhs.texts == rhs.texts)
    }

    /// Hashes the language, messages, terms and texts.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(language)
        hasher.combine(templates)
        hasher.combine(terms)
        hasher.combine(texts)
    }

    /// The placeholders a template may use.
    public static let parameters: Set<String> = [
        "name", "min", "max", "count", "expected", "found", "pattern", "key", "suggestion", "detail",
    ]

    /// Reads a catalogue.
    ///
    /// - Parameter json: The catalogue file's bytes.
    /// - Throws: ``ValidatorError`` when the file is not a catalogue or a template names an unknown placeholder.
    public init(json: Data) throws(ValidatorError) {
        func notACatalogue(_ cause: (any Error)?) -> ValidatorError {
            ValidatorError(
                code: .invalidCatalogue,
                message: "a message catalogue is an object with 'language' and 'messages' (rule code to text)",
                cause: cause)
        }
        let file = try Self.sections(of: [UInt8](json), "messages", "terms", or: notACatalogue)
        guard let language = file.language, let messages = file.sections["messages"] else { throw notACatalogue(nil) }
        var templates: [String: MessageTemplate] = [:]
        for (key, text) in messages {
            do {
                templates[key] = try MessageTemplate(text)
            } catch {
                throw ValidatorError(
                    code: .invalidCatalogue, message: "catalogue '\(language)', message '\(key)': \(error.problem)",
                    cause: error)
            }
        }
        self.tables = Tables(language: language, templates: templates, terms: file.sections["terms"] ?? [:])
    }

    /// A catalogue file's `language` and its objects of strings by name (a name given twice: its last value, as
    /// `JSONSerialization` read it), read with the engine's own reader: Foundation's JSONSerialization took a
    /// twentieth of a command-line run. A section that is not an object of strings is left out.
    ///
    /// - Throws: What `failure` makes of the cause (a reading error, or `nil` for a file that is not an object).
    static func sections(
        of bytes: [UInt8], _ names: String..., or failure: ((any Error)?) -> ValidatorError
    ) throws(ValidatorError) -> (language: String?, sections: [String: [String: String]]) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            throw failure(error)
        }
        guard document.kind(of: document.root) == .object else { throw failure(nil) }
        /// An object of strings by name; `nil` for anything else.
        func strings(_ index: JSONDocument.Index) -> [String: String]? {
            guard document.kind(of: index) == .object else { return nil }
            var strings: [String: String] = [:]
            for (member, text) in document.members(of: index) {
                guard document.kind(of: text) == .string else { return nil }
                strings[document.string(at: member)] = document.string(at: text)
            }
            return strings
        }
        var language: String?
        var sections: [String: [String: String]] = [:]
        for (key, value) in document.members(of: document.root) {
            let name = document.string(at: key)
            if name == "language" {
                language = document.kind(of: value) == .string ? document.string(at: value) : nil
                continue
            }
            guard names.contains(name) else { continue }
            sections[name] = strings(value)
        }
        return (language, sections)
    }

    /// The English messages every report uses unless told otherwise.
    public static let english: MessageCatalogue = (try? bundled(language: "en")) ?? MessageCatalogue(language: "en")

    /// The languages shipped with the package: English, German, French, Spanish and Bulgarian.
    public static let bundledLanguages = ["bg", "de", "en", "es", "fr"]

    /// Every shipped catalogue, read once.
    static let shipped: [MessageCatalogue] = bundledLanguages.compactMap { try? bundled(language: $0) }

    /// The shipped language a BCP 47 tag asks for: its primary language subtag, in any case and with `-` or `_`
    /// before a region or script (`de-AT`, `de_CH`, `DE`, `de-Latn-DE` → `de`); `nil` when the package does not ship it.
    ///
    /// - Parameter tag: A language tag, as `Locale` or an `Accept-Language` header gives it.
    /// - Returns: One of ``bundledLanguages``, or `nil`.
    public static func bundledLanguage(for tag: String) -> String? {
        let primary = primaryLanguage(of: tag)
        return bundledLanguages.contains(primary) ? primary : nil
    }

    /// The shipped catalogue of the first language the caller prefers that the package ships, English when it ships
    /// none of them: an app passes nothing to follow the device's languages in their order.
    ///
    /// - Parameter languages: BCP 47 tags, most preferred first (default: `Locale.preferredLanguages`).
    /// - Returns: The catalogue.
    public static func bundled(preferring languages: [String] = Locale.preferredLanguages) -> MessageCatalogue {
        for tag in languages {
            if let language = bundledLanguage(for: tag), let catalogue = try? bundled(language: language) {
                return catalogue
            }
        }
        return english
    }

    /// A catalogue shipped with the package.
    ///
    /// - Parameter language: `en` or `de`, or a BCP 47 tag whose language is one of them (`de-AT`; see
    ///   ``bundledLanguage(for:)``).
    /// - Throws: ``ValidatorError`` with code `unknownLanguage` for a language the package does not ship.
    public static func bundled(language: String) throws(ValidatorError) -> MessageCatalogue {
        func unknown(_ cause: (any Error)?) -> ValidatorError {
            ValidatorError(
                code: .unknownLanguage,
                message:
                    "no message catalogue for '\(language)' (shipped: \(bundledLanguages.joined(separator: ", ")))",
                cause: cause)
        }
        guard let shipped = bundledLanguage(for: language),
            let url = Bundle.module.url(forResource: shipped, withExtension: "json", subdirectory: "Messages")
        else {
            throw unknown(nil)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw unknown(error)
        }
        return try MessageCatalogue(json: data)
    }

    private init(language: String) {
        tables = Tables(language: language, templates: [:], terms: [:])
    }

    /// A catalogue of these tables (``adding(_:)``, ``overriding(stringCatalog:)``).
    init(
        language: String, templates: [String: MessageTemplate], terms: [String: String],
        texts: [String: String] = [:]
    ) {
        tables = Tables(language: language, templates: templates, terms: terms, texts: texts)
    }

    /// A schema's text (a label, a placeholder, a help text, a message of its own) in this catalogue's language: the
    /// app's word for it when its String Catalog has one (keyed by the English text), else the schema's.
    package func text(_ localized: LocalizedText) -> String {
        if !tables.texts.isEmpty, let text = tables.texts[localized.english] { return text }
        return localized.text(in: language)
    }

    /// The message for a rule: the first of `rule.variant` and `rule` this catalogue or English has; with a `count`,
    /// its plural form in the language first (`rule.variant.one`, ``PluralCategory``).
    func message(
        _ rule: ViolationCode, variant: String? = nil, count: Int? = nil, _ parameters: MessageParameters
    ) -> String {
        if let template = messageTemplate(rule, variant: variant, count: count) { return template.render(parameters) }
        return Self.withoutTemplate(rule, parameters)
    }

    /// ``message(_:variant:count:_:)`` written piece by piece into `sink`.
    func message(
        _ rule: ViolationCode, variant: String? = nil, count: Int? = nil, _ parameters: MessageParameters,
        into sink: inout some MessageSink
    ) {
        if let template = messageTemplate(rule, variant: variant, count: count) {
            return template.render(parameters, into: &sink)
        }
        sink.write(Self.withoutTemplate(rule, parameters))
    }

    /// The template of a rule's message: the first of `rule.variant.FORM` (the count's plural forms), `rule.variant`
    /// and `rule` this catalogue has, else English has.
    private func messageTemplate(_ rule: ViolationCode, variant: String?, count: Int?) -> MessageTemplate? {
        if let template = pluralTemplate(rule, variant: variant, count: count) { return template }
        if language != "en" { return MessageCatalogue.english.pluralTemplate(rule, variant: variant, count: count) }
        return nil
    }

    /// This catalogue's template of a rule for a count: `rule.variant.FORM`, `rule.variant`, `rule.FORM`, `rule`, the
    /// first it has (a catalogue may word a variant without its plural forms, or the forms without the variant).
    private func pluralTemplate(_ rule: ViolationCode, variant: String?, count: Int?) -> MessageTemplate? {
        guard let count else { return template(rule, variant: variant) }
        let forms = PluralCategory.forms(count, language: language)
        var names = variant.map { variant in forms.map { variant + "." + $0 } + [variant] } ?? []
        names += forms
        for name in names { if let template = ownTemplate(rule, variant: name) { return template } }
        return template(rule, variant: nil)
    }

    /// This catalogue's template of exactly `rule.variant`, without falling back to the rule's.
    private func ownTemplate(_ rule: ViolationCode, variant: String) -> MessageTemplate? {
        if rule.ordinal >= 0 && rule.ordinal < builtIn.count { return builtIn[rule.ordinal]?.variant(variant) }
        return rules[rule.rawValue]?.variant(variant) ?? templates[rule.rawValue + "." + variant]
    }

    /// A message for a rule no catalogue words (a rule of another program's).
    private static func withoutTemplate(_ rule: ViolationCode, _ parameters: MessageParameters) -> String {
        "\(parameters.name ?? parameters.key ?? "the value"): \(rule.rawValue)"
    }

    /// This catalogue's own template for a rule: the variant's when it has one, else the rule's.
    private func template(_ rule: ViolationCode, variant: String?) -> MessageTemplate? {
        if rule.ordinal >= 0 && rule.ordinal < builtIn.count {
            guard let entry = builtIn[rule.ordinal] else { return nil }
            if let variant, let template = entry.variant(variant) { return template }
            return entry.base
        }
        if let entry = rules[rule.rawValue] {
            if let variant, let template = entry.variant(variant) { return template }
            if let template = entry.base { return template }
        }
        // A rule code with a dot in it is grouped under its first part: look its keys up whole.
        if let variant, let template = templates[rule.rawValue + "." + variant] { return template }
        return templates[rule.rawValue]
    }

    /// A rule's message and its variants (`minLength` and `minLength.count`), found by one lookup of the rule's
    /// code instead of a key joined for every violation.
    struct RuleTemplates: Sendable, Hashable {
        var base: MessageTemplate?
        /// A handful at most, with short names: compared in turn, which costs less than hashing the name.
        var variants: [Variant] = []

        struct Variant: Sendable, Hashable {
            var name: String
            var template: MessageTemplate
        }

        func variant(_ name: String) -> MessageTemplate? {
            for variant in variants where variant.name == name { return variant.template }
            return nil
        }
    }

    /// Groups templates by rule: `rule.variant` keys become variants of `rule`.
    static func rules(_ templates: [String: MessageTemplate]) -> [String: RuleTemplates] {
        var rules: [String: RuleTemplates] = [:]
        for (key, template) in templates {
            if let dot = key.firstIndex(of: ".") {
                rules[String(key[..<dot]), default: RuleTemplates()].variants.append(
                    .init(name: String(key[key.index(after: dot)...]), template: template))
            } else {
                rules[key, default: RuleTemplates()].base = template
            }
        }
        return rules
    }

    /// Whether this catalogue itself has a message for the rule (without falling back to English).
    ///
    /// - Parameter rule: The rule code.
    /// - Returns: `true` when the catalogue has a template for the code.
    public func has(_ rule: ViolationCode) -> Bool { templates[rule.rawValue] != nil }

    /// How this language names something (`terms`), else how English does, else the key itself.
    package func term(_ key: String) -> String {
        terms[key] ?? (language == "en" ? nil : MessageCatalogue.english.terms[key]) ?? key
    }

    /// A word or phrase of the catalogue's `terms` with its `{placeholders}` filled: what an app or a tool shows around
    /// messages, in English when this catalogue lacks it. The engine's catalogues hold the words validation uses;
    /// a layer above it adds its own (a report's summary line, a form's group titles) from its resources.
    ///
    /// ```swift
    /// MessageCatalogue.english.phrase("label.item", ["name": "Card"])   // "Card item"
    /// ```
    ///
    /// - Parameters:
    ///   - key: The term's key, such as `label.item`.
    ///   - values: The values of its placeholders, by name.
    /// - Returns: The phrase; the key itself when neither this catalogue nor English has it.
    public func phrase(_ key: String, _ values: [String: String] = [:]) -> String {
        Self.filling(term(key), values)
    }

    /// A phrase about a number of things, in the plural form the number takes in this language by the Unicode CLDR's
    /// cardinal rules: `key.one` for one (for French, also zero), `key.few` or `key.many` where the language has
    /// them, `key.zero` for zero where a catalogue words it, else `key`; `{count}` is the number. The forms of one
    /// phrase come from one language: English's are read only when this catalogue lacks the phrase.
    ///
    /// - Parameters:
    ///   - key: The term's key, such as `summary.errors`.
    ///   - count: The number.
    ///   - values: The values of its other placeholders, by name.
    /// - Returns: The phrase.
    public func phrase(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = String(count)
        let own = terms[key] != nil || language == "en"
        let catalogue = own ? self : MessageCatalogue.english
        for form in PluralCategory.forms(count, language: catalogue.language) {
            if let text = catalogue.terms[key + "." + form] { return Self.filling(text, values) }
        }
        return phrase(key, values)
    }

    /// A phrase in every shipped language, such as the label of an array's items (`{name} item`) for a field whose
    /// schema names none.
    static func shippedPhrase(_ key: String, name: LocalizedText? = nil) -> LocalizedText {
        func phrase(_ catalogue: MessageCatalogue) -> String {
            catalogue.phrase(key, ["name": name?.text(in: catalogue.language) ?? ""])
        }
        let others = shipped.filter { $0.language != "en" }.map { ($0.language, phrase($0)) }
        return LocalizedText(phrase(english), translations: Dictionary(uniqueKeysWithValues: others))
    }

    /// A term's `{name}` placeholders filled in one pass over its bytes (`String.replacing` cost a microsecond a
    /// call); a placeholder without a value stays as written.
    static func filling(_ term: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = term[...]
        while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")) {
            result += rest[..<open]
            let name = rest[rest.utf8.index(after: open)...]
            if let close = name.utf8.firstIndex(of: UInt8(ascii: "}")), let value = values[String(name[..<close])] {
                result += value
                rest = name[name.utf8.index(after: close)...]
            } else {
                result += "{"
                rest = name
            }
        }
        return result + rest
    }
}

/// The values a message template may show. None of them is ever a request value.
package struct MessageParameters {
    var name: String?
    var min: String?
    var max: String?
    var count: String?
    var expected: String?
    var found: String?
    var pattern: String?
    var key: String?
    var suggestion: String?
    var detail: String?

    package init(
        name: String? = nil, min: String? = nil, max: String? = nil, count: String? = nil, expected: String? = nil,
        found: String? = nil, pattern: String? = nil, key: String? = nil, suggestion: String? = nil,
        detail: String? = nil
    ) {
        self.name = name
        self.min = min
        self.max = max
        self.count = count
        self.expected = expected
        self.found = found
        self.pattern = pattern
        self.key = key
        self.suggestion = suggestion
        self.detail = detail
    }

    /// A placeholder of a template.
    enum Name: String, Sendable, Hashable {
        case name, min, max, count, expected, found, pattern, key, suggestion, detail
    }

    subscript(parameter: Name) -> String? {
        switch parameter {
        case .name: name
        case .min: min
        case .max: max
        case .count: count
        case .expected: expected
        case .found: found
        case .pattern: pattern
        case .key: key
        case .suggestion: suggestion
        case .detail: detail
        }
    }
}

/// Where a message is written piece by piece: a string, or a report's bytes (``ReportBytes``), so that a report
/// writer writes messages without making a string of each.
protocol MessageSink {
    mutating func write(_ piece: String)
}

extension String: MessageSink {
    mutating func write(_ piece: String) { append(piece) }
}

/// A message with its placeholders found once, when the catalogue or schema is read.
struct MessageTemplate: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case text(String)
        case parameter(MessageParameters.Name)
    }

    struct Problem: Error {
        var problem: String
    }

    let segments: [Segment]

    /// Parses a template; `{{` and `}}` stand for literal braces.
    init(_ text: String) throws(Problem) {
        var segments: [Segment] = []
        var literal = ""
        var pending = Array(text.unicodeScalars)[...]
        while let scalar = pending.popFirst() {
            switch scalar {
            case "{" where pending.first == "{":
                pending.removeFirst()
                literal.unicodeScalars.append("{")
            case "}" where pending.first == "}":
                pending.removeFirst()
                literal.unicodeScalars.append("}")
            case "{":
                guard let close = pending.firstIndex(of: "}") else { throw Problem(problem: "a '{' is never closed") }
                let name = String(String.UnicodeScalarView(pending[..<close]))
                guard let parameter = MessageParameters.Name(rawValue: name) else {
                    let hint = Suggestion.hint(for: name, in: MessageCatalogue.parameters.sorted())
                    throw Problem(problem: "unknown placeholder '{\(name)}'\(hint)")
                }
                if !literal.isEmpty { segments.append(.text(literal)) }
                literal = ""
                segments.append(.parameter(parameter))
                pending = pending[pending.index(after: close)...]
            case "}":
                throw Problem(problem: "a '}' without its '{' (write '}}' for a brace)")
            default:
                literal.unicodeScalars.append(scalar)
            }
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        self.segments = segments
    }

    /// The message with its placeholders filled, written piece by piece into `sink`.
    func render(_ parameters: MessageParameters, into sink: inout some MessageSink) {
        for segment in segments {
            switch segment {
            case .text(let text): sink.write(text)
            case .parameter(let name):
                if let value = parameters[name] { sink.write(value) }
            }
        }
    }

    func render(_ parameters: MessageParameters) -> String {
        // Measured first, so that the string is allocated once, not grown piece by piece.
        var length = 0
        for segment in segments {
            switch segment {
            case .text(let text): length += text.utf8.count
            case .parameter(let name): length += parameters[name]?.utf8.count ?? 0
            }
        }
        var text = ""
        text.reserveCapacity(length)
        for segment in segments {
            switch segment {
            case .text(let piece): text += piece
            case .parameter(let name): if let value = parameters[name] { text += value }
            }
        }
        return text
    }
}
