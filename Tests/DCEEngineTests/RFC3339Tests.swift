import DCEEngine
import DCEEnvelope
import Foundation
import Testing

/// The envelope's creation time travels as RFC 3339 text and is bound into every seal, so it must be written the
/// same way every time and read exactly.
struct RFC3339Tests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_795_400_130.25, "2026-11-23T02:15:30.250Z"),
        (951_782_400.0, "2000-02-29T00:00:00.000Z"),
        (-1.5, "1969-12-31T23:59:58.500Z"),
    ])
    func writesUTCWithMilliseconds(seconds: Double, text: String) {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: seconds)) == text)
        #expect(RFC3339.date(from: text) == Date(timeIntervalSince1970: seconds))
    }

    @Test func readsOffsetsAndFractions() throws {
        let utc = try #require(RFC3339.date(from: "2026-11-23T10:15:30Z"))
        #expect(RFC3339.date(from: "2026-11-23T11:15:30+01:00") == utc)
        #expect(RFC3339.date(from: "2026-11-23T05:45:30-04:30") == utc)
        #expect(RFC3339.date(from: "2026-11-23t10:15:30z") == utc)
        let fraction = try #require(RFC3339.date(from: "2026-11-23T10:15:30.5Z"))
        #expect(fraction.timeIntervalSince(utc) == 0.5)
    }

    @Test func aWrittenTimeReadsBackToTheSameText() {
        for _ in 0..<1_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0..<4_000_000_000))
            let text = RFC3339.string(from: date)
            #expect(RFC3339.date(from: text).map(RFC3339.string(from:)) == text)
        }
    }

    @Test(arguments: [
        "", "2026-11-23", "2026-11-23T10:15:30", "2026-13-01T00:00:00Z", "2026-11-23T25:00:00Z", "2026-11-23 10:15:30Z",
        "x",
    ])
    func refusesWhatIsNotADateTime(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }
}
