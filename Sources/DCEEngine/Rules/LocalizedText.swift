/// A text a schema writes for people — a field's label, a message of its own — in English and in any other
/// languages it gives: `"name": "State"`, or `"name": {"en": "State", "de": "Bundesland", "fr": "État"}`.
///
/// A language the schema does not give reads the English text, so an app's catalogue for a language no schema was
/// written for still shows every label.
package struct LocalizedText: Sendable, Hashable {
    /// The text in English: the one every language without its own text reads.
    package let english: String
    /// The other languages' texts, by language code (`de`, `fr`).
    let translations: [String: String]

    init(_ english: String, translations: [String: String] = [:]) {
        self.english = english
        self.translations = translations
    }

    /// The text in a language, English when the schema does not give it.
    package func text(in language: String) -> String {
        language == "en" ? english : translations[language] ?? english
    }
}
