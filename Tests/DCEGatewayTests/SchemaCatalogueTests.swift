import Crypto
import DCEEngine
import DCEForms
import DCEGateway
import Foundation
import Testing

@testable import DCEClient

/// The client's schema catalogue against the reference gateway on loopback: versions only move forward, catalogues
/// expire, and the last good one is stored and verified again at start.
@Suite(.serialized)
struct SchemaCatalogueTests {
    let keys = Gateway.Keys.generate()
    let clock = ManualClock()
    private let validCard = Array(
        #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#.utf8)

    /// A catalogue on the test's clock. The timeout is generous: the whole suite shares two cores with other builds.
    private func catalogue(
        _ url: URL, storage: URL? = nil, gracePeriod: TimeInterval = 0, timeout: TimeInterval = 30
    ) throws -> SchemaCatalogue {
        let clock = clock
        return try SchemaCatalogue(
            baseURL: url, signingKey: try keys.signingPublicKey, storage: storage, gracePeriod: gracePeriod,
            timeout: timeout, now: { clock.now })
    }

    /// Refreshes and compares the outcome (held in a constant, so that a failure shows it).
    private func refresh(
        _ catalogue: SchemaCatalogue, expecting expected: SchemaCatalogue.Outcome,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let outcome = await catalogue.refresh()
        #expect(outcome == expected, sourceLocation: sourceLocation)
    }

    /// The rules the catalogue's validator breaks with a card that only the stricter set refuses.
    private func rules(_ catalogue: SchemaCatalogue) async throws -> [ViolationCode] {
        try await catalogue.validator.validate(json: validCard, schema: "card-create", context: ["region": "EU"]).errors
            .map(\.rule)
    }

    private func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dce-catalogue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A body signed with the gateway's key, exactly as written.
    private func signed(_ body: String) throws -> Faults.Mode {
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: keys.signing).signature(
            for: Array(body.utf8))
        return .catalogue(body: Array(body.utf8), signature: signature.base64EncodedString())
    }

    private var inAnHour: Date { clock.now + 3_600 }

    // MARK: Versions only move forward

