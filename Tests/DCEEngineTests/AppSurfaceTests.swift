import DCEEngine
import Foundation
import Testing

/// The engine as an app sees it: this file imports `DCEEngine` alone, without `@testable` and without the package's
/// other modules, so that it compiles only against what an app can write.
struct AppSurfaceTests {
    private static let payload = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "12a4"}"#

    @Test func anAppChoosesItsMatchLimitsWithTheEngineAlone() throws {
        let limits = MatchLimits(matchLimit: 50_000, depthLimit: 500, heapLimitKiB: 2_048)
        #expect(limits != MatchLimits.default && MatchLimits.default.matchLimit == 100_000)
        let validator = try Validator(schemaIDs: ["card-create"], matchLimits: limits)
        let report = try validator.prepare("card-create").validate(json: Array(Self.payload.utf8))
        #expect(!report.valid && report.errors.contains { $0.path == "/cardPin" })
    }

    @Test func anAppFingerprintsRejectedValuesWithoutUnsafeCode() throws {
        /// Names a value by its length: an app's own fingerprinter, written against a `Span`.
        struct ByLength: ValueFingerprinter {
            func fingerprint(_ value: Span<UInt8>) -> String { "bytes:\(value.count)" }
        }
        let prepared = try Validator(schemaIDs: ["card-create"]).prepare("card-create")
            .fingerprinting(with: ByLength())
        let pin = try #require(prepared.validate(json: Array(Self.payload.utf8)).errors.first { $0.path == "/cardPin" })
        #expect(pin.fingerprint == "bytes:4")
    }

    @Test func anAppReadsAPayloadOnceUnderItsOwnLimits() throws {
        let tight = JSONLimits(maxDepth: 2, maxDocumentBytes: 1_024, maxStringBytes: 64)
        let deep = Array(#"{"a": {"b": [1]}}"#.utf8)
        #expect(throws: JSONReadError.self) { try JSONDocument(bytes: deep, limits: tight) }
        let document = try JSONDocument(bytes: Array(Self.payload.utf8), limits: tight)
        let prepared = try Validator(schemaIDs: ["card-create"]).prepare("card-create")
        #expect(prepared.validate(document).valid == prepared.isValid(document))
    }
}
