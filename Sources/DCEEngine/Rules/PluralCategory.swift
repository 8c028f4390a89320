/// The plural category a whole number takes in a language, by the Unicode CLDR's cardinal rules
/// (`common/supplemental/plurals.xml`, the rules for `v = 0`): which of a message's or a term's plural forms
/// (`key.one`, `key.few`, `key.many`, else `key` for `other`) words a count.
///
/// The shipped languages' rules, and those of the languages an app's String Catalog most often brings; any other
/// language has one form for 1 and another for every other number, as English does.
package enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other

    /// The category of `count` in a language (its primary subtag: `fr-CA` reads as `fr`).
    package init(_ count: Int, language: String) {
        let primary = MessageCatalogue.primaryLanguage(of: language)
        let n = count.magnitude
        let mod10 = n % 10
        let mod100 = n % 100
        // A million, ten million, … : `e = 0 and i != 0 and i % 1000000 = 0`.
        let millions = n != 0 && n % 1_000_000 == 0
        // Polish, Russian and Ukrainian: 2-4, 22-24, … but not 12-14.
        let slavicFew = (2...4).contains(mod10) && !(12...14).contains(mod100)
        switch primary {
        case "ja", "ko", "zh", "th", "vi", "id", "ms":
            self = .other
        case "fr", "pt":
            self = n <= 1 ? .one : millions ? .many : .other
        case "es", "it":
            self = n == 1 ? .one : millions ? .many : .other
        case "pl":
            self = n == 1 ? .one : slavicFew ? .few : .many
        case "ru", "uk":
            self = mod10 == 1 && mod100 != 11 ? .one : slavicFew ? .few : .many
        case "cs", "sk":
            self = n == 1 ? .one : (2...4).contains(n) ? .few : .other
        default:
            // bg, de, en, nl, sv, da, nb and the rest: `one` for 1 alone.
            self = n == 1 ? .one : .other
        }
    }

    /// The forms to look up for `count`, most particular first, `other` (the key itself) left out: an explicit `zero`
    /// for 0 where a String Catalog words one (as Xcode's do in every language), then the CLDR category.
    package static func forms(_ count: Int, language: String) -> [String] {
        let category = PluralCategory(count, language: language)
        var forms: [String] = count == 0 && category != .zero ? ["zero"] : []
        if category != .other { forms.append(category.rawValue) }
        return forms
    }
}