    @Test func aRollbackToAnOlderValidlySignedCatalogueIsRefused() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, faults in
            let catalogue = try catalogue(url)
            await refresh(catalogue, expecting: .updated(version: "1"))
            let first = gateway.catalogue
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])

            faults.set(.serving(first))
            await refresh(catalogue, expecting: .notNewer(offered: "1", inForce: "2"))
            #expect(await catalogue.origin == .gateway(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])
        }
    }

    @Test func aCatalogueOfTheSameVersionIsNotNewerUnlessItIsTheSameCatalogue() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, faults in
            let catalogue = try catalogue(url)
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2"))
            let bundled = try SchemaSource.bundled.documents()
            for version in ["2", "2.0", "02"] {
                faults.set(
                    .serving(
                        try Gateway.catalogue(bundled, version: version, expires: inAnHour, signingKey: keys.signing)))
                await refresh(catalogue, expecting: .notNewer(offered: version, inForce: "2"))
            }
            // The catalogue in force, sent again without regard to If-None-Match.
            faults.set(.serving(gateway.catalogue))
            await refresh(catalogue, expecting: .notModified)
            #expect(await catalogue.origin == .gateway(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])
        }
    }

    @Test func versionsCompareNumberByNumber() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "2026.11.9", authentication: .none)) {
            url, gateway, faults in
            let catalogue = try catalogue(url)
            await refresh(catalogue, expecting: .updated(version: "2026.11.9"))
            // older as text, newer as numbers
            try await gateway.publish(try stricterDocuments(), version: "2026.11.10", allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2026.11.10"))
            faults.set(
                .serving(
                    try Gateway.catalogue(
                        try SchemaSource.bundled.documents(), version: "2026.9.30", expires: inAnHour,
                        signingKey: keys.signing)))
            await refresh(catalogue, expecting: .notNewer(offered: "2026.9.30", inForce: "2026.11.10"))
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
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) { url, _, faults in
            let catalogue = try catalogue(url)
            faults.set(try signed(body))
            guard case .kept(let kept) = await catalogue.refresh() else {
                Issue.record("taken: \(body)")
                return
            }
            #expect(kept.contains(reason), "\(kept)")
            #expect(await catalogue.origin == .bundled)
        }
    }

    // MARK: A signed expiry

    @Test func anExpiredCatalogueIsRefused() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) { url, _, faults in
            let catalogue = try catalogue(url)
            let expired = try Gateway.catalogue(
                try stricterDocuments(), version: "5", expires: clock.now - 60, signingKey: keys.signing)
            faults.set(.serving(expired))
            await refresh(catalogue, expecting: .expired(version: "5", at: expired.expires))
            #expect(await catalogue.origin == .bundled)
            #expect(try await rules(catalogue) == [])
        }
    }

    @Test func aCatalogueInForceThatExpiresIsNoLongerUsed() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, faults in
            let catalogue = try catalogue(url)
            try await gateway.publish(try stricterDocuments(), version: "2", lifetime: 3_600, allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2"))
            #expect(await catalogue.etag == gateway.catalogue.etag)
            #expect(try await rules(catalogue) == [.maxLength])

            clock.advance(by: 7_200)
            #expect(await catalogue.origin == .bundled)
            #expect(try await rules(catalogue) == [])
            #expect(await catalogue.etag == nil)
            // Nothing in force to name in If-None-Match: the gateway's catalogue comes whole, and it has expired.
            let asked = faults.ifNoneMatch.count
            await refresh(catalogue, expecting: .expired(version: "2", at: gateway.catalogue.expires))
            #expect(faults.ifNoneMatch.count == asked)
        }
    }

    /// The grace period: past its expiry, the newest catalogue taken serves for as long as the app said, then the
    /// bundled schemas do; after a restart within it, the stored one serves the rest of it.
    @Test func pastItsExpiryTheLastGoodCatalogueServesForTheGracePeriod() async throws {
        let storage = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, _ in
            let catalogue = try catalogue(url, storage: storage, gracePeriod: 600)
            try await gateway.publish(try stricterDocuments(), version: "2", lifetime: 3_600, allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2"))
            let expires = gateway.catalogue.expires
            clock.advance(by: 3_600 + 60)
            #expect(await catalogue.origin == .grace(version: "2", expired: expires))
            #expect(try await rules(catalogue) == [.maxLength])
            let restarted = try self.catalogue(url, storage: storage, gracePeriod: 600)
            #expect(await restarted.storageProblem == nil)
            #expect(await restarted.origin == .grace(version: "2", expired: expires))
            let without = try self.catalogue(url, storage: storage)
            #expect(await without.origin == .bundled)
            clock.advance(by: 600)
            #expect(await catalogue.origin == .bundled)
            #expect(await restarted.origin == .bundled)
            #expect(try await rules(catalogue) == [])
        }
    }

    /// A form left open while a new catalogue arrives adopts it, keeping what was typed: the program name typed under
    /// the bundled rules is checked again under the stricter ones.
    @Test func anOpenFormAdoptsANewCatalogueAndKeepsItsDraft() async throws {
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, _ in
            try await Self.followNewCatalogue(try catalogue(url), from: gateway)
        }
    }

    /// The app's side of the test above, on the main actor as a form is.
    @MainActor
    private static func followNewCatalogue(_ catalogue: SchemaCatalogue, from gateway: Gateway) async throws {
        let updates = await catalogue.updates()
        let form = try FormModel(await catalogue.validator.prepare("card-create", context: ["region": "EU"]))
        try form.set("SKRILL-VIRTUAL-MC-EEA", at: "/programName")
        try form.set("EUR", at: "/currency")
        let program = try #require(form.field(at: "/programName"))
        #expect(program.state == .valid && form.canSubmit)
        try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
        #expect(await catalogue.refresh() == .updated(version: "2"))
        var next = updates.makeAsyncIterator()
        let validator = try #require(await next.next())
        try form.adopt(validator)
        #expect(form.field(at: "/programName") === program)
        #expect(program.text == "SKRILL-VIRTUAL-MC-EEA" && form.field(at: "/currency")?.text == "EUR")
        #expect(program.state == .invalid && program.rule == .maxLength && program.maxLength == 5)
        #expect(!form.canSubmit)
        #expect(form.schema.context == ["region": "EU"])
    }

    // MARK: The last good catalogue on disk

    @Test func theStoredCatalogueServesAfterARestartAndARollbackIsStillRefused() async throws {
        let storage = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) {
            url, gateway, faults in
            let first = gateway.catalogue
            let before = try catalogue(url, storage: storage)
            await refresh(before, expecting: .updated(version: "1"))
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            await refresh(before, expecting: .updated(version: "2"))
            #expect(await before.storageProblem == nil)

            // A restart with the gateway down.
            let down = try catalogue(try #require(URL(string: "http://127.0.0.1:9")), storage: storage, timeout: 1)
            #expect(await down.origin == .stored(version: "2"))
            #expect(await down.storageProblem == nil)
            #expect(try await rules(down) == [.maxLength])
            guard case .kept = await down.refresh() else {
                Issue.record("a gateway that is down answered")
                return
            }
            #expect(await down.origin == .stored(version: "2"))

            // A restart while the gateway fails, then comes back serving the older catalogue.
            let after = try catalogue(url, storage: storage)
            faults.set(.status(503))
            await refresh(after, expecting: .kept(reason: "the gateway answered HTTP 503"))
            faults.set(.serving(first))
            await refresh(after, expecting: .notNewer(offered: "1", inForce: "2"))
            #expect(await after.origin == .stored(version: "2"))
            #expect(try await rules(after) == [.maxLength])
            // The stored ETag goes out as If-None-Match, and the gateway's own catalogue is the one in force.
            faults.set(.none)
            await refresh(after, expecting: .notModified)
            #expect(faults.ifNoneMatch.last == gateway.catalogue.etag)
        }
    }

    @Test func theCatalogueIsStoredByRenamingACompleteNewFile() async throws {
        let storage = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        let file = storage.appendingPathComponent(CatalogueStore.fileName)
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) { url, gateway, _ in
            let catalogue = try catalogue(url, storage: storage)
            await refresh(catalogue, expecting: .updated(version: "1"))
            let first = try Data(contentsOf: file)
            #expect(try CatalogueStore.record(from: [UInt8](first)).body == gateway.catalogue.body)
            // A reader holding the old file (here: a second link to it) keeps it whole while the new one is written.
            let held = storage.appendingPathComponent("held")
            try FileManager.default.linkItem(at: file, to: held)
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            await refresh(catalogue, expecting: .updated(version: "2"))
            #expect(try Data(contentsOf: held) == first)
            let record = try CatalogueStore.record(from: [UInt8](try Data(contentsOf: file)))
            #expect(record.body == gateway.catalogue.body)
            #expect(record.signature.base64EncodedString() == gateway.catalogue.signature)
            #expect(record.etag == gateway.catalogue.etag)
            try FileManager.default.removeItem(at: held)
            #expect(try FileManager.default.contentsOfDirectory(atPath: storage.path) == [CatalogueStore.fileName])
        }
    }

    @Test func whenTheCatalogueCannotBeStoredItIsStillUsedAndTheStoredOneIsTheFallback() async throws {
        let storage = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        let file = storage.appendingPathComponent(CatalogueStore.fileName)
        try await withLoopbackGateway(try Gateway(keys: keys, version: "1", authentication: .none)) { url, gateway, _ in
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            let first = try catalogue(url, storage: storage)
            await refresh(first, expecting: .updated(version: "2"))
            let restarted = try catalogue(url, storage: storage)
            #expect(await restarted.origin == .stored(version: "2"))
            // The file's place is taken by a directory: the next catalogue cannot be renamed into it.
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(
                at: file.appendingPathComponent("in-the-way"), withIntermediateDirectories: true)
            try await gateway.publish(try SchemaSource.bundled.documents(), version: "3", lifetime: 3_600)
            await refresh(restarted, expecting: .updated(version: "3"))
            #expect(await restarted.storageProblem?.contains("cannot be stored") == true)
            #expect(try await rules(restarted) == [])
            #expect(try FileManager.default.contentsOfDirectory(atPath: storage.path) == [CatalogueStore.fileName])

            clock.advance(by: 7_200)
            #expect(await restarted.origin == .stored(version: "2"))
            #expect(try await rules(restarted) == [.maxLength])
        }
    }

    /// What is done to a stored catalogue (of version 2, the stricter set) before the next start.
    enum StoredFile: String, CaseIterable, CustomTestStringConvertible {
        case intact, bodyByteFlipped, signatureByteFlipped, truncated, headerOnly, notACatalogueFile, expired,
            signedByAnotherKey,
            doesNotCompile

        var testDescription: String { rawValue }

        /// What `storageProblem` says; `nil` when the stored catalogue is used.
        var reason: String? {
            switch self {
            case .intact: nil
            case .bodyByteFlipped, .signatureByteFlipped, .signedByAnotherKey: "signature does not verify"
            case .truncated: "truncated"
            case .headerOnly, .notACatalogueFile: "not a catalogue file"
            case .expired: "catalogue 2 expired at"
            case .doesNotCompile: "catalogue 2 does not compile"
            }
        }
    }

    @Test(arguments: StoredFile.allCases)
    func aStoredCatalogueIsUsedOnlyIfItIsWholeSignedUnexpiredAndCompiles(_ change: StoredFile) async throws {
        let storage = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        let file = storage.appendingPathComponent(CatalogueStore.fileName)
        var documents = try stricterDocuments()
        if change == .doesNotCompile {
            documents["card-create"] = Array(
                #"{"id": "card-create", "fields": [{"key": "x", "maxLength": 5, "dataType": "Strin"}]}"#.utf8)
        }
        let key = change == .signedByAnotherKey ? Curve25519.Signing.PrivateKey().rawRepresentation : keys.signing
        let expires = change == .expired ? clock.now - 1 : inAnHour
        let served = try Gateway.catalogue(documents, version: "2", expires: expires, signingKey: key)
        try CatalogueStore(directory: storage)
            .save(
                .init(
                    body: served.body, signature: try #require(Data(base64Encoded: served.signature)), etag: served.etag
                ))
        var bytes = [UInt8](try Data(contentsOf: file))
        let bodyStart = bytes.count - served.body.count
        switch change {
        case .bodyByteFlipped: bytes[bodyStart + served.body.count / 2] ^= 0x01
        case .signatureByteFlipped:
            let marker = Array("\nsignature ".utf8)
            let signature = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) }) + marker.count + 10
            bytes[signature] = bytes[signature] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        case .truncated: bytes.removeLast(served.body.count / 2)
        case .headerOnly: bytes.removeLast(served.body.count + 2)
        case .notACatalogueFile: bytes = served.body
        case .intact, .expired, .signedByAnotherKey, .doesNotCompile: break
        }
        try Data(bytes).write(to: file)

        let catalogue = try catalogue(try #require(URL(string: "http://127.0.0.1:9")), storage: storage)
        let problem = await catalogue.storageProblem
        if let reason = change.reason {
            #expect(problem?.contains(reason) == true, "\(problem ?? "no problem")")
            #expect(await catalogue.origin == .bundled)
            #expect(try await rules(catalogue) == [])
        } else {
            #expect(problem == nil)
            #expect(await catalogue.origin == .stored(version: "2"))
            #expect(try await rules(catalogue) == [.maxLength])
        }
    }
}
