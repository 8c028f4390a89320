import Foundation
import Testing

@testable import DCEEngine

struct FormatTests {
    @Test func codeListsHaveTheirPublishedSizes() {
        let reference = ReferenceData.bundled
        #expect(reference.countries.codes.count == 249)
        #expect(reference.currencies.codes.count == 178)
        #expect(reference.currencies.withdrawnCodes.map(\.code) == ["SLL", "HRK", "ZWL", "ANG", "BGN"])
    }

    @Test func withdrawnCodesPassOnlyWhereTheSchemaAllowsThem() {
        for code in ["BGN", "ANG", "HRK"] {
            #expect(!Format.iso4217.accepts(code), "\(code)")
            #expect(Format.iso4217OrWithdrawn.accepts(code), "\(code)")
        }
        for code in ["XCG", "XAD", "EUR", "ZWG"] { #expect(Format.iso4217.accepts(code), "\(code)") }
        #expect(!Format.iso4217OrWithdrawn.accepts("DEM"))  // withdrawn in 2002: not recent
        #expect(!Format.iso3166Alpha2.accepts("AN"))
        #expect(Format.iso3166Alpha2OrWithdrawn.accepts("AN"))
        #expect(!Format.iso3166Alpha2OrWithdrawn.accepts("ZR"))  // withdrawn in 1997
    }

    @Test(arguments: ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "4222222222222"])
    func luhnAcceptsValidCardNumbers(number: String) { #expect(Format.luhn.accepts(number)) }

    @Test(arguments: [
        "4111111111111112", "411111111111", "41111111111111111111", "4111 1111 1111 1111", "", "abcdabcdabcdabcd",
    ])
    func luhnRejectsTheRest(number: String) { #expect(!Format.luhn.accepts(number)) }

    @Test func hexIsEvenLengthCaseInsensitive() {
        #expect(Format.hex.accepts("DEADbeef"))
        #expect(!Format.hex.accepts("abc"))
        #expect(!Format.hex.accepts(""))
        #expect(!Format.hex.accepts("0x00"))
    }

    @Test func base64IsPaddedStandardAlphabet() {
        for valid in ["w1koQg==", "QUJD", "QUI=", "+/+/"] { #expect(Format.base64.accepts(valid), "\(valid)") }
        for invalid in ["w1koQg=", "QU=I", "QUJD====", "-_-_", "", "QUJ D"] {
            #expect(!Format.base64.accepts(invalid), "\(invalid)")
        }
    }

    @Test func uuidIsTheCanonicalForm() {
        #expect(Format.uuid.accepts("f16ba382-eb42-481a-b08f-c57bdc9aae24"))
        #expect(Format.uuid.accepts("F16BA382-EB42-481A-B08F-C57BDC9AAE24"))
        #expect(!Format.uuid.accepts("f16ba382eb42481ab08fc57bdc9aae24"))
        #expect(!Format.uuid.accepts("{f16ba382-eb42-481a-b08f-c57bdc9aae24}"))
        #expect(!Format.uuid.accepts("g16ba382-eb42-481a-b08f-c57bdc9aae24"))
    }

    @Test func datesAreRealCalendarDates() {
        for valid in ["2024-02-29", "2000-02-29", "1999-12-31"] { #expect(Format.date.accepts(valid), "\(valid)") }
        for invalid in [
            "2023-02-29", "1900-02-29", "2024-13-01", "2024-04-31", "2024-1-01", "20240101", "2024-01-01T00:00:00Z",
        ] {
            #expect(!Format.date.accepts(invalid), "\(invalid)")
        }
    }

    @Test func dateTimesCarryATimeZone() {
        for valid in [
            "2024-01-31T10:00:00Z", "2024-01-31t10:00:00z", "2024-01-31T10:00:00.123+05:30", "2016-12-31T23:59:60Z",
        ] {
            #expect(Format.dateTime.accepts(valid), "\(valid)")
        }
        for invalid in [
            "2024-01-31T10:00:00", "2024-01-31 10:00:00Z", "2024-01-31T24:00:00Z", "2024-01-31T10:00:00+5:30",
            "2024-01-31T10:00:00.Z", "2024-02-30T10:00:00Z", "2024-01-31T10:00Z",
        ] {
            #expect(!Format.dateTime.accepts(invalid), "\(invalid)")
        }
    }

    /// A card's expiry is compared with the current month, worked out from the day number: it agrees with Foundation's
    /// Gregorian calendar in UTC at every month's first and last second from 1900 to 2200 (leap days and centuries).
    @Test func theCurrentMonthAgreesWithTheCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var disagreements: [String] = []
        for year in 1900...2200 {
            for month in 1...12 {
                let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
                let expected = year * 12 + month - 1
                for moment in [first, first.addingTimeInterval(-1), first.addingTimeInterval(86_400 * 15)] {
                    let parts = calendar.dateComponents([.year, .month], from: moment)
                    let calendarMonth = parts.year! * 12 + parts.month! - 1
                    if PreparedSchema.month(of: moment) != calendarMonth { disagreements.append("\(moment)") }
                }
                #expect(PreparedSchema.month(of: first) == expected)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
