public import Foundation

extension MessageCatalogue {
    /// This catalogue with an app's own words from a String Catalog (an Xcode `.xcstrings` file, which is JSON), in the
    /// catalogue's language: the catalogue's words stay wherever the String Catalog has none.
    ///
    /// The String Catalog's keys say what they word:
    ///
    /// - `message.CODE` and `message.CODE.VARIANT`: a rule's message, as a catalogue's `messages` key it
    ///   (`message.required`, `message.maxLength.count`), with `{placeholders}` as there.
    /// - `term.KEY`: a term (`term.group.CARD_INFORMATION`, a form's group title; `term.summary.errors`).
    /// - Any other key: a schema's text (a field's label, placeholder or help, a message of the schema's own) by its
    ///   English text, as Xcode keys `Text("Card number")`: `"Card number"` words every field the schemas call so.
    ///
    /// A message or term with plural variations (`one`, `few`, `many`, `other`, and `zero`) is chosen by CLDR's rule of
    /// the language for the number it counts (``phrase(_:count:_:)``). The localization read is the catalogue's
    /// language's (`de`), else the first of a regional variant of it (`de-AT`); a device variation reads its `other`
    /// device. Keys without a localization in the language are left alone.
    ///
    /// ```swift
    /// let words = try MessageCatalogue.bundled(language: "de")
    ///     .overriding(stringCatalog: Data(contentsOf: Bundle.main.url(forResource: "Validation", withExtension: "xcstrings")!))
    /// let form = try FormModel(validator.prepare("payment-account", tenderType: "credit", messages: words))
    /// ```
    ///
    /// - Parameter stringCatalog: The `.xcstrings` file's bytes.
    /// - Returns: The catalogue with the app's words.
    /// - Throws: ``ValidatorError`` (`invalidCatalogue`) for a file that is not a String Catalog, naming the JSON Pointer,
    ///   line and column of what is wrong: a key's localization that is not an object of string units, a message of an
    ///   unknown rule, a template with an unknown placeholder.
    public func overriding(stringCatalog: Data) throws(ValidatorError) -> MessageCatalogue {
        let read = try StringCatalogReader(bytes: [UInt8](stringCatalog), language: language)
        var templates = self.templates
        var terms = self.terms
        var texts = self.texts
        for entry in read.entries {
            if entry.key.hasPrefix("message.") {
                let key = String(entry.key.dropFirst("message.".count))
                try read.checkRule(key, at: entry)
                for (form, text) in entry.forms {
                    let name = form.map { key + "." + $0 } ?? key
                    do {
                        templates[name] = try MessageTemplate(text)
                    } catch {
                        throw read.failure(error.problem, at: entry.node, key: entry.key, cause: error)
                    }
                }
            } else if entry.key.hasPrefix("term.") {
                let key = String(entry.key.dropFirst("term.".count))
                for (form, text) in entry.forms { terms[form.map { key + "." + $0 } ?? key] = text }
            } else if let text = entry.forms.first(where: { $0.form == nil })?.text ?? entry.forms.first?.text {
                texts[entry.key] = text
            }
        }
        return MessageCatalogue(language: language, templates: templates, terms: terms, texts: texts)
    }
}

/// The strings of a String Catalog in one language: each key's text, or its plural forms.
private struct StringCatalogReader {
    struct Entry {
        var key: String
        /// Where the key's localization is, for a message.
        var node: JSONDocument.Index
        /// The texts by plural form: `nil` for the only text or `other`, else `one`, `few`, ….
        var forms: [(form: String?, text: String)]
    }

    let document: JSONDocument
    private(set) var entries: [Entry] = []

