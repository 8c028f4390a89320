import DCEEngine
import DCEReports
import Foundation
import Testing

/// Messages: a default per rule code, a field's own message per rule, and catalogues per language.
struct MessageTests {
    private let pin = #"{"currency": "EUR", "programName": "P", "cardPin": "12a4"}"#

    @Test(arguments: MessageCatalogue.bundledLanguages)
    func everyRuleHasAMessageInEveryShippedLanguage(language: String) throws {
        let catalogue = try MessageCatalogue.bundled(language: language)
        #expect(catalogue.language == language)
        for (code, _) in ViolationCode.catalogue {
            #expect(catalogue.has(code), "\(language) has no message for \(code)")
        }
    }

    /// A payload that could not be read is invalid, with one `unreadable` violation whose message gives the reason
    /// in the prepared language.
    @Test func anUnreadablePayloadGetsAReportInThePreparedLanguage() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        let english = try validator.prepare("card-create").unreadableReport(reason: "it is a FIFO")
        #expect(!english.valid)
        #expect(english.errors.map(\.rule) == [.unreadable])
        #expect(english.errors.map(\.message) == ["cannot read the payload: it is a FIFO"])
        #expect(english.errors.first?.path == "" && english.errors.first?.line == nil)
        let german = try validator.prepare("card-create", messages: .bundled(language: "de")).unreadableReport(
            reason: "no such file")
        #expect(german.errors.map(\.message) == ["die Anfrage kann nicht gelesen werden: no such file"])
    }

    /// A language is asked for by its BCP 47 tag as a locale gives it: the primary subtag decides; an app can follow
    /// the caller's preferred languages, in order, falling back to English.
    @Test func languagesByTheirTags() throws {
        for tag in ["de", "de-AT", "de_CH", "DE", "de-Latn-DE"] {
            #expect(MessageCatalogue.bundledLanguage(for: tag) == "de", "\(tag)")
            #expect(try MessageCatalogue.bundled(language: tag).language == "de", "\(tag)")
        }
        for tag in ["it-IT", "", "-de", "deu"] {
            #expect(MessageCatalogue.bundledLanguage(for: tag) == nil, "\(tag)")
            #expect(throws: ValidatorError.self) { try MessageCatalogue.bundled(language: tag) }
        }
        #expect(MessageCatalogue.bundled(preferring: ["it-IT", "de-AT", "en-GB"]).language == "de")
        #expect(MessageCatalogue.bundled(preferring: ["en-US", "de"]).language == "en")
        #expect(MessageCatalogue.bundled(preferring: ["pt", "fr-CA"]).language == "fr")
        #expect(MessageCatalogue.bundled(preferring: ["bg-BG"]).language == "bg")
        #expect(MessageCatalogue.bundled(preferring: ["pt", "it"]).language == "en")
        #expect(MessageCatalogue.bundled(preferring: []).language == "en")
    }

    @Test func reportsAreEnglishUnlessAnotherLanguageIsChosen() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        let english = try validator.prepare("card-create", context: ["region": "EU"]).validate(json: Array(pin.utf8))
        #expect(english.errors.map(\.message).contains("Card PIN must be exactly 4 digits"))
        let german = try validator.prepare("card-create", context: ["region": "EU"], messages: .bundled(language: "de"))
            .validate(json: Array(#"{"currency": 1, "cardPin": "12a4"}"#.utf8))
        #expect(
            german.errors.map(\.message) == [
                "Die Karten-PIN muss aus genau 4 Ziffern bestehen",  // the schema's own German text for the rule
                // the catalogue's, with its own terms and the German label
                "Währung muss eine Zeichenkette sein, nicht eine Zahl",
                "Programmname ist ein Pflichtfeld",
            ])
        #expect(german.errors.map(\.rule) == [.regex, .type, .required])
    }

    @Test func aFieldsOwnMessagePerRuleWinsAndFallsBackByLanguage() throws {
        let schema = #"""
            {"id": "s", "fields": [
              {"key": "code", "name": "Code", "dataType": "String", "required": true, "maxLength": 3,
               "messages": {"maxLength": "{name}: {max} at most, please", "required": {"de": "Bitte {name} angeben"}},
               "overrides": [{"when": {"context": "strict", "equals": "yes"}, "maxLength": 2,
                              "messages": {"maxLength": "strict: {max}"}}]}
            ], "contexts": {"strict": {"values": ["yes", "no"]}}}
            """#
        let validator = try Fixtures.validator(["s": schema])
        let german = try MessageCatalogue.bundled(language: "de")
        func messages(_ json: String, context: [String: String] = [:], _ catalogue: MessageCatalogue = .english) throws
            -> [String]
        {
            try validator.prepare("s", context: context, messages: catalogue).validate(json: Array(json.utf8)).errors
                .map(\.message)
        }
        #expect(try messages(#"{"code": "ABCD"}"#) == ["Code: 3 at most, please"])  // "*": every language
        #expect(try messages(#"{"code": "ABCD"}"#, german) == ["Code: 3 at most, please"])
        // overrides merge per rule
        #expect(try messages(#"{"code": "ABC"}"#, context: ["strict": "yes"]) == ["strict: 2"])
        #expect(try messages("{}", german) == ["Bitte Code angeben"])
        #expect(try messages("{}") == ["Code is required"])  // no English text for the rule: the catalogue's
    }

    @Test func schemaMessagesAreCheckedWhenCompiled() throws {
        let placeholder =
            #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "messages": {"maxLength": "{nam} too long"}}]}"#
        let error = try #require(throws: SchemaError.self) { try Fixtures.validator(["s": placeholder]) }
        #expect(error.description.contains("unknown placeholder '{nam}' (did you mean 'name'?)"))
        #expect(error.problems.first?.location.pointer == "/fields/0/messages/maxLength")
        let rule =
            #"{"id": "s", "fields": [{"key": "v", "dataType": "String", "messages": {"maxLenght": "too long"}}]}"#
        let ruleError = try #require(throws: SchemaError.self) { try Fixtures.validator(["s": rule]) }
        #expect(ruleError.description.contains("'maxLenght' is not a rule code (did you mean 'maxLength'?)"))
        #expect(ruleError.problems.first?.location.pointer == "/fields/0/messages/maxLenght")
    }

    /// An app's catalogue for a language the package does not ship: its own messages, English for the rest, and the
    /// schemas' English labels and messages (they give none in that language).
    @Test func anAppCanBringItsOwnLanguageAndMissingMessagesFallBackToEnglish() throws {
        let italian = try MessageCatalogue(
            json: Data(#"{"language": "it", "messages": {"required": "{name} è obbligatorio"}}"#.utf8))
        let validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        let report = try validator.prepare("card-create", context: ["region": "EU"], messages: italian)
            .validate(json: Array(#"{"currency": "EURO", "cardPin": "123"}"#.utf8))
        #expect(
            report.errors.map(\.message) == [
                "Card PIN must be exactly 4 digits", "Currency must be an ISO 4217 currency code",
                "Program name è obbligatorio",
            ])
        #expect(italian.adding(.reports).phrase("summary.errors", count: 2) == "2 errors")
        #expect(throws: ValidatorError.self) {
            try MessageCatalogue(json: Data(#"{"language": "fr", "messages": {"x": "{bad}"}}"#.utf8))
        }
        #expect(throws: ValidatorError.self) { try MessageCatalogue.bundled(language: "xx") }
        // A name given twice counts with its last value, as Foundation's JSONSerialization read catalogues.
        let twice = try MessageCatalogue(
            json: Data(
                #"{"language": "fr", "language": "de", "messages": {}, "terms": {"x": "a", "x": "{n} Fehler"}}"#.utf8))
        #expect(twice.language == "de")
        #expect(twice.phrase("x", ["n": "2"]) == "2 Fehler")
        #expect(throws: ValidatorError.self) {
            try MessageCatalogue(json: Data(#"{"language": "de", "messages": {"null": 1}}"#.utf8))
        }
    }

    /// Catalogue entries are found by the code's place among the engine's codes, variants by name, and format
    /// names through the catalogue's terms; a code rebuilt from its identifier (as a decoded report has it) is
    /// the same code and finds the same message.
    @Test func variantsTermsAndCodesRebuiltFromTheirIdentifierFindTheirMessages() throws {
        let catalogue = try MessageCatalogue(
            json: Data(
                #"""
                {"language": "fr", "messages": {"minLength": "{name}: {min} minimum", "minLength.count": "{name}: {min} minimum, pas {count}",
                 "format": "{name} n'est pas {expected}"}, "terms": {"format.luhn": "un numéro Luhn", "or": " ou "}}
                """#.utf8))
        let schema =
            #"{"id": "s", "fields": [{"key": "code", "dataType": "String", "minLength": 5, "format": ["luhn", "hex"]}]}"#
        let validator = try Fixtures.validator(["s": schema])
        let report = try validator.prepare("s", messages: catalogue).validate(json: Array(#"{"code": "12z"}"#.utf8))
        #expect(
            report.errors.map(\.message) == [
                // no French term for hex
                "code n'est pas un numéro Luhn ou hexadecimal (an even number of 0-9, a-f, A-F)",
                "code: 5 minimum, pas 3",
            ])
        for (offset, entry) in ViolationCode.catalogue.enumerated() {
            let rebuilt = ViolationCode(rawValue: entry.code.rawValue)
            #expect(rebuilt == entry.code && rebuilt.hashValue == entry.code.hashValue, "code \(offset)")
            let decoded = try JSONDecoder().decode(ViolationCode.self, from: Data("\"\(entry.code.rawValue)\"".utf8))
            #expect(decoded == entry.code)
            #expect(catalogue.has(rebuilt) == catalogue.has(entry.code))
        }
        #expect(ViolationCode(rawValue: "custom.rule") != .minLength)
    }

    @Test func theLengthOfASensitiveValueIsNotShown() throws {
        let schema = #"""
            {"id": "s", "fields": [{"key": "pin", "dataType": "String", "maxLength": 4, "storageRestricted": true},
                                   {"key": "nick", "dataType": "String", "maxLength": 4}]}
            """#
        let report = try Fixtures.validator(["s": schema]).validate(
            json: Array(#"{"pin": "123456", "nick": "abcdef"}"#.utf8), schema: "s")
        #expect(
            report.errors.map(\.message) == [
                "nick must be at most 4 characters (it has 6)", "pin must be at most 4 characters",
            ])
    }
}
