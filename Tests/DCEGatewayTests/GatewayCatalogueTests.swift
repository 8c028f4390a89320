import Crypto
import DCEEngine
import DCEEnvelope
import DCEGateway
import Foundation
import Testing

/// What the gateway signs into its catalogue (version, expiry) and which versions it refuses to serve.
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
}
