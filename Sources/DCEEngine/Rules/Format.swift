/// A named format a string value must have (`format` in a schema). A field may list several: any one suffices.
///
/// Every check works on the value's UTF-8 bytes, without building a `String`. Code lists and card brands are
/// reference data (``ReferenceData``), read from the schema's catalogue.
package enum Format: String, CaseIterable, Sendable {
    /// A currency code in force.
    case iso4217
    /// A currency code in force, or one the data lists as withdrawn recently (`BGN` after 2026-01-01).
    case iso4217OrWithdrawn = "iso4217-or-withdrawn"
    /// A country code in force.
    case iso3166Alpha2 = "iso3166-alpha2"
    /// A country code in force, or one ISO 3166-3 lists as withdrawn since 2000.
    case iso3166Alpha2OrWithdrawn = "iso3166-alpha2-or-withdrawn"
    /// A card number, digits only, as long as its brand allows and with the check digit its brand uses.
    case cardNumber = "card-number"
    /// ``cardNumber`` that may keep single spaces or dashes between digits (`4111 1111 1111 1111`).
    case cardNumberWithSeparators = "card-number-with-separators"
    case luhn
    case hex
    case base64
    case pemCertificate = "pem-certificate"
    case uuid
    case date
    case dateTime = "date-time"
    /// `MM/YY` (as printed on cards), not before the current month.
    case cardExpiry = "card-expiry"

    package typealias Bytes = Span<UInt8>

    /// Whether the format is a card number whose brand the reference data decides.
    package var isCardNumber: Bool { self == .cardNumber || self == .cardNumberWithSeparators }

    /// How messages describe a value of this format.
    var article: String {
        switch self {
        // A code withdrawn recently is still an ISO code: the message is the same whether the schema takes them.
        case .iso4217, .iso4217OrWithdrawn: "an ISO 4217 currency code"
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn: "an ISO 3166-1 alpha-2 country code"
        case .cardNumber: "a card number of as many digits as its brand allows, with a valid check digit"
        case .cardNumberWithSeparators:
            "a card number of as many digits as its brand allows, with a valid check digit (spaces or dashes may separate the digits)"
        case .luhn: "a card number of 12 to 19 digits with a valid Luhn check digit"
        case .hex: "hexadecimal (an even number of 0-9, a-f, A-F)"
        case .base64: "base64 (RFC 4648, padded)"
        case .pemCertificate:
            "a PEM certificate (BEGIN/END CERTIFICATE lines around base64 lines of 64 characters, the last one 1 to 64)"
        case .uuid: "a UUID"
        case .date: "an ISO 8601 date (YYYY-MM-DD)"
        case .dateTime: "an ISO 8601 date-time with a time zone (YYYY-MM-DDThh:mm:ssZ)"
        case .cardExpiry: "a card expiry date (MM/YY) that is not in the past"
        }
    }

    /// Whether text that does not have this format yet could get it by typing more: what partial input means for
    /// the format (DCEForms' `checkInput(_:at:given:)` says `incomplete` rather than `invalid`).
    func couldBecomeValid(_ text: String, reference: ReferenceData) -> Bool {
        let bytes = Array(text.utf8)
        func fits(_ template: String) -> Bool {
            let shape = Array(template.utf8)
            guard bytes.count <= shape.count else { return false }
            return zip(bytes, shape).allSatisfy { byte, slot in
                switch slot {
                case UInt8(ascii: "9"): byte &- 0x30 < 10
                case UInt8(ascii: "x"): JSONReader.hexValue(byte) != nil
                default: byte == slot
                }
            }
        }
        let possible: Bool
        switch self {
        case .iso4217, .iso4217OrWithdrawn:
            possible = reference.currencies.allowed(includingWithdrawn: self == .iso4217OrWithdrawn).contains {
                $0.hasPrefix(text)
            }
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn:
            possible = reference.countries.allowed(includingWithdrawn: self == .iso3166Alpha2OrWithdrawn).contains {
                $0.hasPrefix(text)
            }
        case .cardNumber, .cardNumberWithSeparators:
            possible = reference.cardBrands.judge(partial: text).verdict == .incomplete
        case .luhn: possible = bytes.count < 19 && bytes.allSatisfy { $0 &- 0x30 < 10 }
        case .hex: possible = bytes.allSatisfy { JSONReader.hexValue($0) != nil }
        case .base64:
            let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            possible =
                padding <= 2
                && bytes.dropLast(padding).allSatisfy { byte in
                    byte &- 65 < 26 || byte &- 97 < 26 || byte &- 48 < 10 || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "/")
                } && (padding == 0 || bytes.count % 4 != 0)
        case .uuid: possible = fits("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
        case .date: possible = fits("9999-99-99") && bytes.count < 10
        case .dateTime: possible = bytes.count < 20 && fits("9999-99-99T99:99:99")
        case .cardExpiry:
            possible =
                fits("99/99") && bytes.count < 5
                && (bytes.first.map { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") } ?? true)
        case .pemCertificate:
            let begin = "-----BEGIN CERTIFICATE-----"
            possible = begin.hasPrefix(text) || text.hasPrefix(begin)
        }
        return possible
    }

    /// This format in JSON Schema (2020-12), for the exporter: the keywords, and what they leave unchecked.
    package func jsonSchema(reference: ReferenceData) -> (keywords: SchemaValue, limitation: String?) {
        func pattern(_ source: String) -> SchemaValue { .object([.init(key: "pattern", value: .string(source))]) }
        func codes(_ list: CodeList, withdrawn: Bool) -> SchemaValue {
            .object([.init(key: "enum", value: .array(list.allowed(includingWithdrawn: withdrawn).map { .string($0) }))]
            )
        }
        switch self {
        case .iso4217, .iso4217OrWithdrawn:
            return (codes(reference.currencies, withdrawn: self == .iso4217OrWithdrawn), nil)
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn:
            return (codes(reference.countries, withdrawn: self == .iso3166Alpha2OrWithdrawn), nil)
        case .cardNumber:
            return (
                pattern("^[0-9]{12,19}$"),
                "Card numbers are checked for 12-19 digits; the lengths of their brands and check digits are not."
            )
        case .cardNumberWithSeparators:
            return (
                pattern("^[0-9]+(?:[ -][0-9]+)*$"),
                "Card numbers are checked for digits with single spaces or dashes between them; the lengths of their brands and check digits are not."
            )
        case .hex: return (pattern("^(?:[0-9a-fA-F]{2})+$"), nil)
        case .base64:
            return (pattern("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"), nil)
        case .uuid:
            return (pattern("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"), nil)
        case .date: return (.object([.init(key: "format", value: .string("date"))]), nil)
        case .dateTime: return (.object([.init(key: "format", value: .string("date-time"))]), nil)
        case .luhn:
            return (
                pattern("^[0-9]{12,19}$"), "Card numbers are checked for 12-19 digits; the Luhn check digit is not."
            )
        case .cardExpiry:
            return (
                pattern("^(0[1-9]|1[0-2])/[0-9]{2}$"),
                "Card expiry dates are checked for the MM/YY form; that they are not in the past is not (it depends on the day of validation)."
            )
        case .pemCertificate:
            return (
                pattern(
                    "^-----BEGIN CERTIFICATE-----\\r?\\n(?:[A-Za-z0-9+/=]{64}\\r?\\n)*[A-Za-z0-9+/=]{1,64}\\r?\\n-----END CERTIFICATE-----(?:\\r?\\n)?$"
                ),
                "PEM certificates are checked for their BEGIN/END lines and base64 lines of 64 characters (the last one 1 to 64); that the lines join into valid base64 is not."
            )
        }
    }

    /// The kind of input a form shows for a value of this format (DCEForms' `FormDescription`), when the format decides it.
    package var inputKind: String? {
        switch self {
        case .iso4217, .iso4217OrWithdrawn: "currency"
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn: "country"
        case .luhn, .cardExpiry, .cardNumber, .cardNumberWithSeparators: "numeric"
        case .hex, .base64, .pemCertificate, .uuid, .date, .dateTime: nil
        }
    }

    /// Whether a string has this format.
    func accepts(_ value: String, month: Int = 0, reference: ReferenceData = .bundled) -> Bool {
        value.withUTF8Span { accepts($0, month: month, reference: reference) }
    }

    /// Whether UTF-8 bytes have this format.
    ///
    /// - Parameters:
    ///   - bytes: The value.
    ///   - month: The current month as `year × 12 + month − 1` (UTC), for formats that depend on the date.
    ///   - reference: The code lists and card brands.
    func accepts(_ bytes: Bytes, month: Int = 0, reference: ReferenceData) -> Bool {
        switch self {
        case .cardExpiry: Self.isCardExpiry(bytes, notBefore: month)
        case .iso4217, .iso4217OrWithdrawn:
            reference.currencies.contains(bytes, includingWithdrawn: self == .iso4217OrWithdrawn)
        case .iso3166Alpha2, .iso3166Alpha2OrWithdrawn:
            reference.countries.contains(bytes, includingWithdrawn: self == .iso3166Alpha2OrWithdrawn)
        case .cardNumber, .cardNumberWithSeparators:
            reference.cardBrands.accepts(number: bytes, separators: self == .cardNumberWithSeparators)
        case .luhn: Self.isLuhn(bytes)
        case .hex: Self.isHex(bytes)
        case .base64: Self.isBase64(bytes)
        case .pemCertificate: Self.isPEMCertificate(bytes)
        case .uuid: Self.isUUID(bytes)
        case .date: Self.isDate(bytes)
        case .dateTime: Self.isDateTime(bytes)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { JSONReader.hexValue(byte) != nil }

    static func isLuhn(_ bytes: Bytes) -> Bool {
        guard (12...19).contains(bytes.count), bytes.allSatisfy(isDigit) else { return false }
        return luhnChecksumHolds(digits: bytes)
    }

    /// The Luhn (mod 10) check over ASCII digits, the last being the check digit: the one implementation, used by
    /// the `luhn` format and by the card brands' test of a complete number (which ``Masking`` uses too).
    static func luhnChecksumHolds(digits: Span<UInt8>) -> Bool {
        var sum = 0
        var double = false
        var index = digits.count
        while index > 0 {
            index -= 1
            var digit = Int(digits[index] &- 0x30)
            if double {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
            double.toggle()
        }
        return sum % 10 == 0
    }

    static func isHex(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty && bytes.count % 2 == 0 && bytes.allSatisfy(isHexDigit)
    }

    static func isBase64(_ bytes: Bytes) -> Bool {
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return false }
        var padding = 0
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "="): padding += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }  // '=' only at the end
            default: return false
            }
        }
        return padding <= 2
    }

    private static let pemBegin = Array("-----BEGIN CERTIFICATE-----".utf8)
    private static let pemEnd = Array("-----END CERTIFICATE-----".utf8)

    /// Lines are split on LF bytes with an optional CR before each (in Swift, "\r\n" is one Character, so this is
    /// done on bytes).
    static func isPEMCertificate(_ bytes: Bytes) -> Bool {
        var lines = bytes.array.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        if lines.last?.isEmpty == true { lines.removeLast() }  // one final line break is usual
        guard lines.count >= 3, lines[0].elementsEqual(pemBegin), lines[lines.count - 1].elementsEqual(pemEnd) else {
            return false
        }
        // Seed 002: "the Base64-encoded value should have lines of length 64"; the last line holds what is left.
        let body = lines[1..<(lines.count - 1)]
        guard body.dropLast().allSatisfy({ $0.count == 64 }), let last = body.last, (1...64).contains(last.count) else {
            return false
        }
        return Array(body.joined()).withSpan(isBase64)
    }

    static func isCardExpiry(_ bytes: Bytes, notBefore month: Int) -> Bool {
        guard bytes.count == 5, bytes[2] == UInt8(ascii: "/"), let mm = number(bytes, 0..<2),
            let yy = number(bytes, 3..<5),
            (1...12).contains(mm)
        else { return false }
        return (2000 + yy) * 12 + mm - 1 >= month
    }

    static func isUUID(_ bytes: Bytes) -> Bool {
        guard bytes.count == 36 else { return false }
        for offset in bytes.indices {
            let byte = bytes[offset]
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(byte) {
                return false
            }
        }
        return true
    }

    private static func number(_ bytes: Bytes, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }

    /// `YYYY-MM-DD`, a real calendar date, starting at `start`.
    static func isDate(_ bytes: Bytes, at start: Int = 0, exact: Bool = true) -> Bool {
        guard bytes.count >= start + 10, !exact || bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"),
            bytes[start + 7] == UInt8(ascii: "-"), let year = number(bytes, start..<(start + 4)),
            let month = number(bytes, (start + 5)..<(start + 7)), let day = number(bytes, (start + 8)..<(start + 10)),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        return day <= days
    }

    /// RFC 3339 `date-time`: `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm)`.
    package static func isDateTime(_ bytes: Bytes) -> Bool {
        guard bytes.count >= 20, isDate(bytes, at: 0, exact: false), bytes[10] | 0x20 == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hours = number(bytes, 11..<13), let minutes = number(bytes, 14..<16),
            let seconds = number(bytes, 17..<19),
            hours <= 23, minutes <= 59, seconds <= 60  // 60: a leap second
        else { return false }
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
            let offsetHours = number(bytes, (index + 1)..<(index + 3)),
            let offsetMinutes = number(bytes, (index + 4)..<(index + 6))
        else { return false }
        return offsetHours <= 23 && offsetMinutes <= 59
    }
}

/// A set of formats as bits, by their places in `Format.allCases`: what an attribute set's record holds, a plain
/// value (any one of the formats suffices, so their order does not matter).
struct FormatSet: Sendable {
    private var bits: UInt32 = 0
    /// Every format, by place (`allCases` of an enum makes a new array each time it is read).
    private static let all = Format.allCases

    init(_ formats: [Format]) {
        precondition(Self.all.count <= UInt32.bitWidth, "a format set holds a bit for each format")
        for format in formats {
            guard let place = Self.all.firstIndex(of: format) else { continue }
            bits |= 1 << UInt32(place)
        }
    }

    var isEmpty: Bool { bits == 0 }

    /// Whether any of the formats satisfies `predicate`.
    func contains(where predicate: (Format) -> Bool) -> Bool {
        var rest = bits
        while rest != 0 {
            let place = rest.trailingZeroBitCount
            if predicate(Self.all[place]) { return true }
            rest &= rest - 1
        }
        return false
    }
}
