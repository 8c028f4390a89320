import Foundation

/// Sealed values are base64 of random-looking bytes, an envelope's `createdAt` is the clock's, and the gateway's
/// access log and metrics carry what its clock measured (`durationMs`, the latency histogram's sums): by chance any
/// of them can hold any short digit run, such as a 3-digit CVV (`…T17:41:19.739Z`, `durationMs=0.739`). Searches for
/// secrets look at everything but those (sealed bytes are checked apart, decoded; the metrics' labels are searched).
public enum Sealed {
    /// `text` with sealed members, creation times, durations and metric sample values replaced by placeholders.
    public static func scrubbed(_ text: String) -> String {
        var text = text
        for (pattern, template) in [
            (#"(encapsulatedKey|ciphertext|createdAt)("?:\s*)"[^"]*""#, "$1$2\"<sealed>\""),
            (#"(durationMs"?[=:]\s*)[0-9.]+"#, "$1<measured>"),
            (#"(?m)^(dce_gateway_[^ \n]+) [0-9.eE+-]+$"#, "$1 <measured>"),
        ] {
            let expression = try! NSRegularExpression(pattern: pattern)
            text = expression.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
        }
        return text
    }
}
