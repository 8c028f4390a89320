/// How text goes into a report's bytes: each report format escapes what it writes its own way, byte by byte, so that a
/// violation's pointer, key and message are written straight into the report (``ReportedViolation``) without a string
/// of their own.
package enum ReportEscaping {
    /// As it is (the text report).
    case none
    /// As a JSON string literal, quotes included (the JSON and SARIF reports).
    case jsonLiteral
    /// As XML 1.0 attribute and element content (JUnit).
    case xml
    /// As the message of a GitHub Actions workflow command.
    case gitHubData
    /// As a property value of a GitHub Actions workflow command.
    case gitHubProperty
}

extension ByteBuilder {
    /// Appends UTF-8 text, escaped as `escaping` says.
    mutating func append(_ utf8: Span<UInt8>, escaping: ReportEscaping) {
        switch escaping {
        case .none: append(utf8)
        case .jsonLiteral: appendJSONString(utf8)
        case .xml: appendXML(utf8)
        case .gitHubData: appendGitHub(utf8, property: false)
        case .gitHubProperty: appendGitHub(utf8, property: true)
        }
    }

    /// Appends text, escaped as `escaping` says.
    package mutating func append(_ text: String, escaping: ReportEscaping) {
        text.withUTF8Span { append($0, escaping: escaping) }
    }

    /// XML's five markup characters and tab, newline and return as references; the other control characters, U+FFFE
    /// and U+FFFF, which XML 1.0 cannot carry, as U+FFFD. The text is whole UTF-8 (a string's, or a piece of one
    /// between characters), so U+FFFE and U+FFFF are their three bytes together.
    private mutating func appendXML(_ utf8: Span<UInt8>) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            let replacement: StaticString
            var length = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&apos;"
            case 0x0A: replacement = "&#10;"
            case 0x0D: replacement = "&#13;"
            case 0x09: replacement = "&#9;"
            case 0x00..<0x20: replacement = "\u{FFFD}"
            case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] & 0xFE == 0xBE:
                replacement = "\u{FFFD}"
                length = 3
            default:
                index += 1
                continue
            }
            append(utf8.extracting(runStart..<index))
            append(replacement)
            index += length
            runStart = index
        }
        append(utf8.extracting(runStart..<utf8.count))
    }

    /// `%`, CR and LF as `%25`, `%0D` and `%0A`; for a property, `:` and `,` as `%3A` and `%2C` too.
    private mutating func appendGitHub(_ utf8: Span<UInt8>, property: Bool) {
        var runStart = 0
        for index in 0..<utf8.count {
            let replacement: StaticString
            switch utf8[index] {
            case UInt8(ascii: "%"): replacement = "%25"
            case 0x0D: replacement = "%0D"
            case 0x0A: replacement = "%0A"
            case UInt8(ascii: ":") where property: replacement = "%3A"
            case UInt8(ascii: ",") where property: replacement = "%2C"
            default: continue
            }
            append(utf8.extracting(runStart..<index))
            append(replacement)
            runStart = index + 1
        }
        append(utf8.extracting(runStart..<utf8.count))
    }

    /// Text escaped as `escaping` says, as a string (what the renderers that still build strings use).
    package static func escaped(_ text: String, _ escaping: ReportEscaping) -> String {
        var builder = ByteBuilder(capacity: text.utf8.count + 8)
        builder.append(text, escaping: escaping)
        return builder.string
    }
}
