import Crypto
import DCEEngine
import DCEEnvelope
import DCEGateway
import Foundation
import Testing

/// What the gateway signs into its catalogue (version, expiry), which versions it refuses to serve, and the catalogues
/// it refuses to publish because they break requests the served one accepts.
struct GatewayCatalogueTests {
    let keys = Gateway.Keys.generate()

    @Test func theGatewayRefusesVersionsThatAreNotNumbersOrNotNewer() async throws {
        func code(_ call: () throws -> Void) -> CatalogueError.Code? {
            #expect(throws: CatalogueError.self, performing: call)?.code
        }
        func refusal(_ call: () async throws -> sending Void) async -> CatalogueError.Code? {
            await #expect(throws: CatalogueError.self, performing: call)?.code
        }
        #expect(code { _ = try Gateway(keys: keys, version: "v2", authentication: .none) } == .invalidVersion)
        #expect(
            code { _ = try Gateway(keys: keys, version: "1", catalogueLifetime: 0, authentication: .none) }
                == .invalidExpiry)
        let gateway = try Gateway(keys: keys, version: "2026.11.9", authentication: .none)
        let documents = try SchemaSource.bundled.documents()
        #expect(await refusal { try await gateway.publish(documents, version: "2026.11") } == .notNewer)
        #expect(await refusal { try await gateway.publish(documents, version: "2026.11.9") } == .notNewer)
        #expect(await refusal { try await gateway.publish(documents, version: "2026.11.x") } == .invalidVersion)
        #expect(
            await refusal { try await gateway.publish(documents, version: "2026.12", lifetime: -1) } == .invalidExpiry)
        #expect(gateway.catalogue.version == "2026.11.9")
        try await gateway.publish(documents, version: "2026.11.10")
        #expect(gateway.catalogue.version == "2026.11.10")
    }

    @Test func theGatewaySignsTheExpiryWithTheBody() async throws {
        let gateway = try Gateway(keys: keys, version: "3", catalogueLifetime: 7 * 86_400, authentication: .none)
        let served = gateway.catalogue
        let body = try CatalogueBody(json: served.body)
        #expect(body.expires == served.expires)
        #expect(abs(served.expires.timeIntervalSinceNow - 7 * 86_400) < 60)
        #expect(
            String(decoding: served.body, as: UTF8.self).contains(
                #""expires":"\#(UTCTimestamp.string(from: served.expires)!)""#))
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: try keys.signingPublicKey)
        #expect(key.isValidSignature(try #require(Data(base64Encoded: served.signature)), for: served.body))
        try await gateway.publish(try SchemaSource.bundled.documents(), version: "4", lifetime: 3_600)
        #expect(abs(gateway.catalogue.expires.timeIntervalSinceNow - 3_600) < 60)
    }

    @Test func theGatewayRefusesACatalogueThatBreaksRequestsUnlessTheBreakIsAllowed() async throws {
        let gateway = try Gateway(keys: keys, version: "1", authentication: .none)
        let refusal = try #require(
            await #expect(throws: CatalogueError.self) {
                try await gateway.publish(try stricterDocuments(), version: "2")
            })
        #expect(refusal.code == .breaking)
        #expect(refusal.message.contains("catalogue 2 refuses requests catalogue 1 accepts"))
        #expect(refusal.message.contains("--allow-breaking"))
        let lines = refusal.message.split(separator: "\n").dropFirst()
        #expect(lines == ["  card-create /programName: max-length-added (request, breaking): maxLength 5"])
        #expect(gateway.catalogue.version == "1")
        // What breaks no sender publishes: programName no longer required, and a new card status in the response
        // (which breaks the apps that read it: compat's to report, not the gateway's to refuse).
        var looser = try SchemaSource.bundled.documents()
        let programName = try #require(
            String(decoding: looser["card-create"]!, as: UTF8.self).range(of: #""key": "programName","#))
        var text = String(decoding: looser["card-create"]!, as: UTF8.self)
        let rest = text[programName.upperBound...]
        let required = try #require(rest.range(of: #""required": true,"#))
        text.replaceSubrange(required, with: #""required": false,"#)
        looser["card-create"] = Array(text.utf8)
        looser["card-response"] = Array(
            String(decoding: looser["card-response"]!, as: UTF8.self)
                .replacingOccurrences(of: #""EXPIRED", "DIGITAL""#, with: #""EXPIRED", "BLOCKED", "DIGITAL""#).utf8)
        #expect(looser["card-response"]! != (try SchemaSource.bundled.documents())["card-response"]!)
        try await gateway.publish(looser, version: "2")
        #expect(gateway.catalogue.version == "2")
        // Told to, it publishes the break.
        try await gateway.publish(try stricterDocuments(), version: "3", allowBreaking: true)
        #expect(gateway.catalogue.version == "3")
    }

    @Test func theSchemaFoldersSeveritiesDecideWhatBreaksAPublication() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dce-severity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (id, bytes) in try SchemaSource.bundled.documents() {
            let file = folder.appendingPathComponent("\(id).json")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        let severities = folder.appendingPathComponent("compat-severity.txt")
        try Data("# a new maximum is announced to the apps first\nmax-length-added warning\n".utf8).write(
            to: severities)
        let gateway = try Gateway(keys: keys, source: .directory(folder), version: "1", authentication: .none)
        try await gateway.publish(try stricterDocuments(), version: "2")
        #expect(gateway.catalogue.version == "2")
        // A line compat does not understand stops the gateway from starting, with the file and line.
        try Data("max-length-added warning\nmax-lenght-added info\n".utf8).write(to: severities)
        let error = try #require(
            #expect(throws: CatalogueError.self) {
                _ = try Gateway(keys: keys, source: .directory(folder), version: "1", authentication: .none)
            })
        #expect(error.code == .invalidSeverities)
        #expect(
            error.message.hasSuffix(
                "compat-severity.txt:2: no change is called 'max-lenght-added' (did you mean 'max-length-added'?)"))
    }
}
