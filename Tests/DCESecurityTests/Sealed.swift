import Foundation

/// Sealed values are base64 of random-looking bytes: by chance they can hold any short digit run, such as a
/// 3-digit CVV. Searches for secrets look at everything but those two members (whose decoded bytes are checked
/// apart).
enum Sealed {
    static func scrubbed(_ text: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"(encapsulatedKey|ciphertext)("?:\s*)"[^"]*""#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1$2\"<sealed>\"")
    }
}
