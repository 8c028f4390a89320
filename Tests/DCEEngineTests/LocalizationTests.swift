import DCEForms
import DCEReports
import Foundation
import Testing

@testable import DCEEngine

/// Every word a person reads, in every shipped language: each catalogue has every message and term English has
/// (and every term the engine asks for), with the same placeholders; every label and schema message of every shipped
/// schema is written in every shipped language.
struct LocalizationTests {
    /// The terms the engine builds keys for from its own lists and the reference data: types, JSON kinds, formats,
    /// address parts, and what the countries call their subdivisions and postal codes.
    private static var generatedTermKeys: Set<String> {
        var keys = Set(DataType.allCases.map { "type.\($0.rawValue)" })
        keys.formUnion(
            ([.null, .boolean, .number, .string, .array, .object] as [JSONDocument.Kind]).map {
                "kind.\($0.description)"
            })
        keys.insert("kind.fraction")
        keys.formUnion(Format.allCases.map { "format.\($0.rawValue)" })
        keys.formUnion([
            "format.card-number.brand", "format.card-number.brand-without-check-digit", "or", "label.request",
            "label.item",
        ])
        keys.formUnion(AddressFormats.Part.allCases.map { "part.\($0.rawValue)" })
        for country in ReferenceData.bundled.addresses.countries {
            keys.insert("subdivision.\(country.subdivisionName)")
            keys.insert("postalCodeName.\(country.postalCodeName)")
        }
        return keys
    }

