/// A named format a string value must have (`format` in a schema). A field may list several: any one suffices.
enum Format: String, CaseIterable, Sendable {
    case iso4217
    case iso3166Alpha2 = "iso3166-alpha2"
    case luhn
    case hex
    case base64
    case pemCertificate = "pem-certificate"
    case uuid
    case date
    case dateTime = "date-time"

    /// How messages describe a value of this format.
    var article: String {
        switch self {
        case .iso4217: "an ISO 4217 currency code"
        case .iso3166Alpha2: "an ISO 3166-1 alpha-2 country code"
        case .luhn: "a card number of 12 to 19 digits with a valid Luhn check digit"
        case .hex: "hexadecimal (an even number of 0-9, a-f, A-F)"
        case .base64: "base64 (RFC 4648, padded)"
        case .pemCertificate: "a PEM certificate (BEGIN/END CERTIFICATE lines around base64 lines of at most 64 characters)"
        case .uuid: "a UUID"
        case .date: "an ISO 8601 date (YYYY-MM-DD)"
        case .dateTime: "an ISO 8601 date-time with a time zone (YYYY-MM-DDThh:mm:ssZ)"
        }
    }

    func accepts(_ value: String) -> Bool {
        switch self {
        case .iso4217: CodeLists.iso4217.contains(value)
        case .iso3166Alpha2: CodeLists.iso3166Alpha2.contains(value)
        case .luhn: Self.isLuhn(Array(value.utf8))
        case .hex: Self.isHex(Array(value.utf8))
        case .base64: Self.isBase64(Array(value.utf8)[...])
        case .pemCertificate: Self.isPEMCertificate(value)
        case .uuid: Self.isUUID(Array(value.utf8))
        case .date: Self.isDate(Array(value.utf8)[...])
        case .dateTime: Self.isDateTime(Array(value.utf8))
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { JSONReader.hexValue(byte) != nil }

    static func isLuhn(_ bytes: [UInt8]) -> Bool {
        guard (12...19).contains(bytes.count), bytes.allSatisfy(isDigit) else { return false }
        var sum = 0
        for (offset, byte) in bytes.reversed().enumerated() {
            var digit = Int(byte - 0x30)
            if offset % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    static func isHex(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && bytes.count % 2 == 0 && bytes.allSatisfy(isHexDigit)
    }

    static func isBase64(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        var padding = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="): padding += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }  // '=' only at the end
            default: return false
            }
        }
        return padding <= 2
    }

    static func isPEMCertificate(_ value: String) -> Bool {
        // Split on bytes: in Swift "\r\n" is one Character, so splitting a String on "\n" would miss CRLF lines.
        var lines = Array(value.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        if lines.last?.isEmpty == true { lines.removeLast() }  // one final line break is usual
        guard lines.count >= 3, Array(lines[0]) == Array("-----BEGIN CERTIFICATE-----".utf8),
            Array(lines[lines.count - 1]) == Array("-----END CERTIFICATE-----".utf8)
        else { return false }
        let body = lines[1..<(lines.count - 1)]
        guard body.allSatisfy({ !$0.isEmpty && $0.count <= 64 }) else { return false }
        return isBase64(Array(body.joined())[...])
    }

    static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(byte) {
                return false
            }
        }
        return true
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy(isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = number(bytes[start..<(start + 4)]), let month = number(bytes[(start + 5)..<(start + 7)]),
            let day = number(bytes[(start + 8)..<(start + 10)]), (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    /// RFC 3339 `date-time`: `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`.
    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        guard isTime(bytes[11..<19]) else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] | 0x20 == UInt8(ascii: "z") { return index == bytes.count - 1 }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.count - index == 6,
            bytes[index + 3] == UInt8(ascii: ":"),
            let hours = number(bytes[(index + 1)..<(index + 3)]), let minutes = number(bytes[(index + 4)..<(index + 6)])
        else { return false }
        return hours <= 23 && minutes <= 59
    }

    private static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hours = number(bytes[start..<(start + 2)]), let minutes = number(bytes[(start + 3)..<(start + 5)]),
            let seconds = number(bytes[(start + 6)..<(start + 8)])
        else { return false }
        return hours <= 23 && minutes <= 59 && seconds <= 60  // 60: a leap second
    }
}