    init(bytes: [UInt8], language: String) throws(ValidatorError) {
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            throw ValidatorError(
                code: .invalidCatalogue, message: "the String Catalog is not JSON: \(error)", cause: error)
        }
        guard document.kind(of: document.root) == .object, let strings = document.member("strings", of: document.root),
            document.kind(of: strings) == .object
        else {
            throw ValidatorError(
                code: .invalidCatalogue,
                message: "a String Catalog (.xcstrings) is an object with 'strings' (key to its localizations)")
        }
        for (key, entry) in document.members(of: strings) {
            let name = document.string(at: key)
            guard document.kind(of: entry) == .object else {
                throw failure("a key's entry is an object", at: entry, key: name)
            }
            guard let localizations = document.member("localizations", of: entry) else { continue }
            guard document.kind(of: localizations) == .object else {
                throw failure("'localizations' is an object of languages", at: localizations, key: name)
            }
            guard let localization = Self.localization(in: localizations, of: document, for: language) else { continue }
            var forms: [(form: String?, text: String)] = []
            try collect(localization, form: nil, key: name, into: &forms)
            if !forms.isEmpty { entries.append(Entry(key: name, node: localization, forms: forms)) }
        }
    }

    /// The localization of a language: its own, else its first regional variant's (`de-AT` for `de`).
    private static func localization(
        in localizations: JSONDocument.Index, of document: JSONDocument, for language: String
    ) -> JSONDocument.Index? {
        var regional: JSONDocument.Index?
        for (key, value) in document.members(of: localizations) {
            let tag = document.string(at: key).lowercased()
            if tag == language.lowercased() { return value }
            if regional == nil, MessageCatalogue.primaryLanguage(of: tag) == language.lowercased() { regional = value }
        }
        return regional
    }

    /// A localization's texts: its `stringUnit`'s value, or each plural form's, or the `other` device's.
    private func collect(
        _ node: JSONDocument.Index, form: String?, key: String, into forms: inout [(form: String?, text: String)]
    ) throws(ValidatorError) {
        guard document.kind(of: node) == .object else {
            throw failure("a localization is an object with 'stringUnit' or 'variations'", at: node, key: key)
        }
        if let unit = document.member("stringUnit", of: node) {
            guard document.kind(of: unit) == .object, let value = document.member("value", of: unit),
                document.kind(of: value) == .string
            else { throw failure("a 'stringUnit' is an object with a string 'value'", at: unit, key: key) }
            forms.append((form, document.string(at: value)))
            return
        }
        guard let variations = document.member("variations", of: node) else { return }
        guard document.kind(of: variations) == .object else {
            throw failure("'variations' is an object ('plural' or 'device')", at: variations, key: key)
        }
        if let plural = document.member("plural", of: variations) {
            guard document.kind(of: plural) == .object else {
                throw failure("'plural' is an object of plural forms", at: plural, key: key)
            }
            for (name, value) in document.members(of: plural) {
                let category = document.string(at: name)
                guard let known = PluralCategory(rawValue: category) else {
                    let forms = PluralCategory.allCases.map(\.rawValue)
                    throw failure(
                        "unknown plural form '\(category)'\(Suggestion.hint(for: category, in: forms))", at: name,
                        key: key)
                }
                try collect(value, form: known == .other ? nil : known.rawValue, key: key, into: &forms)
            }
        } else if let device = document.member("device", of: variations), document.kind(of: device) == .object,
            let other = document.member("other", of: device)
        {
            try collect(other, form: form, key: key, into: &forms)
        }
    }

    /// Checks that a `message.` key names a rule a catalogue words: a code of the engine's, or a key of the English
    /// catalogue's (with a variant of its own after the code).
    func checkRule(_ key: String, at entry: Entry) throws(ValidatorError) {
        let code = String(key.prefix { $0 != "." })
        guard !Self.ruleCodes.contains(code) else { return }
        throw failure(
            "no rule '\(code)' has a message\(Suggestion.hint(for: code, in: Self.ruleCodes.sorted()))",
            at: entry.node, key: entry.key)
    }

    /// The codes a catalogue words: the engine's, and those of the English catalogue's keys.
    private static let ruleCodes = Set(ViolationCode.catalogue.map(\.code.rawValue)).union(
        MessageCatalogue.english.templates.keys.map { String($0.prefix { $0 != "." }) })

    /// What is wrong at a node of the String Catalog, with its key, JSON Pointer, line and column.
    func failure(
        _ problem: String, at node: JSONDocument.Index, key: String, cause: (any Error)? = nil
    ) -> ValidatorError {
        let position = document.position(of: node)
        return ValidatorError(
            code: .invalidCatalogue,
            message:
                "String Catalog, key '\(key)' at \(document.pointer(to: node)) (line \(position.line), column \(position.column)): \(problem)",
            cause: cause)
    }
}

extension MessageCatalogue {
    /// A BCP 47 tag's primary language subtag, lowercased (`de-AT`, `de_CH` → `de`).
    static func primaryLanguage(of tag: String) -> String {
        (tag.split(maxSplits: 1, omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }.first.map {
            $0.lowercased()
        }) ?? ""
    }
}