    /// The placeholders a text names, such as `{name}` and `{count}`.
    private static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: /\{([a-z]+)\}/).map { String($0.output.1) })
    }

    @Test func englishHasEveryTermTheEngineAsksFor() throws {
        let english = try MessageCatalogue.bundled(language: "en")
        let missing = Self.generatedTermKeys.subtracting(english.terms.keys)
        #expect(missing.isEmpty, "en.json lacks \(missing.sorted())")
    }

    @Test(arguments: MessageCatalogue.bundledLanguages)
    func everyShippedCatalogueHasEveryMessageAndTermEnglishHas(language: String) throws {
        let english = try MessageCatalogue.bundled(language: "en")
        let catalogue = try MessageCatalogue.bundled(language: language)
        let messages = try Self.rawCatalogue(language)
        let englishMessages = try Self.rawCatalogue("en")
        for (kind, englishTable, table) in [
            ("message", englishMessages.messages, messages.messages), ("term", englishMessages.terms, messages.terms),
        ] {
            let missing = Set(englishTable.keys).subtracting(table.keys)
            #expect(missing.isEmpty, "\(language) lacks the \(kind)s \(missing.sorted())")
            let extra = Set(table.keys).subtracting(englishTable.keys)
            #expect(extra.isEmpty, "\(language) has \(kind)s English does not: \(extra.sorted())")
            for (key, text) in table {
                #expect(!text.isEmpty, "\(language) \(kind) \(key) is empty")
                if let englishText = englishTable[key] {
                    #expect(
                        Self.placeholders(text) == Self.placeholders(englishText), "\(language) \(kind) \(key): \(text)"
                    )
                }
            }
        }
        #expect(catalogue.language == language)
        #expect(english.terms.count == catalogue.terms.count)
    }

    /// Every `name`, `message` and `messages` text of every shipped schema is written in every shipped language.
    @Test func everyLabelAndSchemaMessageIsInEveryShippedLanguage() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Fixtures.schemas, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json") }
        #expect(files.count == 21)
        var texts = 0
        var gaps: [String] = []
        func check(_ value: Any, at pointer: String) {
            texts += 1
            guard let byLanguage = value as? [String: String] else {
                return gaps.append("\(pointer): a text for English only")
            }
            for language in MessageCatalogue.bundledLanguages where (byLanguage[language] ?? "").isEmpty {
                gaps.append("\(pointer): no \(language)")
            }
        }
        func visit(_ value: Any, at pointer: String) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    let path = pointer + "/" + key
                    switch key {
                    case "name", "message": check(member, at: path)
                    case "messages":
                        for (rule, text) in member as? [String: Any] ?? [:] { check(text, at: path + "/" + rule) }
                    case "examples", "enum", "defaultValue": break
                    default: visit(member, at: path)
                    }
                }
            } else if let array = value as? [Any] {
                for (offset, element) in array.enumerated() { visit(element, at: "\(pointer)/\(offset)") }
            }
        }
        for file in files {
            visit(try JSONSerialization.jsonObject(with: Data(contentsOf: file)), at: file.lastPathComponent + "#")
        }
        #expect(texts > 200)
        #expect(gaps.isEmpty, "\(gaps.count) gaps: \(gaps.prefix(20))")
    }

    /// Labels, the schema's own messages and the catalogue's words in each shipped language, through the public API.
    @Test func aReportReadsInEachShippedLanguage() throws {
        let validator = try Validator(source: .bundled, schemaIDs: ["card-create"])
        let payload = Array(
            #"{"currency": "EUR", "programName": "P", "cardPin": "12a4", "deliveryAddress": {"countryCode": "BG", "postalCode": "10"}}"#
                .utf8)
        let expected = [
            "en": ["Card PIN must be exactly 4 digits", "Postal code must look like 1000 for Bulgaria"],
            "de": [
                "Die Karten-PIN muss aus genau 4 Ziffern bestehen", "Postleitzahl muss wie 1000 aussehen (Bulgarien)",
            ],
            "fr": [
                "Le code PIN de la carte doit comporter exactement 4 chiffres",
                "Code postal doit ressembler à 1000 (Bulgarie)",
            ],
            "es": [
                "El PIN de la tarjeta debe tener exactamente 4 dígitos",
                "Código postal debe tener la forma 1000 (Bulgaria)",
            ],
            "bg": [
                "PIN кодът на картата трябва да се състои от точно 4 цифри",
                "Пощенски код трябва да изглежда като 1000 (България)",
            ],
        ]
        for language in MessageCatalogue.bundledLanguages {
            let report = try validator.prepare(
                "card-create", context: ["region": "EU"], messages: .bundled(language: language)
            ).validate(json: payload)
            let messages = report.errors.filter { $0.path == "/cardPin" || $0.path == "/deliveryAddress/postalCode" }
                .map(\.message)
            #expect(messages == expected[language], "\(language): \(report.errors.map(\.message))")
        }
    }

    @Test func phrasesTakeThePluralFormOfTheirLanguage() throws {
        let english = try MessageCatalogue.bundled(language: "en").adding(.reports)
        let french = try MessageCatalogue.bundled(language: "fr").adding(.reports)
        #expect(english.phrase("summary.errors", count: 1) == "1 error")
        #expect(english.phrase("summary.errors", count: 0) == "0 errors")
        #expect(french.phrase("summary.errors", count: 0) == "0 erreur")  // French counts zero as one
        #expect(french.phrase("summary.errors", count: 2) == "2 erreurs")
        #expect(
            try MessageCatalogue.bundled(language: "bg").adding(.reports)
                .phrase("summary.checked", count: 3, ["schema": "s"])
                == "3 заявки проверени спрямо s")
        #expect(english.phrase("no.such.term") == "no.such.term")
    }

    /// The words of the layers above the engine (`Sources/*/Terms`: the reports', the commands', the forms') are in
    /// every shipped language, with the placeholders English has, and none of them is the engine's: an app that only
    /// validates does not carry a tool's phrase.
    @Test func everyLayersTermsAreInEveryShippedLanguageAndNotInTheEngines() throws {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
            .map { sources.appendingPathComponent($0).appendingPathComponent("Terms") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        #expect(
            folders.map { $0.deletingLastPathComponent().lastPathComponent } == [
                "DCECommandLine", "DCEForms", "DCEReports",
            ])
        let engine = Set(try Self.rawCatalogue("en").terms.keys)
        var every: Set<String> = []
        for folder in folders {
            let book = TermBook(folder: folder)
            #expect(try book.languages() == MessageCatalogue.bundledLanguages.sorted(), "\(folder.path)")
            let english = try #require(try book.terms(in: "en"), "\(folder.path) has no en.json")
            #expect(english.count > 5)
            for language in try book.languages() {
                let terms = try #require(try book.terms(in: language))
                let keys = Set(terms.keys)
                #expect(
                    keys == Set(english.keys),
                    "\(folder.path) \(language): \(keys.symmetricDifference(english.keys).sorted())")
                for (key, text) in terms {
                    #expect(!text.isEmpty, "\(language) \(key) is empty")
                    #expect(
                        Self.placeholders(text) == Self.placeholders(english[key] ?? ""), "\(language) \(key): \(text)")
                }
            }
            let keys = Set(english.keys)
            #expect(
                keys.isDisjoint(with: engine),
                "\(folder.path) repeats the engine's \(keys.intersection(engine).sorted())")
            #expect(keys.isDisjoint(with: every), "\(folder.path) repeats another layer's terms")
            every.formUnion(keys)
        }
        // The bundled books are those folders, read.
        #expect(try TermBook.reports.terms(in: "de")?["summary.errors"] == "{count} Fehler")
        #expect(try TermBook.forms.terms(in: "fr")?["group.none"] != nil)
        #expect(try TermBook.forms.terms(in: "xx") == nil)
    }

    /// A catalogue with a layer's terms: its own wording first (an app's catalogue may word a tool's phrases), then
    /// the book's in its language, then English, a phrase and its singular from the same language.
    @Test func aLayersTermsFillOnlyWhatTheCatalogueLacks() throws {
        let italian = try MessageCatalogue(
            json: Data(#"{"language": "it", "messages": {}, "terms": {"summary.errors": "{count} errori"}}"#.utf8)
        )
        .adding(.reports)
        #expect(italian.phrase("summary.errors", count: 2) == "2 errori")
        #expect(italian.phrase("summary.errors", count: 1) == "1 errori", "no English singular beside Italian plural")
        #expect(italian.phrase("report.omitted", count: 1) == "1 more error not shown")
        #expect(italian.phrase("summary.valid") == MessageCatalogue.english.adding(.reports).phrase("summary.valid"))
        let german = try MessageCatalogue.bundled(language: "de")
        #expect(german.adding(.reports).phrase("summary.errors", count: 2) == "2 Fehler")
        #expect(
            german.phrase("summary.errors", count: 2) == "summary.errors", "the engine's catalogue has no tool words")
    }

    /// A form's title and labels in the language asked for.
    @Test func formLabelsInTheLanguageAsked() throws {
        let schema = try #require(Fixtures.validator.schema("card-create"))
        let german = try schema.describeForm(context: ["region": "EU"], language: "de")
        #expect(german.title == "Prepaidkarte erstellen")
        #expect(german.groups.flatMap(\.fields).first { $0.path == "/deliveryAddress/city" }?.label == "Ort")
        let unknown = try schema.describeForm(context: ["region": "EU"], language: "it")
        #expect(unknown.title == "Create a prepaid card")
    }

    /// A label written for some languages only must still give English, and a language key is an ISO 639 code.
    @Test func aLocalizedTextNeedsEnglishAndLanguageCodes() throws {
        let noEnglish = #"{"id": "s", "fields": [{"key": "v", "name": {"de": "Wert"}, "dataType": "String"}]}"#
        let error = try #require(throws: SchemaError.self) { try Fixtures.validator(["s": noEnglish]) }
        #expect(error.problems.first?.location.pointer == "/fields/0/name")
        #expect(error.description.contains("need 'en'"))
        let badCode =
            #"{"id": "s", "fields": [{"key": "v", "name": {"en": "Value", "German": "Wert"}, "dataType": "String"}]}"#
        let codeError = try #require(throws: SchemaError.self) { try Fixtures.validator(["s": badCode]) }
        #expect(codeError.problems.first?.location.pointer == "/fields/0/name/German")
        let item =
            #"{"id": "s", "fields": [{"key": "tags", "name": {"en": "Tags", "de": "Schlagwörter"}, "dataType": "Array", "items": {"dataType": "String", "maxLength": 2}}]}"#
        let validator = try Fixtures.validator(["s": item])
        let messages = try validator.prepare("s", messages: .bundled(language: "de")).validate(
            json: Array(#"{"tags": ["abc"]}"#.utf8)
        ).errors.map(\.message)
        #expect(messages == ["Eintrag von Schlagwörter darf höchstens 2 Zeichen lang sein (es sind 3)"])
    }

    private struct RawCatalogue: Decodable {
        var messages: [String: String]
        var terms: [String: String]
    }

    /// A shipped catalogue file as written.
    private static func rawCatalogue(_ language: String) throws -> RawCatalogue {
        let url = Fixtures.repository.appendingPathComponent("Sources/DCEEngine/Messages/\(language).json")
        return try JSONDecoder().decode(RawCatalogue.self, from: Data(contentsOf: url))
    }
}
