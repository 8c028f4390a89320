/// Bounds that keep a hostile document from using unbounded time or memory: every payload, schema and reference file
/// is read under them (``JSONDocument/init(bytes:limits:)``, ``PreparedSchema/validate(json:limits:)``).
public struct JSONLimits: Hashable, Sendable {
    /// The deepest nesting of arrays and objects; the top-level container is depth 1.
    public var maxDepth: Int
    /// The largest document, in bytes.
    public var maxDocumentBytes: Int
    /// The longest string, in bytes as written (escapes included).
    public var maxStringBytes: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxDepth: The deepest nesting.
    ///   - maxDocumentBytes: The largest document.
    ///   - maxStringBytes: The longest string.
    public init(maxDepth: Int, maxDocumentBytes: Int, maxStringBytes: Int) {
        self.maxDepth = maxDepth
        self.maxDocumentBytes = maxDocumentBytes
        self.maxStringBytes = maxStringBytes
    }

    /// Depth 128, 16 MiB documents, 1 MiB strings: far beyond any card or address request.
    public static let `default` = JSONLimits(maxDepth: 128, maxDocumentBytes: 16 << 20, maxStringBytes: 1 << 20)
}

/// The strict JSON reader behind ``JSONDocument``: RFC 8259, UTF-8 only, with explicit limits.
///
/// It rejects what Foundation's parsers let through: trailing commas, a byte order mark, UTF-16 input,
/// invalid UTF-8, lone surrogate escapes, leading zeros, `NaN`, comments, and anything after the top-level value.
/// Duplicate keys are well-formed JSON and are kept; the validator reports them (rule `duplicateKey`).
/// It never recurses, so nesting depth costs heap, not stack, and is bounded by ``JSONLimits/maxDepth``.
struct JSONReader: Sendable {
    /// The limits this reader enforces.
    var limits: JSONLimits

    /// Creates a reader.
    ///
    /// - Parameter limits: The limits to enforce.
    init(limits: JSONLimits = .default) {
        self.limits = limits
    }

    /// Reads a document's nodes, and whether its text is one line of ASCII (where a byte's column is its offset + 1).
    func readNodes(_ bytes: ContiguousArray<UInt8>) throws(JSONReadError) -> (
        nodes: ContiguousArray<JSONDocument.Node>, singleLineASCII: Bool
    ) {
        guard bytes.count <= limits.maxDocumentBytes, bytes.count < Int(UInt32.max) else {
            throw JSONReadError(
                code: .tooLarge,
                message: "the document is \(bytes.count) bytes; the limit is \(limits.maxDocumentBytes)",
                position: SourcePosition(line: 1, column: 1, offset: 0))
        }
        // The bytes are a parameter of every step, not a member: the steps change the scanner, and a span of a member
        // would be an access to it overlapping theirs.
        var scanner = Scanner(capacityFor: bytes.count, limits: limits)
        let nodes = try scanner.read(bytes.span)
        return (ContiguousArray(nodes), scanner.singleLineASCII)  // the array's own storage, not a copy
    }

    /// Decodes the raw content of a string known to be valid (escapes checked by the scanner).
    static func unescape(_ raw: ArraySlice<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    let low = hex4(raw, at: index + 2)
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &output)
            default: output.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hex4(_ raw: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(hexValue(raw[index + offset]) ?? 0) }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        UTF8.encode(scalar) { output.append($0) }
    }
}

/// The byte scanner: one pass, an explicit container stack, no recursion.
private struct Scanner {
    let limits: JSONLimits
    var index = 0
    var nodes: [JSONDocument.Node] = []
    /// The innermost open container (-1 at the top level). The containers around it are chained through their nodes'
    /// `end`, which holds the enclosing container's index + 1 until the container closes: the stack costs no
    /// allocation of its own (it took one or two of the three a small payload's reading made).
    var innermost = -1
    /// How many containers are open.
    var depth = 0
    /// Whether no line break and no byte beyond ASCII has been read (a string holds neither unescaped but UTF-8, and
    /// outside strings only white space may be a line break).
    var singleLineASCII = true

    init(capacityFor bytes: Int, limits: JSONLimits) {
        self.limits = limits
        nodes.reserveCapacity(bytes / 8 + 4)
    }

