/// Builds report text as UTF-8 bytes: appending is a copy of bytes, and JSON escaping scans bytes once and copies
/// runs that need no escape.
package struct ByteBuilder {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    package mutating func append(_ text: [UInt8]) { bytes.append(contentsOf: text) }

    package mutating func append(_ text: Span<UInt8>) { bytes.append(text) }

    package mutating func append(_ text: StaticString) {
        text.withUTF8Span { bytes.append($0) }
    }

    package mutating func append(_ text: String) {
        text.withUTF8Span { bytes.append($0) }
    }

    /// Appends a number in decimal, without making a string of it.
    package mutating func append(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {  // the last digit first, then turned around
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// Appends a JSON string literal.
    package mutating func appendJSONString(_ text: String) {
        text.withUTF8Span { appendJSONString($0) }
    }

    /// Appends a JSON string literal of UTF-8 bytes.
    package mutating func appendJSONString(_ utf8: Span<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        appendJSONStringContents(utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 bytes escaped as the inside of a JSON string literal.
    package mutating func appendJSONStringContents(_ utf8: Span<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(utf8.extracting(runStart..<index))
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                append("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            }
            runStart = index + 1
        }
        bytes.append(utf8.extracting(runStart..<utf8.count))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    package var string: String { String(decoding: bytes, as: UTF8.self) }
}
