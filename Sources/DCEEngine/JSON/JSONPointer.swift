import Foundation

/// JSON Pointer (RFC 6901) helpers.
package enum JSONPointer {
    /// A token escaped for use in a pointer (`~` → `~0`, `/` → `~1`).
    package static func escape(_ token: String) -> String {
        // A byte scan: Foundation's String.contains(String) is far slower, and this runs for every member name.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The unescaped tokens of a pointer, or `nil` if it is not a valid pointer.
    package static func tokens(of pointer: String) -> [String]? {
        guard !pointer.isEmpty else { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        let body = pointer.utf8.dropFirst()
        // Without a `~`, the tokens are the text between slashes, cut by bytes: a form reads pointers every keystroke.
        if !body.contains(UInt8(ascii: "~")) {
            return body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
        }
        var tokens: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: return nil
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    /// `pointer` with `token` appended.
    package static func appending(_ token: String, to pointer: String) -> String { pointer + "/" + escape(token) }
}
