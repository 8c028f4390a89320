package import Foundation

/// `YYYY-MM-DDThh:mm:ssZ`: RFC 3339 in UTC with whole seconds, the one form of a catalogue's `expires`.
///
/// Written and read by calendar arithmetic (days from 1970-01-01 in the proleptic Gregorian calendar) rather than
/// `DateFormatter` or `ISO8601DateFormatter`, which load ICU's data and accept more forms than this one.
package enum UTCTimestamp {
    /// The date as `YYYY-MM-DDThh:mm:ssZ`, fractions of a second dropped.
    ///
    /// - Parameter date: The date.
    /// - Returns: The text, or `nil` outside the years 0001 to 9999.
    package static func string(from date: Date) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= firstSecond, seconds <= lastSecond else { return nil }
        return RFC3339.text(seconds: Int(seconds), milliseconds: nil)
    }

    /// Reads `YYYY-MM-DDThh:mm:ssZ` and nothing else: no offsets, fractions, lower-case letters or leap seconds.
    ///
    /// - Parameter text: The text.
    /// - Returns: The date, or `nil` when the text is not of that form or names no real date.
    package static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hours = number(bytes[11..<13]), let minutes = number(bytes[14..<16]),
            let seconds = number(bytes[17..<19]),
            year >= 1, (1...12).contains(month), (1...31).contains(day), hours <= 23, minutes <= 59, seconds <= 59
        else { return nil }
        let days = RFC3339.days(year: year, month: month, day: day)
        // February 30th and the like come back as another date.
        guard RFC3339.civil(fromDays: days) == (year, month, day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hours * 3_600 + minutes * 60 + seconds))
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    private static let firstSecond = -62_135_596_800.0
    private static let lastSecond = 253_402_300_799.0

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
