import Testing

@testable import DCEEngine

/// Each report format escapes the text it writes byte by byte (``ReportEscaping``); these are the rules each format
/// states, written character by character, and the byte escapers must agree with them on any text.
struct ReportEscapingTests {
    /// XML 1.0 (JUnit): the markup characters and tab, newline, return as references; other characters XML cannot carry
    /// (control characters, U+FFFE, U+FFFF) as U+FFFD.
    static func xml(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case "\t": output += "&#9;"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": output += "\u{FFFD}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// A GitHub Actions command's message: `%`, CR, LF; a property also `:` and `,`, by scalar (a `:` that a combining
    /// mark follows is still a `:` to the runner, which reads bytes).
    static func gitHub(_ text: String, property: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where property: output += "%3A"
            case "," where property: output += "%2C"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Texts of the characters each format treats specially, among plain, accented and astral ones.
    static func texts() -> [String] {
        let alphabet: [String] = [
            "a", "Z", "&", "<", ">", "\"", "'", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "%", ":", ",",
            "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{FFFC}", "\u{EFBF}", "é", "e\u{301}", "☃", "🂡", "\\", "/",
            // Joined to the character before them: a `:` or `,` so joined is still escaped (the runner reads bytes).
            "\u{301}", "\u{200D}",
        ]
        var generator = SplitMix(state: 0x5EED)  // the same texts on every run, so that a failure repeats
        var texts = alphabet + [""]
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...12, using: &generator)
            texts.append((0..<count).map { _ in alphabet.randomElement(using: &generator)! }.joined())
        }
        return texts
    }

    @Test func eachFormatEscapesByteByByteAsItsRulesSay() {
        for text in Self.texts() {
            #expect(ByteBuilder.escaped(text, .xml) == Self.xml(text), "\(Array(text.unicodeScalars))")
            #expect(ByteBuilder.escaped(text, .gitHubData) == Self.gitHub(text, property: false))
            #expect(ByteBuilder.escaped(text, .gitHubProperty) == Self.gitHub(text, property: true))
            #expect(ByteBuilder.escaped(text, .jsonLiteral) == SchemaValue.quote(text))
            #expect(ByteBuilder.escaped(text, .none) == text)
        }
    }
}
