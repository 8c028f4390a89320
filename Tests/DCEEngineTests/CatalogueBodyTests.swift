import DCEEngine
import DCEEnvelope
import Foundation
import Testing

/// The catalogue body the gateway signs, and its `expires` timestamps.
struct CatalogueBodyTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0), ("2026-12-23T00:00:00Z", 1_797_984_000), ("2028-02-29T23:59:59Z", 1_835_481_599),
        ("1969-12-31T23:59:59Z", -1), ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("2000-03-01T12:30:05Z", 951_913_805),
    ])
    func timestampsAreReadAndWrittenExactly(text: String, seconds: TimeInterval) {
        #expect(UTCTimestamp.date(from: text) == Date(timeIntervalSince1970: seconds))
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: seconds)) == text)
        // fractions are dropped
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: seconds + 0.75)) == text)
    }

    @Test(arguments: [
        "2026-12-23T00:00:00+00:00", "2026-12-23T00:00:00.5Z", "2026-12-23t00:00:00Z", "2026-12-23T00:00:00z",
        "2026-12-23 00:00:00Z", "2027-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-00-10T00:00:00Z",
        "2026-12-00T00:00:00Z", "2026-12-23T24:00:00Z", "2026-12-23T23:60:00Z", "2026-12-23T23:59:60Z",
        "0000-01-01T00:00:00Z",
        "2026-12-23", "", "+026-12-23T00:00:00Z", "2026-1-23T00:00:00Z",
    ])
    func anyOtherFormIsRefused(text: String) {
        #expect(UTCTimestamp.date(from: text) == nil)
    }

    @Test func datesOutsideFourDigitYearsCannotBeWritten() {
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == nil)
        #expect(UTCTimestamp.string(from: Date(timeIntervalSince1970: -62_135_596_801)) == nil)
    }

    @Test func aBodyIsReadBackAsWritten() throws {
        let schema = Array(#"{"id": "a", "fields": []}"#.utf8)
        let written = CatalogueBody(
            version: try CatalogueVersion("2026.11.1"), expires: Date(timeIntervalSince1970: 1_797_984_000.9),
            documents: ["a": schema])
        let json = try written.json()
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"version":"2026.11.1","expires":"2026-12-23T00:00:00Z","schemas":{"a":{"id":"a","fields":[]}}}"#)
        let read = try CatalogueBody(json: json)
        #expect(read.version.description == "2026.11.1")
        #expect(read.expires == Date(timeIntervalSince1970: 1_797_984_000))
        #expect(read.documents == ["a": Array(#"{"id":"a","fields":[]}"#.utf8)])
    }

    @Test(arguments: [
        (#"{"version":"1","schemas":{}}"#, CatalogueError.Code.invalidExpiry),
        (
            #"{"version":"1","expires":"2026-12-23T00:00:00Z","expires":"2099-12-23T00:00:00Z","schemas":{}}"#,
            .malformed
        ),
        (#"{"version":"1","version":"2","expires":"2026-12-23T00:00:00Z","schemas":{}}"#, .malformed),
        (#"{"version":"1","expires":"2026-12-23T00:00:00Z","schemas":{"a":{},"a":{}}}"#, .malformed),
        (#"{"version":"1","expires":"2026-12-23T00:00:00Z","schemas":[]}"#, .malformed),
        (#"{"version":"1.x","expires":"2026-12-23T00:00:00Z","schemas":{}}"#, .invalidVersion),
        (#"{"expires":"2026-12-23T00:00:00Z","schemas":{}}"#, .malformed),
        (#"["version","1"]"#, .malformed),
        (#"{"version":"1","#, .malformed),
    ])
    func aBodyThatIsNotOfItsFormIsRefused(json: String, code: CatalogueError.Code) {
        let error = #expect(throws: CatalogueError.self) { try CatalogueBody(json: Array(json.utf8)) }
        #expect(error?.code == code, "\(error?.message ?? "")")
    }

    @Test func aDocumentThatIsNotJSONCannotBeWritten() throws {
        let body = CatalogueBody(
            version: try CatalogueVersion("1"), expires: Date(timeIntervalSince1970: 0),
            documents: ["a": Array("{".utf8)])
        let error = #expect(throws: CatalogueError.self) { try body.json() }
        #expect(error?.code == .malformed)
    }
}
