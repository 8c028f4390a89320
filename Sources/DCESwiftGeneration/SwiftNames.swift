/// How schema words become Swift names: ids and keys as types (`loyalty-enrolment` → `LoyaltyEnrolment`), keys as
/// members (`first-name` → `firstName`), options as cases (`APPLE_PAY` → `applePay`).
enum SwiftNames {
    /// The words of a text: runs of ASCII letters and digits, anything else separating them.
    private static func words(_ text: String) -> [Substring] {
        text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// A type name: each word with its first letter capitalised and the rest kept (`cardType` → `CardType`), or
    /// lowercased when the word is all capitals (`CARD_TYPE` → `CardType`).
    static func typeName(_ text: String) -> String {
        let joined = words(text).map { word -> String in
            let kept = isAllCapitals(word) ? word.lowercased() : String(word)
            return kept.prefix(1).uppercased() + kept.dropFirst()
        }.joined()
        guard let first = joined.first else { return "Value" }
        return first.isNumber ? "Value" + joined : joined
    }

    /// A member or case name: the type name with its first word in lower case (`APPLE_PAY` → `applePay`,
    /// `IN_ACTIVATION` → `inActivation`, `last4` → `last4`); a keyword is escaped with backticks.
    static func memberName(_ text: String) -> String {
        let parts = words(text)
        guard let first = parts.first else { return "value" }
        let head = isAllCapitals(first) ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        let tail = parts.dropFirst().map { word -> String in
            let kept = isAllCapitals(word) ? word.lowercased() : String(word)
            return kept.prefix(1).uppercased() + kept.dropFirst()
        }
        let name = ([head] + tail).joined()
        if name.first!.isNumber { return "_" + name }
        return escaped(name)
    }

    /// Whether a key can be a member's name as it is (an ASCII identifier), so that it needs no coding key.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// A name with backticks when it is a keyword.
    static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// A name without the backticks ``escaped(_:)`` puts around a keyword.
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    private static func isAllCapitals(_ word: Substring) -> Bool {
        word.contains { $0.isLetter } && !word.contains { $0.isLowercase }
    }

    /// Swift's keywords, which a member name must escape.
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "package", "consume",
        "borrowing", "consuming",
    ]
}
