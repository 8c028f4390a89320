import Crypto
import DCEClient
import DCEEngine
import DCEGateway
import Foundation
import Testing

/// The client's schema catalogue against the reference gateway on loopback: versions only move forward, and
/// catalogues expire.
@Suite(.serialized)
struct SchemaCatalogueTests {
    let keys = Gateway.Keys.generate()
    let clock = ManualClock()
    private let validCard = Array(#"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#.utf8)

    private func catalogue(_ url: URL, timeout: TimeInterval = 5) throws -> SchemaCatalogue {
        let clock = clock
        return try SchemaCatalogue(baseURL: url, signingKey: try keys.signingPublicKey, timeout: timeout, now: { clock.now })
    }

    /// The rules the catalogue's validator breaks with a card that only the stricter set refuses.
    private func rules(_ catalogue: SchemaCatalogue) async throws -> [ViolationCode] {
        try await catalogue.validator.validate(json: validCard, schema: "card-create", context: ["region": "EU"]).errors.map(\.rule)
    }

    /// A body signed with the gateway's key, exactly as written.
    private func signed(_ body: String) throws -> Faults.Mode {
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: keys.signing).signature(for: Array(body.utf8))
        return .catalogue(body: Array(body.utf8), signature: signature.base64EncodedString())
    }

    private var inAnHour: Date { clock.now + 3_600 }

    // MARK: Versions only move forward

    @Test func aRollbackToAnOlderValidlySignedCatalogueIsRefused() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1")) { url, gateway, faults in
            let catalogue = try catalogue(url)
            #expect(await catalogue.refresh() == .updated(version: "1"))
            let first = gateway.catalogue
            try gateway.publish(try stricterDocuments(), version: "2")
            #expect(await catalogue.refresh() == .updated(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])

            faults.set(.serving(first))
            #expect(await catalogue.refresh() == .notNewer(offered: "1", inForce: "2"))
            #expect(await catalogue.origin == .gateway(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])
        }
    }

    @Test func aCatalogueOfTheSameVersionIsNotNewerUnlessItIsTheSameCatalogue() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1")) { url, gateway, faults in
            let catalogue = try catalogue(url)
            try gateway.publish(try stricterDocuments(), version: "2")
            #expect(await catalogue.refresh() == .updated(version: "2"))
            let bundled = try SchemaSource.bundled.documents()
            for version in ["2", "2.0", "02"] {
                faults.set(.serving(try Gateway.catalogue(bundled, version: version, expires: inAnHour, signingKey: keys.signing)))
                #expect(await catalogue.refresh() == .notNewer(offered: version, inForce: "2"))
            }
            // The catalogue in force, sent again without regard to If-None-Match.
            faults.set(.serving(gateway.catalogue))
            #expect(await catalogue.refresh() == .notModified)
            #expect(await catalogue.origin == .gateway(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])
        }
    }

    @Test func versionsCompareNumberByNumber() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "2026.11.9")) { url, gateway, faults in
            let catalogue = try catalogue(url)
            #expect(await catalogue.refresh() == .updated(version: "2026.11.9"))
            try gateway.publish(try stricterDocuments(), version: "2026.11.10")  // older as text, newer as numbers
            #expect(await catalogue.refresh() == .updated(version: "2026.11.10"))
            faults.set(.serving(try Gateway.catalogue(try SchemaSource.bundled.documents(), version: "2026.9.30", expires: inAnHour, signingKey: keys.signing)))
            #expect(await catalogue.refresh() == .notNewer(offered: "2026.9.30", inForce: "2026.11.10"))
        }
    }

    @Test(arguments: [
        (#"{"version":"v2","expires":"2099-01-01T00:00:00Z","schemas":{}}"#, "not decimal numbers"),
        (#"{"version":"2.1-beta","expires":"2099-01-01T00:00:00Z","schemas":{}}"#, "not decimal numbers"),
        (#"{"version":2,"expires":"2099-01-01T00:00:00Z","schemas":{}}"#, "\"version\" is not a string"),
        (#"{"version":"2","schemas":{}}"#, "no \"expires\""),
        (#"{"version":"2","expires":"2099-01-01T00:00:00+00:00","schemas":{}}"#, "\"expires\" is not a UTC time"),
        (#"{"version":"2","expires":"2099-02-30T00:00:00Z","schemas":{}}"#, "\"expires\" is not a UTC time"),
        (#"{"version":"2","expires":4070908800,"schemas":{}}"#, "\"expires\" is not a UTC time"),
    ])
    func aSignedCatalogueWithoutAValidVersionOrExpiryIsKeptOut(body: String, reason: String) async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1")) { url, _, faults in
            let catalogue = try catalogue(url)
            faults.set(try signed(body))
            guard case .kept(let kept) = await catalogue.refresh() else { Issue.record("taken: \(body)"); return }
            #expect(kept.contains(reason), "\(kept)")
            #expect(await catalogue.origin == .bundled)
        }
    }

    // MARK: A signed expiry

    @Test func anExpiredCatalogueIsRefused() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1")) { url, _, faults in
            let catalogue = try catalogue(url)
            let expired = try Gateway.catalogue(try stricterDocuments(), version: "5", expires: clock.now - 60, signingKey: keys.signing)
            faults.set(.serving(expired))
            #expect(await catalogue.refresh() == .expired(version: "5", at: expired.expires))
            #expect(await catalogue.origin == .bundled)
            #expect(try await rules(catalogue) == [])
        }
    }

    @Test func aCatalogueInForceThatExpiresIsNoLongerUsed() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1")) { url, gateway, faults in
            let catalogue = try catalogue(url)
            try gateway.publish(try stricterDocuments(), version: "2", lifetime: 3_600)
            #expect(await catalogue.refresh() == .updated(version: "2"))
            #expect(await catalogue.etag == gateway.catalogue.etag)
            #expect(try await rules(catalogue) == [.maxLength])

            clock.advance(by: 7_200)
            #expect(await catalogue.origin == .bundled)
            #expect(try await rules(catalogue) == [])
            #expect(await catalogue.etag == nil)
            // Nothing in force to name in If-None-Match: the gateway's catalogue comes whole, and it has expired.
            let asked = faults.ifNoneMatch.count
            #expect(await catalogue.refresh() == .expired(version: "2", at: gateway.catalogue.expires))
            #expect(faults.ifNoneMatch.count == asked)
        }
    }
}