    mutating func read(_ bytes: Span<UInt8>) throws(JSONReadError) -> [JSONDocument.Node] {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw error(
                bytes, .encoding, "the document starts with a byte order mark, which JSON does not allow", at: 0)
        }
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw error(
                bytes,
                .encoding, "the document is not UTF-8 (it starts with a UTF-16 or UTF-32 byte order mark)", at: 0)
        }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            throw error(bytes, .encoding, "the document is not UTF-8 (it looks like UTF-16 or UTF-32)", at: 0)
        }
        skipWhitespace(bytes)
        try readValue(bytes)
        while true {
            skipWhitespace(bytes)
            guard innermost >= 0 else { break }
            let container = innermost
            let isObject = nodes[container].kind == .object
            guard index < bytes.count else {
                throw error(
                    bytes, .syntax, "unexpected end of input: expected ',' or '\(isObject ? "}" : "]")'", at: index)
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace(bytes)
                if isObject {
                    try readKey(bytes, after: ",")
                } else if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    throw error(bytes, .syntax, "trailing comma before ']'", at: index)
                }
                nodes[container].length += 1
                try readValue(bytes)
            case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
                index += 1
                close(container)
            default:
                throw error(
                    bytes,
                    .syntax, "expected ',' or '\(isObject ? "}" : "]")' \(describeByte(bytes, at: index))", at: index)
            }
        }
        guard index == bytes.count else {
            throw error(
                bytes, .syntax, "unexpected \(describeByte(bytes, at: index)) after the top-level value", at: index)
        }
        return nodes
    }

    private mutating func close(_ container: Int) {
        innermost = Int(nodes[container].end) - 1
        nodes[container].end = UInt32(nodes.count)
        depth -= 1
    }

    /// Reads one value; a container is opened and its first member or element read by the main loop.
    private mutating func readValue(_ bytes: Span<UInt8>) throws(JSONReadError) {
        while true {
            guard index < bytes.count else {
                throw error(bytes, .syntax, "unexpected end of input: expected a value", at: index)
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < limits.maxDepth else {
                    throw error(bytes, .tooDeep, "nesting deeper than \(limits.maxDepth) levels", at: index)
                }
                let isObject = byte == UInt8(ascii: "{")
                let nodeIndex = nodes.count
                nodes.append(
                    .init(
                        kind: isObject ? .object : .array, flag: false, start: UInt32(index), length: 0,
                        end: UInt32(innermost + 1)))
                innermost = nodeIndex
                depth += 1
                index += 1
                skipWhitespace(bytes)
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index < bytes.count, bytes[index] == closer {
                    index += 1
                    close(nodeIndex)
                    return
                }
                nodes[nodeIndex].length = 1
                if isObject {
                    try readKey(bytes, after: "{")
                    continue
                }
                continue  // the first element
            case UInt8(ascii: "\""):
                try readString(bytes)
                return
            case UInt8(ascii: "t"):
                try readLiteral(bytes, Self.trueLiteral, kind: .boolean, flag: true)
                return
            case UInt8(ascii: "f"):
                try readLiteral(bytes, Self.falseLiteral, kind: .boolean, flag: false)
                return
            case UInt8(ascii: "n"):
                try readLiteral(bytes, Self.nullLiteral, kind: .null, flag: false)
                return
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try readNumber(bytes)
                return
            default:
                throw error(bytes, .syntax, "expected a value, found \(describeByte(bytes, at: index))", at: index)
            }
        }
    }

    /// Reads `"key"` and the `:` after it.
    private mutating func readKey(_ bytes: Span<UInt8>, after opener: String) throws(JSONReadError) {
        guard index < bytes.count else {
            throw error(bytes, .syntax, "unexpected end of input: expected a member name in double quotes", at: index)
        }
        guard bytes[index] == UInt8(ascii: "\"") else {
            if bytes[index] == UInt8(ascii: "}") && opener == "," {
                throw error(bytes, .syntax, "trailing comma before '}'", at: index)
            }
            throw error(
                bytes, .syntax, "expected a member name in double quotes, found \(describeByte(bytes, at: index))",
                at: index)
        }
        try readString(bytes)
        skipWhitespace(bytes)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error(
                bytes, .syntax, "expected ':' after the member name, found \(describeByte(bytes, at: index))", at: index
            )
        }
        index += 1
        skipWhitespace(bytes)
    }

    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)
    private static let nullLiteral = Array("null".utf8)

    private mutating func readLiteral(_ bytes: Span<UInt8>, _ word: [UInt8], kind: JSONDocument.Kind, flag: Bool)
        throws(JSONReadError)
    {
        let length = word.count
        let start = index
        guard index + length <= bytes.count else { throw error(bytes, .syntax, "invalid literal", at: start) }
        for offset in 0..<length where bytes[index + offset] != word[offset] {
            throw error(
                bytes, .syntax, "invalid literal (expected \(String(decoding: word, as: UTF8.self)))", at: start)
        }
        index += length
        nodes.append(
            .init(kind: kind, flag: flag, start: UInt32(start), length: UInt32(length), end: UInt32(nodes.count + 1)))
    }

    private mutating func readNumber(_ bytes: Span<UInt8>) throws(JSONReadError) {
        let start = index
        var hasFractionOrExponent = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(bytes, .syntax, "invalid number: expected a digit", at: index)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(bytes, .syntax, "invalid number: leading zeros are not allowed", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            hasFractionOrExponent = true
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(bytes, .syntax, "invalid number: expected a digit after the decimal point", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            hasFractionOrExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(bytes, .syntax, "invalid number: expected a digit in the exponent", at: index)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        nodes.append(
            .init(
                kind: .number, flag: hasFractionOrExponent, start: UInt32(start), length: UInt32(index - start),
                end: UInt32(nodes.count + 1)))
    }

    /// Reads a string starting at its opening quote, checking UTF-8 and escapes.
    private mutating func readString(_ bytes: Span<UInt8>) throws(JSONReadError) {
        let quote = index
        index += 1
        let start = index
        var hasEscape = false
        while true {
            guard index < bytes.count else { throw error(bytes, .syntax, "unterminated string", at: quote) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                try readEscape(bytes)
            } else if byte < 0x20 {
                throw error(bytes, .syntax, "control character in a string (it must be escaped)", at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                singleLineASCII = false
                try readMultibyte(bytes)
            }
        }
        let length = index - start
        guard length <= limits.maxStringBytes else {
            throw error(
                bytes, .stringTooLong, "string of \(length) bytes; the limit is \(limits.maxStringBytes)", at: quote)
        }
        index += 1
        nodes.append(
            .init(
                kind: .string, flag: hasEscape, start: UInt32(start), length: UInt32(length),
                end: UInt32(nodes.count + 1)))
    }

    private mutating func readEscape(_ bytes: Span<UInt8>) throws(JSONReadError) {
        let escapeStart = index
        guard index + 1 < bytes.count else {
            throw error(bytes, .syntax, "unterminated escape sequence", at: escapeStart)
        }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            let unit = try readHex4(bytes, at: index + 2, escapeStart: escapeStart)
            index += 6
            if (0xDC00..<0xE000).contains(unit) {
                throw error(bytes, .encoding, "lone low surrogate in a \\u escape", at: escapeStart)
            }
            if (0xD800..<0xDC00).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        bytes, .encoding, "high surrogate in a \\u escape without its low surrogate", at: escapeStart)
                }
                let low = try readHex4(bytes, at: index + 2, escapeStart: index)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error(
                        bytes, .encoding, "high surrogate in a \\u escape without its low surrogate", at: escapeStart)
                }
                index += 6
            }
        default:
            throw error(bytes, .syntax, "invalid escape sequence", at: escapeStart)
        }
    }

    private func readHex4(_ bytes: Span<UInt8>, at position: Int, escapeStart: Int) throws(JSONReadError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error(bytes, .syntax, "incomplete \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONReader.hexValue(bytes[position + offset]) else {
                throw error(bytes, .syntax, "invalid \\u escape: expected four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
    private mutating func readMultibyte(_ bytes: Span<UInt8>) throws(JSONReadError) {
        let lead = bytes[index]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F
        case 0xF0:
            count = 3
            low = 0x90
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F
        default: throw error(bytes, .encoding, "invalid UTF-8 byte in a string", at: index)
        }
        guard index + count < bytes.count else {
            throw error(bytes, .encoding, "truncated UTF-8 sequence in a string", at: index)
        }
        let second = bytes[index + 1]
        guard second >= low, second <= high else {
            throw error(bytes, .encoding, "invalid UTF-8 sequence in a string", at: index)
        }
        for offset in stride(from: 2, through: count, by: 1) where bytes[index + offset] & 0xC0 != 0x80 {
            throw error(bytes, .encoding, "invalid UTF-8 sequence in a string", at: index)
        }
        index += count + 1
    }

    private mutating func skipWhitespace(_ bytes: Span<UInt8>) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0D, 0x09: index += 1
            case 0x0A:
                singleLineASCII = false
                index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Names the byte at an offset without repeating input: structural characters by themselves, anything else
    /// by its class, so that a malformed PIN or card number never reaches an error message.
    private func describeByte(_ bytes: Span<UInt8>, at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","),
            UInt8(ascii: ":"), UInt8(ascii: "\""):
            return "'\(Character(Unicode.Scalar(byte)))'"
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return "a number character"
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return "a letter"
        case UInt8(ascii: "'"): return "a single quote (JSON strings use double quotes)"
        case UInt8(ascii: "/"): return "'/' (JSON has no comments)"
        case 0x00..<0x20, 0x7F: return "a control character"
        case 0x80...0xFF: return "a non-ASCII byte"
        default: return "an unexpected character"
        }
    }

    private func error(_ bytes: Span<UInt8>, _ code: JSONReadError.Code, _ message: String, at offset: Int)
        -> JSONReadError
    {
        JSONReadError(code: code, message: message, position: SourcePosition.locate(offset: offset, in: bytes))
    }
}
