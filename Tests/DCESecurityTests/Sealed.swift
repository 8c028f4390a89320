import Foundation

/// Sealed values are base64 of random-looking bytes, and an envelope's `createdAt` is the clock's: by chance either
/// can hold any short digit run, such as a 3-digit CVV (`…T17:41:19.739Z`). Searches for secrets look at everything
/// but those members (sealed bytes are checked apart, decoded).
enum Sealed {
    static func scrubbed(_ text: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"(encapsulatedKey|ciphertext|createdAt)("?:\s*)"[^"]*""#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1$2\"<sealed>\"")
    }
}
