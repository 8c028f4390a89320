public import Crypto
public import DCECrypto
public import DCEEngine
public import Foundation
public import HTTPTypes
public import Hummingbird

/// The gateway side of the envelope protocol: serves the signed schema catalogue and validates incoming
/// envelopes with the same engine, never trusting the client's validation.
///
/// ```swift
/// let gateway = try Gateway(keys: .generate(), version: "2026.11.1")
/// let router = Router()
/// gateway.addRoutes(to: router)     // POST /v1/requests, GET /v1/schemas
/// try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080))).run()
/// ```
public final class Gateway: @unchecked Sendable {
    /// The gateway's private keys (raw bytes): X25519 for opening sealed values, Ed25519 for signing the catalogue.
    public struct Keys: Sendable, Hashable {
        /// The X25519 private key for HPKE.
        public var encryption: Data
        /// The id clients name the encryption key by.
        public var encryptionKeyID: String
        /// The Ed25519 private key that signs the catalogue.
        public var signing: Data

        /// Wraps existing keys.
        ///
        /// - Parameters:
        ///   - encryption: X25519 private key, 32 bytes.
        ///   - encryptionKeyID: Its id.
        ///   - signing: Ed25519 private key, 32 bytes.
        public init(encryption: Data, encryptionKeyID: String, signing: Data) {
            self.encryption = encryption
            self.encryptionKeyID = encryptionKeyID
            self.signing = signing
        }

        /// New random keys.
        ///
        /// - Parameter keyID: The encryption key's id.
        /// - Returns: The keys.
        public static func generate(keyID: String = "gw-1") -> Keys {
            Keys(
                encryption: Curve25519.KeyAgreement.PrivateKey().rawRepresentation, encryptionKeyID: keyID,
                signing: Curve25519.Signing.PrivateKey().rawRepresentation)
        }

        /// The X25519 public key clients seal to (32 bytes).
        public var encryptionPublicKey: Data {
            get throws { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: encryption).publicKey.rawRepresentation }
        }

