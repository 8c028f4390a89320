import DCEEngine
public import Foundation

/// Timestamps as RFC 3339 text in UTC (`2026-11-23T10:15:30.250Z`): the envelope's creation time and the schema
/// catalogue's expiry. Written and read without `DateFormatter`, which would load ICU's data for one date.
public enum RFC3339 {
    /// A date as `YYYY-MM-DDThh:mm:ss.sssZ` (milliseconds, UTC).
    ///
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func string(from date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return text(seconds: seconds, milliseconds: milliseconds - seconds * 1000)
    }

    /// `YYYY-MM-DDThh:mm:ss` of a second counted from 1970-01-01 (UTC), then `.sss` when `milliseconds` is given,
    /// then `Z`.
    static func text(seconds: Int, milliseconds: Int?) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let fraction = milliseconds.map { "." + pad($0, 3) } ?? ""
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2)):"
            + "\(pad(time % 60, 2))\(fraction)Z"
    }

    /// Reads an RFC 3339 date-time: `Z` or a `±hh:mm` offset, with or without a fraction of a second.
    ///
    /// - Parameter text: The text.
    /// - Returns: The date, or `nil` when the text is not an RFC 3339 date-time.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.withSpan({ Format.isDateTime($0) }) else { return nil }
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let days = Self.days(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        var seconds = Double(days * 86_400) + Double(number(11..<13) * 3600 + number(14..<16) * 60 + number(17..<19))
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while bytes[index] &- 0x30 < 10 {
                seconds += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
        }
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let offset = Double(number((index + 1)..<(index + 3)) * 3600 + number((index + 4)..<(index + 6)) * 60)
            seconds += bytes[index] == UInt8(ascii: "+") ? -offset : offset
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
