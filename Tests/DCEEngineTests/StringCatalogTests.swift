import DCEEngine
import DCEForms
import DCEReports
import Foundation
import Testing

/// An app's own words, brought as Xcode brings them: a String Catalog (`.xcstrings`) read over a shipped catalogue,
/// and plural forms chosen by CLDR's rules of the language.
@MainActor
struct StringCatalogTests {
    /// The String Catalog an app ships (`Fixtures/string-catalogs/Validation.xcstrings`, written as Xcode writes one).
    private static let appCatalog = try! Data(
        contentsOf: Fixtures.fixtures.appendingPathComponent("string-catalogs/Validation.xcstrings"))

    @Test func anAppsStringCatalogOverridesAMessageAndALabel() throws {
        let words = try MessageCatalogue.bundled(language: "de").overriding(stringCatalog: Self.appCatalog)
        let form = try FormModel(Fixtures.validator.prepare("payment-account", tenderType: "credit", messages: words))
        let number = try #require(form.field(at: "/cardNumber"))
        #expect(number.label == "Kreditkartennummer")
        #expect(number.accessibilityLabel.contains("Kreditkartennummer"))
        #expect(number.groupTitle == "Angaben zur Karte", "a device variation reads its 'other' device")
        let required = try #require(form.violations.first { $0.path == "/cardNumber" })
        #expect(required.message == "Bitte Kreditkartennummer angeben")
        // What the app's catalogue does not word stays the shipped catalogue's.
        let code = try #require(form.field(at: "/securityCode"))
        #expect(code.label == (try shipped("payment-account", language: "de").field(at: "/securityCode")?.label))
        try form.set("12", at: "/cardNumber")
        #expect(number.message?.contains("Kreditkartennummer") == true)
        #expect(number.message?.hasPrefix("Bitte") == false, "only 'required' is the app's")

        // Validation words the same, and so does a form's description.
        let report = try Fixtures.validator.prepare("payment-account", tenderType: "credit", messages: words)
            .validate(json: Array("{}".utf8))
        #expect(report.errors.contains { $0.message == "Bitte Kreditkartennummer angeben" })
        // A language's regional variant is read where the language itself has none; English reads its own.
        let austrian = try MessageCatalogue(json: Data(#"{"language": "de-AT", "messages": {}}"#.utf8))
            .overriding(stringCatalog: Self.appCatalog)
        let english = try MessageCatalogue.bundled(language: "en").overriding(stringCatalog: Self.appCatalog)
        let englishForm = try FormModel(
            Fixtures.validator.prepare("payment-account", tenderType: "credit", messages: english))
        #expect(englishForm.field(at: "/cardNumber")?.label == "Long number on the card")
        #expect(
            englishForm.violations.first { $0.path == "/cardNumber" }?.message == "Long number on the card is required")
        let austrianReport = try Fixtures.validator.prepare("payment-account", tenderType: "credit", messages: austrian)
            .validate(json: Array("{}".utf8))
        #expect(austrianReport.errors.contains { $0.message.hasSuffix("angeben, danke") })
    }

    @Test func pluralFormsFollowTheLanguagesCLDRRule() throws {
        // English and the shipped languages: one for 1 (French: 0 and 1), else the rule's plain form.
        let schema = #"""
            {"id": "s", "fields": [{"key": "a", "dataType": "String", "minLength": 1},
                                   {"key": "b", "dataType": "String", "minLength": 3},
                                   {"key": "c", "dataType": "String", "minLength": 12},
                                   {"key": "d", "dataType": "String", "minLength": 22}]}
            """#
        let validator = try Fixtures.validator(["s": schema])
        let payload = Array(#"{"a": "", "b": "x", "c": "x", "d": "x"}"#.utf8)
        func messages(_ catalogue: MessageCatalogue) throws -> [String] {
            try validator.prepare("s", messages: catalogue).validate(json: payload).errors.map(\.message)
        }
        #expect(
            try messages(.bundled(language: "en")) == [
                "a must be at least 1 character (it has 0)", "b must be at least 3 characters (it has 1)",
                "c must be at least 12 characters (it has 1)", "d must be at least 22 characters (it has 1)",
            ])
        #expect(try messages(.bundled(language: "fr")).first == "a doit comporter au moins 1 caractère (il en a 0)")
        #expect(try messages(.bundled(language: "bg")).first == "a трябва да съдържа поне 1 знак (съдържа 0)")
        // Polish, brought by the app: one, few (2-4, 22-24, not 12-14) and many.
        let polish = try MessageCatalogue(json: Data(#"{"language": "pl", "messages": {}}"#.utf8))
            .overriding(stringCatalog: Self.appCatalog)
        #expect(
            try messages(polish) == [
                "a: co najmniej 1 znak", "b: co najmniej 3 znaki", "c: co najmniej 12 znaków",
                "d: co najmniej 22 znaki",
            ])

        // A term's plural forms: French's one is 0 and 1, its many a million; Xcode's explicit zero wins for 0.
        let french = try MessageCatalogue.bundled(language: "fr").overriding(stringCatalog: Self.appCatalog)
            .adding(.reports)
        #expect(french.phrase("summary.errors", count: 0) == "aucune erreur")
        #expect(french.phrase("summary.errors", count: 1) == "1 erreur trouvée")
        #expect(french.phrase("summary.errors", count: 2) == "2 erreurs trouvées")
        #expect(french.phrase("summary.errors", count: 1_000_000) == "1000000 d’erreurs trouvées")
        #expect(french.phrase("report.omitted", count: 1) == "1 erreur de plus non affichée", "the book's own")
        // Without the app's words, French counts zero as one.
        #expect(
            try MessageCatalogue.bundled(language: "fr").adding(.reports).phrase("summary.errors", count: 0)
                == "0 erreur")
    }

    @Test(arguments: [
        (#"{"strings": 3}"#, "a String Catalog (.xcstrings) is an object with 'strings'"),
        (#"[1]"#, "a String Catalog (.xcstrings) is an object with 'strings'"),
        (#"{"strings": {"#, "the String Catalog is not JSON"),
        (
            #"{"strings": {"message.requried": {"localizations": {"de": {"stringUnit": {"value": "x"}}}}}}"#,
            "key 'message.requried' at /strings/message.requried/localizations/de (line 1, column 59): no rule 'requried' has a message (did you mean 'required'?)"
        ),
        (
            #"{"strings": {"message.required": {"localizations": {"de": {"stringUnit": {"value": "{nme} fehlt"}}}}}}"#,
            "key 'message.required' at /strings/message.required/localizations/de (line 1, column 59): unknown placeholder '{nme}' (did you mean 'name'?)"
        ),
        (
            #"{"strings": {"term.x": {"localizations": {"de": {"variations": {"plural": {"fwe": {"stringUnit": {"value": "x"}}}}}}}}}"#,
            "key 'term.x' at /strings/term.x/localizations/de/variations/plural/fwe (line 1, column 76): unknown plural form 'fwe'"
        ),
        (
            #"{"strings": {"Card number": {"localizations": {"de": {"stringUnit": {"state": "translated"}}}}}}"#,
            "key 'Card number' at /strings/Card number/localizations/de/stringUnit (line 1, column 69): a 'stringUnit' is an object with a string 'value'"
        ),
    ])
    func aStringCatalogThatIsNotOneSaysWhereAndWhy(_ file: String, _ expected: String) throws {
        let error = try #require(throws: ValidatorError.self) {
            try MessageCatalogue.bundled(language: "de").overriding(stringCatalog: Data(file.utf8))
        }
        #expect(error.code == .invalidCatalogue)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    private func shipped(_ schema: String, language: String) throws -> FormModel {
        try FormModel(
            Fixtures.validator.prepare(
                schema, tenderType: "credit", messages: MessageCatalogue.bundled(language: language)))
    }
}