        /// The Ed25519 public key clients pin to check the catalogue (32 bytes).
        public var signingPublicKey: Data {
            get throws { try Curve25519.Signing.PrivateKey(rawRepresentation: signing).publicKey.rawRepresentation }
        }
    }

    /// What the gateway answers a valid request with, by request schema; `null` when nothing is defined.
    public typealias Backend = @Sendable (_ schema: String, _ payload: SchemaValue) -> SchemaValue

    /// The catalogue as served: body, ETag and signature.
    public struct Catalogue: Sendable, Hashable {
        /// How long clients may use a catalogue unless the gateway is told otherwise: 30 days.
        public static let defaultLifetime: TimeInterval = 30 * 24 * 60 * 60

        /// The version: decimal numbers separated by dots, such as `2026.11.1`.
        public var version: String
        /// When clients stop using it, in whole seconds.
        public var expires: Date
        /// `{"version": …, "expires": …, "schemas": {…}}`.
        public var body: [UInt8]
        /// A strong ETag: the body's SHA-256.
        public var etag: String
        /// The Ed25519 signature of the body, base64.
        public var signature: String
    }

    private let keys: Keys
    private let opener: HPKEFieldOpener
    private let backend: Backend
    private let lock = NSLock()
    private var validator: Validator
    private var served: Catalogue
    /// Answers by request id, so a retried request is processed once.
    private var answered: [String: (status: Int, body: [UInt8])] = [:]
    private var answeredOrder: [String] = []
    private static let rememberedAnswers = 10_000

    /// Creates a gateway.
    ///
    /// - Parameters:
    ///   - keys: The private keys.
    ///   - source: The schemas it validates with and serves.
    ///   - version: The catalogue's version: decimal numbers separated by dots, such as `2026.11.1`.
    ///   - catalogueLifetime: How long from now clients may use the catalogue, in seconds (30 days by default).
    ///   - backend: What valid requests are answered with (``ReferenceBackend/answer`` by default).
    /// - Throws: ``SchemaError`` when the schemas do not compile; ``CatalogueError`` for a version that is not
    ///   decimal numbers or a lifetime that is not positive; key errors.
    public init(
        keys: Keys, source: SchemaSource = .bundled, version: String, catalogueLifetime: TimeInterval = Catalogue.defaultLifetime,
        backend: @escaping Backend = ReferenceBackend.answer
    ) throws {
        self.keys = keys
        self.opener = try HPKEFieldOpener(privateKey: keys.encryption, keyID: keys.encryptionKeyID)
        self.backend = backend
        let documents = try source.documents()
        self.validator = try Validator(source: .documents(documents))
        self.served = try Self.catalogue(documents, version: version, expires: Self.expiry(after: catalogueLifetime), signingKey: keys.signing)
    }

    /// Publishes a new catalogue; it is compiled first, and a set that does not compile changes nothing.
    ///
    /// Clients take only a version newer than the one they have, so a version that is not newer than the one served
    /// is refused here too. Publishing is also how a catalogue is renewed before it expires: under a newer version.
    ///
    /// - Parameters:
    ///   - documents: Schema documents by id.
    ///   - version: The new version: decimal numbers separated by dots, newer than the one served.
    ///   - lifetime: How long from now clients may use it, in seconds (30 days by default).
    /// - Throws: ``SchemaError`` when the set does not compile; ``CatalogueError`` for a version that is not decimal
    ///   numbers or not newer than the one served, or a lifetime that is not positive.
    public func publish(_ documents: [String: [UInt8]], version: String, lifetime: TimeInterval = Catalogue.defaultLifetime) throws {
        let compiled = try Validator(source: .documents(documents))
        let catalogue = try Self.catalogue(documents, version: version, expires: Self.expiry(after: lifetime), signingKey: keys.signing)
        try lock.withLock {
            guard try CatalogueVersion(version) > CatalogueVersion(served.version) else {
                throw CatalogueError(code: .notNewer, message: "catalogue \(version) is not newer than catalogue \(served.version), which is served")
            }
            validator = compiled
            served = catalogue
        }
    }

    /// The catalogue being served.
    public var catalogue: Catalogue { lock.withLock { served } }

    /// Signs a catalogue body (for a gateway, or a test standing in for one).
    ///
    /// - Parameters:
    ///   - documents: Schema documents by id.
    ///   - version: The version: decimal numbers separated by dots, such as `2026.11.1`.
    ///   - expires: When clients stop using it (whole seconds; it may lie in the past, for tests).
    ///   - signingKey: The Ed25519 private key.
    /// - Returns: The catalogue.
    /// - Throws: ``CatalogueError`` for a version that is not decimal numbers, an expiry outside the years 0001 to
    ///   9999, or a document that is not JSON; key errors.
    public static func catalogue(_ documents: [String: [UInt8]], version: String, expires: Date, signingKey: Data) throws -> Catalogue {
        let contents = CatalogueBody(version: try CatalogueVersion(version), expires: expires, documents: documents)
        let body = try contents.json()
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: signingKey).signature(for: body)
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        return Catalogue(
            version: version, expires: contents.expires, body: body, etag: "\"\(digest)\"", signature: signature.base64EncodedString())
    }

    /// The expiry of a catalogue signed now that clients may use for `lifetime` seconds.
    private static func expiry(after lifetime: TimeInterval) throws(CatalogueError) -> Date {
        guard lifetime > 0, lifetime.isFinite else {
            throw CatalogueError(code: .invalidExpiry, message: "a catalogue's lifetime must be a positive number of seconds")
        }
        return Date(timeIntervalSinceNow: lifetime)
    }

    /// Validates an envelope and answers it: HTTP 200 with an accepted `PDResponse`, or 422 with a rejected one
    /// listing every error. A request id answered before gets the same answer again.
    ///
    /// - Parameter body: The request body.
    /// - Returns: The HTTP status and the response body.
    public func handle(envelope body: [UInt8]) -> (status: Int, body: [UInt8]) {
        let incoming: IncomingRequest
        do {
            incoming = try IncomingRequest(json: body)
        } catch {
            return (422, PDResponse(requestID: "", status: .rejected, errors: [Violation(path: "", key: "", rule: .json, message: error.message)]).json)
        }
        let requestID = incoming.header.requestID
        if let previous = lock.withLock({ answered[requestID] }) { return previous }
        let validator = lock.withLock { self.validator }
        let answer: (status: Int, body: [UInt8])
        do {
            let (report, payload) = try validator.accept(incoming, opener: opener)
            if report.valid, let payload, let document = try? JSONDocument(bytes: payload) {
                let result = backend(incoming.header.schema, SchemaValue(document: document, at: document.root))
                answer = (200, PDResponse(requestID: requestID, status: .accepted, payload: result).json)
            } else {
                answer = (422, PDResponse(requestID: requestID, status: .rejected, errors: report.errors).json)
            }
        } catch {
            let rule = ViolationCode(rawValue: error.code.rawValue)
            answer = (422, PDResponse(requestID: requestID, status: .rejected, errors: [Violation(path: "", key: "", rule: rule, message: error.message)]).json)
        }
        lock.withLock {
            if answered[requestID] == nil {
                answered[requestID] = answer
                answeredOrder.append(requestID)
                if answeredOrder.count > Self.rememberedAnswers { answered[answeredOrder.removeFirst()] = nil }
            }
        }
        return answer
    }

    /// Adds `POST /v1/requests` and `GET /v1/schemas` (with ETag, `If-None-Match` and `X-DCE-Signature`).
    ///
    /// - Parameter router: The application's router.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.post("v1/requests") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: JSONReader.Limits.default.maxDocumentBytes)
            let (status, body) = self.handle(envelope: Array(buffer.readableBytesView))
            return Response(
                status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("v1/schemas") { request, _ -> Response in
            let catalogue = self.catalogue
            var headers: HTTPFields = [.eTag: catalogue.etag]
            if request.headers[.ifNoneMatch] == catalogue.etag { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "application/json"
            headers[HTTPField.Name("X-DCE-Signature")!] = catalogue.signature
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: catalogue.body)))
        }
    }
}

/// The reference gateway's answers: a card for `card-create` (following `card-response`), nothing otherwise.
public enum ReferenceBackend {
    /// Answers a valid request.
    ///
    /// - Parameters:
    ///   - schema: The request schema.
    ///   - payload: The whole request, opened and validated.
    /// - Returns: The answer.
    @Sendable public static func answer(schema: String, payload: SchemaValue) -> SchemaValue {
        guard schema == "card-create", case .object(let members) = payload else { return .null }
        func string(_ key: String) -> String? {
            if case .string(let value)? = members.first(where: { $0.key == key })?.value { return value }
            return nil
        }
        let program = string("programName") ?? ""
        var card: [SchemaValue.Member] = [
            .init(key: "cardId", value: .string(UUID().uuidString.lowercased())),
            .init(key: "status", value: .string(program.contains("PHYSICAL") ? "APPLIED" : "ACTIVE")),
            .init(key: "cardType", value: .string(program.contains("PHYSICAL") ? "PHYSICAL" : "VIRTUAL")),
            .init(key: "programName", value: .string(program)),
            .init(key: "isPinSet", value: .boolean(string("cardPin") != nil)),
        ]
        if let currency = string("currency") { card.append(.init(key: "currency", value: .string(currency))) }
        return .object(card)
    }
}
