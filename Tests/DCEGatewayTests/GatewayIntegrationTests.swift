import Crypto
import DCEClient
import DCECrypto
import DCEEngine
import DCEEnvelope
import DCEGateway
import DCETestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client and the reference gateway over HTTP on loopback, end to end.
@Suite(.serialized)
struct GatewayIntegrationTests {
    static let pin = "8264"
    let keys = Gateway.Keys.generate()
    let validator: Validator

    init() throws {
        validator = try Validator(source: .bundled)
    }

    /// Starts a gateway (with the test's fault switch in front of it) on a free loopback port, runs `body`, stops it.
    private func withGateway(_ body: (URL, Gateway, Faults) async throws -> Void) async throws {
        try await withLoopbackGateway(
            try Gateway(
                keys: keys, version: "1", logger: Logger(label: "gateway", factory: { _ in SwiftLogNoOpLogHandler() }),
                authentication: .none),
            body)
    }

    private func build(_ json: String, requestID: String = UUID().uuidString) throws -> BuiltRequest {
        let sealer = try HPKEFieldSealer(gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
        return try validator.prepare("card-create", context: ["region": "EU"]).makeRequest(
            json: Array(json.utf8), requestID: requestID, sealer: sealer)
    }

    /// The envelope of a request that must pass local validation.
    private func valid(_ built: BuiltRequest) throws -> PDRequest {
        guard case .valid(let request) = built else {
            Issue.record("refused locally: \(built)")
            throw CancellationError()
        }
        return request
    }

    private let validCard = #"{"programName": "SKRILL-VIRTUAL-MC-EEA", "currency": "EUR", "cardPin": "8264"}"#

    private func client(_ url: URL, timeout: TimeInterval = 5, attempts: Int = 3) -> GatewayClient {
        GatewayClient(
            baseURL: url, validator: validator,
            configuration: .init(timeout: timeout, attempts: attempts, backoff: 0.05))
    }

    @Test func aValidRequestIsAcceptedAndNoPCIValueCrossesTheWireInClear() async throws {
        try await withGateway { url, _, faults in
            let request = try valid(build(validCard))
            // Every body sent is counted: a gateway slowed by a sanitizer must not be given up on and asked again.
            let patient = client(url, timeout: 120)
            let response = try await patient.send(request)
            #expect(response.status == .accepted)
            guard case .object(let card) = response.payload else {
                Issue.record("no card")
                return
            }
            #expect(card.first { $0.key == "status" }?.value == .string("ACTIVE"))
            #expect(card.first { $0.key == "isPinSet" }?.value == .boolean(true))  // the gateway opened the PIN
            // A payment account carries a PAN and a CVV.
            let pan = "4929123456781236"
            let cvv = "739"
            let sealer = try HPKEFieldSealer(
                gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
            let account =
                #"{"cardNumber": "\#(pan)", "expiry": "08/39", "securityCode": "\#(cvv)", "cardholderName": "Ivan Petrov", "billingAddress": {"line1": "1 Main St", "city": "Austin", "state": "TX", "zipCode": "787010001", "country": "US"}}"#
            let accountRequest = try valid(
                validator.prepare("payment-account", tenderType: "credit").makeRequest(
                    json: Array(account.utf8), requestID: "acct-1", sealer: sealer))
            let accepted = try await patient.send(accountRequest)
            #expect(accepted.status == .accepted)
            let bodies = faults.bodies
            #expect(bodies.count == 2)
            for body in bodies {
                let text = Sealed.scrubbed(String(decoding: body, as: UTF8.self))
                for secret in [Self.pin, pan, cvv] {
                    #expect(!text.contains(secret), "\(secret.count)-digit secret on the wire")
                }
                let envelope = try IncomingRequest(json: body)
                for field in envelope.encryptedFields {
                    let sealed = try #require(Data(base64Encoded: field.ciphertext))
                    for secret in [Self.pin, pan] { #expect(sealed.range(of: Data(secret.utf8)) == nil) }
                }
            }
        }
    }

    @Test func anInvalidRequestIsRefusedLocallyAndNothingIsSent() async throws {
        try await withGateway { _, _, faults in
            guard case .invalid(let report) = try build(#"{"programName": "P", "currency": "EURO", "cardPin": "12"}"#)
            else {
                Issue.record("an invalid request got an envelope")
                return
            }
            #expect(report.errors.map(\.rule) == [.regex, .format])
            #expect(faults.requests == 0)  // PDRequest cannot be built, so there is nothing to send
        }
    }

    @Test func aRequestTamperedWithAfterValidationIsRefusedByTheGateway() async throws {
        try await withGateway { url, _, faults in
            let request = try valid(build(validCard))
            let tampered = String(decoding: request.json, as: UTF8.self).replacingOccurrences(
                of: #""currency":"EUR""#, with: #""currency":"GBP""#)
            var post = URLRequest(url: url.appendingPathComponent("v1/requests"))
            post.httpMethod = "POST"
            post.httpBody = Data(tampered.utf8)
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await URLSession(configuration: .ephemeral).data(for: post)
            #expect((response as? HTTPURLResponse)?.statusCode == 422)
            let answer = try PDResponse(json: [UInt8](data))
            #expect(answer.status == .rejected)
            #expect(answer.errors.map(\.rule.rawValue) == ["tampered"])
            #expect(faults.requests == 1)
        }
    }

    @Test func theGatewayReportsEveryErrorOfARequestItRefuses() async throws {
        // A client that skipped validation (here: sealing by hand with an older, looser idea of the rules).
        try await withGateway { url, gateway, _ in
            let loose =
                #"{"id": "card-create", "version": "1.0.0", "additionalFields": true, "responseSchema": "card-response", "fields": [{"key": "cardPin", "dataType": "String", "pciEncryptionRequired": true}]}"#
            let looseValidator = try Validator(
                source: .documents(
                    try SchemaSource.bundled.documents().merging(["card-create": Array(loose.utf8)]) { $1 }))
            let sealer = try HPKEFieldSealer(
                gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
            guard
                case .valid(let request) = try looseValidator.prepare("card-create").makeRequest(
                    json: Array(#"{"currency": "EURO", "cardPin": "12"}"#.utf8), requestID: "r-1", sealer: sealer)
            else {
                Issue.record("the loose schema refused")
                return
            }
            do {
                _ = try await GatewayClient(baseURL: url, validator: looseValidator).send(request)
                Issue.record("the gateway accepted an invalid request")
            } catch {
                guard case .rejected(let response) = error as? GatewayError else {
                    Issue.record("\(error)")
                    return
                }
                #expect(
                    response.errors.map { "\($0.rule)@\($0.path)" } == [
                        "regex@/cardPin", "format@/currency", "required@/programName",
                    ])
                #expect(response.errors.allSatisfy { !$0.message.contains("12") })
            }
            _ = gateway
        }
    }

    @Test func aGatewayThatIsDownIsATransportError() async throws {
        let request = try valid(build(validCard))
        let down = try #require(URL(string: "http://127.0.0.1:9"))
        await #expect(throws: GatewayError.self) { try await client(down, attempts: 2).send(request) }
        do {
            _ = try await client(down, attempts: 2).send(request)
        } catch {
            guard case .transport(.unreachable) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func aSlowGatewayTimesOut() async throws {
        try await withGateway { url, _, faults in
            faults.set(.slow(seconds: 3))
            let request = try valid(build(validCard))
            do {
                _ = try await client(url, timeout: 0.5, attempts: 1).send(request)
                Issue.record("a slow gateway answered in time")
            } catch {
                #expect(error as? GatewayError == .transport(.timeout))
            }
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheRequest() async throws {
        try await withGateway { url, _, faults in
            faults.set(.slow(seconds: 5))
            let request = try valid(build(validCard))
            let client = client(url, timeout: 30, attempts: 1)
            let task = Task { try await client.send(request) }
            try await Task.sleep(nanoseconds: 200_000_000)
            task.cancel()
            let result = await task.result
            guard case .failure(let error) = result else {
                Issue.record("a cancelled request answered")
                return
            }
            #expect(error as? GatewayError == .transport(.cancelled))
        }
    }

    @Test func serverErrorsAreRetriedWithTheSameIdempotencyKeyThenReported() async throws {
        try await withGateway { url, _, faults in
            faults.set(.status(500))
            let request = try valid(build(validCard, requestID: "req-500"))
            do {
                _ = try await client(url, attempts: 3).send(request)
                Issue.record("a failing gateway answered")
            } catch {
                #expect(error as? GatewayError == .transport(.status(500)))
            }
            #expect(faults.idempotencyKeys == ["req-500", "req-500", "req-500"])
            // Once the gateway recovers, the same request goes through, once.
            faults.set(.none)
            let response = try await client(url).send(request)
            #expect(response.status == .accepted)
            let again = try await client(url).send(request)
            #expect(again == response)  // the gateway answers a repeated request id with the same answer
        }
    }

    @Test(arguments: [Faults.Mode.malformed, .schemaViolating, .otherRequest])
    func anInvalidResponseNeverReachesTheApp(mode: Faults.Mode) async throws {
        try await withGateway { url, _, faults in
            faults.set(mode)
            let request = try valid(build(validCard))
            do {
                _ = try await client(url).send(request)
                Issue.record("\(mode): the app got the response")
            } catch {
                guard case .invalidResponse(let reason, let report) = error as? GatewayError else {
                    Issue.record("\(mode): \(error)")
                    return
                }
                #expect(!reason.isEmpty)
                if mode == .schemaViolating {
                    #expect(report?.errors.map { "\($0.rule)@\($0.path)" } == ["type@/cardId", "enum@/status"])
                }
            }
        }
    }

    @Test func schemaUpdatesArePickedUpByETagAndABrokenUpdateIsRejected() async throws {
        try await withGateway { url, gateway, faults in
            let catalogue = try SchemaCatalogue(baseURL: url, signingKey: try keys.signingPublicKey, timeout: 5)
            #expect(await catalogue.origin == .bundled)
            #expect(await catalogue.refresh() == .updated(version: "1"))
            #expect(await catalogue.refresh() == .notModified)
            #expect(faults.ifNoneMatch.last == gateway.catalogue.etag)

            // Version 2 allows program names only up to 5 characters: a rule change without an app release.
            try await gateway.publish(try stricterDocuments(), version: "2", allowBreaking: true)
            #expect(await catalogue.refresh() == .updated(version: "2"))
            let report = try await catalogue.validator.validate(
                json: Array(validCard.utf8), schema: "card-create", context: ["region": "EU"])
            #expect(report.errors.map(\.rule) == [.maxLength])

            // A signed catalogue that does not compile, and one whose signature does not verify: both kept out.
            faults.set(.brokenCatalogue(signingKey: keys.signing))
            guard case .kept(let reason) = await catalogue.refresh() else {
                Issue.record("a broken catalogue was taken")
                return
            }
            #expect(reason.contains("does not compile"))
            faults.set(.badSignature)
            guard case .kept(let signature) = await catalogue.refresh() else {
                Issue.record("an unsigned catalogue was taken")
                return
            }
            #expect(signature.contains("signature"))
            #expect(await catalogue.origin == .gateway(version: "2"))
            #expect(
                try await catalogue.validator.validate(
                    json: Array(validCard.utf8), schema: "card-create", context: ["region": "EU"]
                ).errors.map(\.rule) == [.maxLength])
        }
    }

    @Test func theLastGoodSetServesWhenTheGatewayIsDownAndLocalOverridesAreReported() async throws {
        let local = try SchemaSource.bundled.documents()["card-create"]!
        let down = try #require(URL(string: "http://127.0.0.1:9"))
        let catalogue = try SchemaCatalogue(
            baseURL: down, signingKey: try keys.signingPublicKey, overrides: ["card-create": local], timeout: 1)
        guard case .kept(let reason) = await catalogue.refresh() else {
            Issue.record("a refresh from nowhere succeeded")
            return
        }
        #expect(reason.contains("cannot be reached"))
        #expect(await catalogue.origin == .bundled)
        #expect(catalogue.overridden == ["card-create"])
        #expect(
            try await catalogue.validator.validate(
                json: Array(validCard.utf8), schema: "card-create", context: ["region": "EU"]
            ).valid)
    }
}

/// What the test's middleware does to requests before the gateway sees them.
final class Faults: @unchecked Sendable {
    enum Mode: Sendable, Equatable, CustomTestStringConvertible {
        case none
        case slow(seconds: Double)
        case status(Int)
        case malformed
        case schemaViolating
        case otherRequest
        case brokenCatalogue(signingKey: Data)
        case badSignature
        /// Serves this body and signature as the catalogue, whatever `If-None-Match` says.
        case catalogue(body: [UInt8], signature: String)

        /// Serves a catalogue the way a gateway once served it (a replay, or a catalogue signed elsewhere).
        static func serving(_ catalogue: Gateway.Catalogue) -> Mode {
            .catalogue(body: catalogue.body, signature: catalogue.signature)
        }

        var testDescription: String { "\(self)" }
    }

    private let lock = NSLock()
    private var mode = Mode.none
    private var recordedBodies: [[UInt8]] = []
    private var keys: [String] = []
    private var etags: [String] = []

    func set(_ mode: Mode) { lock.withLock { self.mode = mode } }
    var current: Mode { lock.withLock { mode } }
    var bodies: [[UInt8]] { lock.withLock { recordedBodies } }
    var requests: Int { lock.withLock { recordedBodies.count } }
    var idempotencyKeys: [String] { lock.withLock { keys } }
    var ifNoneMatch: [String] { lock.withLock { etags } }

    func record(body: [UInt8], key: String?) {
        lock.withLock {
            recordedBodies.append(body)
            if let key { keys.append(key) }
        }
    }

    func record(etag: String?) { lock.withLock { if let etag { etags.append(etag) } } }
}

/// Records what arrives and, per the fault switch, answers in place of the gateway.
struct FaultMiddleware<Context: RequestContext>: RouterMiddleware {
    let faults: Faults

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.uri.path.hasSuffix("/v1/schemas") {
            faults.record(etag: request.headers[.ifNoneMatch])
            switch faults.current {
            case .brokenCatalogue(let key):
                var documents = try SchemaSource.bundled.documents()
                documents["card-create"] = Array(
                    #"{"id": "card-create", "fields": [{"key": "x", "dataType": "Strin"}]}"#.utf8)
                let catalogue = try Gateway.catalogue(
                    documents, version: "3", expires: Date(timeIntervalSinceNow: 3_600), signingKey: key)
                return Self.json(
                    catalogue.body,
                    headers: [HTTPField.Name("X-DCE-Signature")!: catalogue.signature, .eTag: catalogue.etag])
            case .badSignature:
                let catalogue = try Gateway.catalogue(
                    try SchemaSource.bundled.documents(), version: "4", expires: Date(timeIntervalSinceNow: 3_600),
                    signingKey: Curve25519.Signing.PrivateKey().rawRepresentation)
                return Self.json(
                    catalogue.body,
                    headers: [HTTPField.Name("X-DCE-Signature")!: catalogue.signature, .eTag: catalogue.etag])
            case .catalogue(let body, let signature):
                return Self.json(body, headers: [HTTPField.Name("X-DCE-Signature")!: signature])
            case .status(let code):
                return Response(status: HTTPResponse.Status(code: code))
            default:
                return try await next(request, context)
            }
        }
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        faults.record(body: Array(body.readableBytesView), key: request.headers[HTTPField.Name("Idempotency-Key")!])
        switch faults.current {
        case .slow(let seconds):
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return try await next(request, context)
        case .status(let code):
            return Response(status: HTTPResponse.Status(code: code))
        case .malformed:
            return Self.json(Array("{\"requestId\": ".utf8))
        case .schemaViolating, .otherRequest:
            let envelope = try IncomingRequest(json: Array(body.readableBytesView))
            let payload: SchemaValue = .object([
                .init(key: "cardId", value: .number(DecimalNumber(lexeme: "5"))),
                .init(key: "status", value: .string("GONE")),
            ])
            let id = faults.current == .otherRequest ? "someone-else" : envelope.header.requestID
            return Self.json(
                PDResponse(requestID: id, status: .accepted, payload: faults.current == .otherRequest ? .null : payload)
                    .json)
        default:
            return try await next(request, context)
        }
    }

    static func json(_ body: [UInt8], headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
