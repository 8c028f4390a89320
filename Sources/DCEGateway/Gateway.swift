import Crypto
import DCECompatibility
import DCECrypto
public import DCEEngine
import DCEEnvelope
import DCEFingerprint
public import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
public import NIOCore
import NIOSSL
import ServiceLifecycle

/// The gateway side of the envelope protocol: serves the signed schema catalogue and validates incoming
/// envelopes with the same engine, never trusting the client's validation.
///
/// ```swift
/// let gateway = try Gateway(keys: .generate(), version: "2026.11.1", authentication: .none)
/// // POST /v1/requests, GET /v1/schemas, with the timeouts and connection limit of `gateway.limits`
/// try await gateway.application(router: Router(), address: .hostname("127.0.0.1", port: 8080)).runService()
/// ```
///
/// What must outlive a request — the answers to accepted requests and the published catalogues — lives in its
/// ``GatewayStore``: in the process by default (``MemoryStore``), or in PostgreSQL (``PostgresStore``) for several
/// instances behind a load balancer, which then answer a retry alike and serve the same catalogue.
///
/// `@unchecked Sendable`: the schemas and the catalogue change only under `lock`; the rest is immutable or
/// synchronised by its own type.
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
            get throws {
                try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: encryption).publicKey.rawRepresentation
            }
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

    /// An answer to one request: the HTTP status, the `PDResponse` body, and how long to wait before retrying
    /// when the gateway is saturated.
    public struct Answer: Sendable, Hashable {
        /// The HTTP status.
        public var status: Int
        /// The `PDResponse` as JSON.
        public var body: [UInt8]
        /// Seconds for the `Retry-After` header, with 503.
        public var retryAfter: Int?

        /// Creates an answer.
        ///
        /// - Parameters:
        ///   - status: The HTTP status.
        ///   - body: The response body.
        ///   - retryAfter: Seconds before a retry, for 503.
        public init(status: Int, body: [UInt8], retryAfter: Int? = nil) {
            self.status = status
            self.body = body
            self.retryAfter = retryAfter
        }

        /// What the access log and the metrics say of the exchange; not part of the answer's identity.
        var note = Note()

        /// Whether two answers say the same to the client: status, body and `Retry-After` (the log's note aside).
        public static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.retryAfter == rhs.retryAfter
        }

        /// Hashes what ``==(_:_:)`` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(body)
            hasher.combine(retryAfter)
        }
    }

    /// What the access log and the metrics say of an exchange besides its status: ids, schema, rule codes and
    /// timings, never a value or a message.
    struct Note: Sendable {
        var requestID = ""
        var schema: String?
        var schemaVersion: String?
        /// The rule codes of a refusal or rejection; `replayed` for an answer given again.
        var rules: [String] = []
        /// Why the request was refused, for the refusal counter: a refusal's rule, or `invalid` after validation.
        var refusal: String?
        /// What became of its request id when it was not processed: `replayed`, `conflict`, `inProgress`, `full`.
        var idempotency: String?
        /// How long opening, validating and answering it took on a validation thread.
        var validation: Duration?
        /// Who sent it (``Caller/name``), once known.
        var caller: String?
    }

    /// The bounds in force.
    public let limits: Limits
    /// How callers are known.
    public let authentication: Authentication
    private let keys: Keys
    private let opener: HPKEFieldOpener
    /// Fingerprints the card numbers requests present, for the card-testing limits: an HMAC under a key derived from
    /// the encryption key, so every instance with the same keys gives a card the same fingerprint.
    private let cardFingerprinter: HMACFingerprinter
    private let backend: Backend
    let logger: Logger
    let now: @Sendable () -> Date
    let lock = NSLock()
    var validator: Validator
    var served: Catalogue
    /// Whether a shutdown has begun (``runService(_:drainingFor:signals:)``): readiness fails from then on.
    var draining = false
    /// The OpenAPI document of the catalogue with this ETag (``openAPIDocument()``).
    var apiDocument: (etag: String, body: [UInt8])?
    /// Whether a catalogue that breaks requests the one before it accepts may be published.
    private let allowBreaking: Bool
    /// The team's severities for what breaks (the schema folder's `compat-severity.txt`).
    private let severities: CompatSeverities
    /// The accepted requests' answers, by request id and body digest, and the published catalogues.
    let store: any GatewayStore
    /// Where requests are validated, off the server's network threads.
    private let pool: ValidationPool
    /// What `GET /metrics` shows.
    let metrics: GatewayMetrics
    /// The longest request id accepted: ids are remembered, so their size is bounded too.
    public static let maxRequestIDBytes = 128

    /// Creates a gateway.
    ///
    /// - Parameters:
    ///   - keys: The private keys.
    ///   - source: The schemas it validates with and serves.
    ///   - version: The catalogue's version: decimal numbers separated by dots, such as `2026.11.1`.
    ///   - catalogueLifetime: How long from now clients may use the catalogue, in seconds (30 days by default).
    ///   - limits: The bounds against hostile clients (``Limits`` documents each default).
    ///   - logger: Where the gateway logs one line per request: id, schema, status and rule codes, never a value.
    ///   - now: The clock envelopes' ages are judged by.
    ///   - backend: What valid requests are answered with (``ReferenceBackend/answer(schema:payload:)`` by default).
    ///   - store: Where answers and catalogues are kept: a ``MemoryStore`` bounded by `limits` by default. With a
    ///     shared store, the catalogue is published there (or a newer one taken from there) when the application
    ///     starts, or by ``synchronizeCatalogue()``.
    ///   - authentication: How callers of `POST /v1/requests` are known: ``Authentication/apiKeys(_:)``, or
    ///     ``Authentication/none`` (every caller anonymous, with every scope) behind a proxy that authenticates.
    ///   - allowBreaking: Whether this catalogue may replace, in a shared store, an older one whose requests it
    ///     refuses (see ``publish(_:version:lifetime:allowBreaking:)``); `false` makes the application fail to start
    ///     instead, listing the breaks.
    /// - Throws: ``/DCEEngine/SchemaError`` when the schemas do not compile; ``/DCEEnvelope/CatalogueError`` for a
    ///   version that is not decimal numbers, a lifetime that is not positive, or a schema folder's
    ///   `compat-severity.txt` that does not read; key errors.
    public init(
        keys: Keys, source: SchemaSource = .bundled, version: String,
        catalogueLifetime: TimeInterval = Catalogue.defaultLifetime,
        limits: Limits = Limits(), logger: Logger = Logger(label: "dce-gateway"),
        now: @escaping @Sendable () -> Date = { Date() },
        backend: @escaping Backend = ReferenceBackend.answer, store: (any GatewayStore)? = nil,
        authentication: Authentication, allowBreaking: Bool = false
    ) throws {
        self.keys = keys
        self.allowBreaking = allowBreaking
        self.severities = try Self.severities(in: source)
        self.authentication = authentication
        self.opener = try HPKEFieldOpener(privateKey: keys.encryption, keyID: keys.encryptionKeyID)
        let cardKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: keys.encryption), info: Data("dce-gateway card fingerprints".utf8),
            outputByteCount: 32)
        self.cardFingerprinter = try HMACFingerprinter(key: cardKey.withUnsafeBytes { Data($0) })
        self.backend = backend
        self.limits = limits
        self.logger = logger
        self.now = now
        let documents = try source.documents()
        self.validator = try Validator(source: .documents(documents))
        self.served = try Self.catalogue(
            documents, version: version, expires: Self.expiry(after: catalogueLifetime), signingKey: keys.signing)
        if let store {
            self.store = store
        } else {
            let memory = MemoryStore(maxEntries: limits.rememberedRequests, maxBytes: limits.rememberedBytes)
            try memory.publish(served)
            self.store = memory
        }
        self.pool = ValidationPool(
            threads: limits.validationThreads, largeThreads: limits.largeBodyThreads, queueLimit: limits.queuedRequests)
        self.metrics = GatewayMetrics()
        metrics.serving(served, previous: nil)
    }

    /// Publishes a new catalogue; it is compiled first, and a set that does not compile changes nothing.
    ///
    /// Clients take only a version newer than the one they have, so a version that is not newer than the one served
    /// is refused here too. Publishing is also how a catalogue is renewed before it expires: under a newer version.
    ///
    /// Apps stay installed for years, so a catalogue whose request schemas refuse requests the served one accepts
    /// (what `dce-validate compat` reports as breaking, at error severity after the schema folder's
    /// `compat-severity.txt`) is refused unless `allowBreaking` is true; the refusal lists every break.
    ///
    /// - Parameters:
    ///   - documents: Schema documents by id.
    ///   - version: The new version: decimal numbers separated by dots, newer than the one served.
    ///   - lifetime: How long from now clients may use it, in seconds (30 days by default).
    ///   - allowBreaking: Whether to publish it even though it breaks requests the served one accepts.
    /// - Throws: ``/DCEEngine/SchemaError`` when the set does not compile; ``/DCEEnvelope/CatalogueError`` for a
    ///   version that is not decimal numbers or not newer than the one served, a lifetime that is not positive, or
    ///   a catalogue that breaks requests (``/DCEEnvelope/CatalogueError/Code/breaking``); ``GatewayStoreError``
    ///   when the store cannot be reached.
    public func publish(
        _ documents: [String: [UInt8]], version: String, lifetime: TimeInterval = Catalogue.defaultLifetime,
        allowBreaking: Bool = false
    ) async throws {
        let compiled = try Validator(source: .documents(documents))
        let (current, currentVersion) = lock.withLock { (validator, served.version) }
        if !allowBreaking {
            try refuseBreaks(from: current, version: currentVersion, to: compiled, version: version)
        }
        let catalogue = try Self.catalogue(
            documents, version: version, expires: Self.expiry(after: lifetime), signingKey: keys.signing)
        try await store.publish(catalogue)
        serve(catalogue, compiled)
    }

    /// The catalogue being served.
    public var catalogue: Catalogue { lock.withLock { served } }

    /// What `GET /metrics` serves: the gateway's counters, latency histogram and catalogue gauges in the Prometheus
    /// text format (ids, schema ids, status codes and rule codes as labels, never a value).
    public var metricsText: String { String(decoding: metrics.exposition(), as: UTF8.self) }

    /// Makes this gateway serve what its store holds: publishes the catalogue it serves when the store has none or
    /// an older one, and otherwise takes the store's latest (one published through another instance). The
    /// application does this at start and every ``Limits/catalogueRefresh``, and before answering `GET /v1/schemas`.
    ///
    /// A catalogue in the store that does not carry this gateway's signature, or does not compile, is not served;
    /// the gateway logs why and keeps what it serves.
    ///
    /// - Throws: ``GatewayStoreError`` when the store cannot be reached.
    public func synchronizeCatalogue() async throws {
        // A second round when another instance published between this one's look and its own publication.
        for _ in 0..<2 {
            let current = catalogue
            let etag = try await store.latestCatalogueETag()
            if etag == current.etag { return }
            let latest = etag == nil ? nil : try await store.latestCatalogue()
            if let latest, try CatalogueVersion(latest.version) >= CatalogueVersion(current.version) {
                take(latest)
                return
            }
            if let latest, !allowBreaking,
                let before = try? Validator(source: .documents(CatalogueBody(json: latest.body).documents))
            {
                let now = lock.withLock { validator }
                try refuseBreaks(from: before, version: latest.version, to: now, version: current.version)
            }
            do {
                try await store.publish(current)
                return
            } catch let error as CatalogueError where error.code == .notNewer {
                continue
            }
        }
    }

    /// Throws ``/DCEEnvelope/CatalogueError/Code/breaking``, listing the breaks, when `new` refuses requests `old`
    /// accepts.
    private func refuseBreaks(from old: Validator, version: String, to new: Validator, version newVersion: String)
        throws
    {
        let breaks = SchemaComparison(old: old, new: new).requestBreaks(severities: severities)
        guard !breaks.isEmpty else { return }
        logger.error(
            "catalogue not published: it breaks requests",
            metadata: [
                "version": .string(newVersion), "served": .string(version),
                "breaks": .string(breaks.map { "\($0.schema) \($0.path) \($0.change)" }.joined(separator: ", ")),
            ])
        throw CatalogueError(
            code: .breaking,
            message: "catalogue \(newVersion) refuses requests catalogue \(version) accepts, and apps that send them "
                + "are installed; allow breaking changes (dce-gateway --allow-breaking) to publish it anyway. "
                + "\(breaks.count) break\(breaks.count == 1 ? "" : "s") (dce-validate compat shows a payload for each):\n"
                + breaks.map { "  " + $0.summary }.joined(separator: "\n"))
    }

    /// The team's severities for what breaks: `compat-severity.txt` in a schema folder, else the defaults.
    private static func severities(in source: SchemaSource) throws -> CompatSeverities {
        guard case .directory(let folder) = source else { return CompatSeverities() }
        let file = folder.appendingPathComponent(CompatSeverities.fileName)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return CompatSeverities() }
        do {
            return try CompatSeverities(text: text)
        } catch {
            throw CatalogueError(
                code: .invalidSeverities, message: "\(file.path):\(error.line): \(error.message)")
        }
    }

    /// Serves a catalogue from the store, if it carries this gateway's signature and compiles.
    private func take(_ latest: Catalogue) {
        let previous = catalogue.version
        do {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: keys.signing).publicKey
            guard let signature = Data(base64Encoded: latest.signature),
                key.isValidSignature(signature, for: latest.body)
            else {
                throw CatalogueError(code: .malformed, message: "its signature is not this gateway's")
            }
            let compiled = try Validator(source: .documents(try CatalogueBody(json: latest.body).documents))
            serve(latest, compiled)
            logger.notice(
                "catalogue taken from the store",
                metadata: ["version": .string(latest.version), "previous": .string(previous)])
        } catch {
            logger.error(
                "catalogue in the store not served",
                metadata: ["version": .string(latest.version), "reason": .string("\(error)")])
        }
    }

    /// Serves `catalogue`, validating with `compiled`, unless a newer one is served already.
    private func serve(_ catalogue: Catalogue, _ compiled: Validator) {
        let previous: Catalogue? = lock.withLock {
            if let new = try? CatalogueVersion(catalogue.version), let old = try? CatalogueVersion(served.version),
                new < old
            {
                return nil
            }
            defer { (validator, served) = (compiled, catalogue) }
            return served
        }
        if let previous { metrics.serving(catalogue, previous: previous) }
    }

    /// Signs a catalogue body (for a gateway, or a test standing in for one).
    ///
    /// - Parameters:
    ///   - documents: Schema documents by id.
    ///   - version: The version: decimal numbers separated by dots, such as `2026.11.1`.
    ///   - expires: When clients stop using it (whole seconds; it may lie in the past, for tests).
    ///   - signingKey: The Ed25519 private key.
    /// - Returns: The catalogue.
    /// - Throws: ``/DCEEnvelope/CatalogueError`` for a version that is not decimal numbers, an expiry outside the
    ///   years 0001 to 9999, or a document that is not JSON; key errors.
    public static func catalogue(_ documents: [String: [UInt8]], version: String, expires: Date, signingKey: Data)
        throws -> Catalogue
    {
        let contents = CatalogueBody(version: try CatalogueVersion(version), expires: expires, documents: documents)
        let body = try contents.json()
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: signingKey).signature(for: body)
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        return Catalogue(
            version: version, expires: contents.expires, body: body, etag: "\"\(digest)\"",
            signature: signature.base64EncodedString())
    }

    /// The expiry of a catalogue signed now that clients may use for `lifetime` seconds.
    private static func expiry(after lifetime: TimeInterval) throws(CatalogueError) -> Date {
        guard lifetime > 0, lifetime.isFinite else {
            throw CatalogueError(
                code: .invalidExpiry, message: "a catalogue's lifetime must be a positive number of seconds")
        }
        return Date(timeIntervalSinceNow: lifetime)
    }

    /// Answers one envelope, as `POST /v1/requests` does once the body is read: 200 with an accepted `PDResponse`,
    /// 422 with a rejected one listing the errors (at most ``Limits/maxErrorsPerAnswer``), 409 when the request id
    /// belongs to another request or the same request is being processed, 503 when nothing more can be
    /// remembered, the validation threads are saturated or the store cannot be reached. An accepted request's
    /// answer is given again, byte for byte, to the same request (same id, same body) within the replay window; an
    /// envelope older than the window, or without a creation time, is refused.
    ///
    /// The work is done on the gateway's validation threads (``Limits/validationThreads``).
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - caller: Who sent it, as the embedding code authenticated it: its scopes must allow the schema (403
    ///     otherwise), and its request ids are its own. ``authentication`` is not asked here.
    /// - Returns: The answer.
    public func handle(envelope body: [UInt8], caller: Caller = .anonymous) async -> Answer {
        let started = ContinuousClock.now
        let answer = await respond(to: body, caller: caller)
        record(answer, method: "POST", path: "/v1/requests", since: started)
        return answer
    }

    /// ``handle(envelope:)`` without the access log line and the counters.
    private func respond(to body: [UInt8], caller: Caller) async -> Answer {
        var answer = await respondAs(caller, to: body)
        answer.note.caller = caller.name
        return answer
    }

    /// ``respond(to:caller:)`` before the caller is noted.
    private func respondAs(_ caller: Caller, to body: [UInt8]) async -> Answer {
        let isLarge = body.count >= limits.largeBodyBytes
        let admission: Admission
        do {
            admission = try await pool.run(isLarge: isLarge) { self.admit(body, caller: caller) }
        } catch {
            return saturated()
        }
        let incoming: IncomingRequest
        let request: IdempotentRequest
        switch admission {
        case .refused(let answer): return answer
        case .admitted(let admitted, let idempotent):
            (incoming, request) = (admitted, idempotent)
        }
        let outcome: IdempotencyOutcome
        do {
            outcome = try await store.once(request) {
                do {
                    let checked = try await self.pool.run(isLarge: isLarge) { self.check(incoming) }
                    guard case .valid(let valid) = checked.verdict else { return checked.answer }
                    if let refusal = await self.limitCardTesting(valid, caller: caller) { return refusal }
                    return self.serve(valid, checked: checked.answer)
                } catch {
                    return self.saturated()
                }
            }
        } catch {
            logger.error(
                "store unavailable", metadata: ["requestId": .string(request.id), "reason": .string(error.message)])
            return refuse(
                503, requestID: request.id, .storeUnavailable, "the gateway cannot reach its database: retry shortly",
                retryAfter: 1)
        }
        var answer: Answer
        switch outcome {
        case .processed(let processed):
            return processed
        case .replayed(let replayed):
            answer = replayed
            answer.note = Note(
                requestID: request.id, schema: request.schema, schemaVersion: incoming.header.schemaVersion,
                rules: ["replayed"])
        case .conflict:
            answer = refuse(
                409, requestID: request.id, .idempotencyConflict,
                "the request id '\(request.id)' was used for a different request")
        case .inProgress:
            answer = refuse(
                409, requestID: request.id, .requestInProgress,
                "the request '\(request.id)' is being processed: retry shortly")
        case .full(let seconds):
            answer = refuse(
                503, requestID: request.id, .overloaded, "the gateway cannot take more requests now: retry later",
                retryAfter: seconds)
        }
        answer.note.idempotency = Self.idempotencyLabel(outcome)
        return answer
    }

    private static func idempotencyLabel(_ outcome: IdempotencyOutcome) -> String? {
        switch outcome {
        case .processed: nil
        case .replayed: "replayed"
        case .conflict: "conflict"
        case .inProgress: "inProgress"
        case .full: "full"
        }
    }

    /// A request's fate before its id is looked up: refused, or admitted with what its store needs.
    private enum Admission: Sendable {
        case refused(Answer)
        case admitted(IncomingRequest, IdempotentRequest)
    }

    /// Reads an envelope and checks its id and age.
    private func admit(_ body: [UInt8], caller: Caller) -> Admission {
        let incoming: IncomingRequest
        do {
            incoming = try IncomingRequest(json: body)
        } catch {
            return .refused(refuse(422, requestID: "", .json, error.message))
        }
        let header = incoming.header
        let requestID = header.requestID
        guard !requestID.isEmpty, requestID.utf8.count <= Self.maxRequestIDBytes else {
            return .refused(
                refuse(
                    422, requestID: "", .json,
                    "the envelope's 'requestId' must have 1 to \(Self.maxRequestIDBytes) bytes"))
        }
        guard caller.mayPost(header.schema) else {
            // The schema is named only when the gateway knows it: the envelope's text is the client's.
            let schema = knownSchema(header.schema) ?? "unknown"
            let named = schema == "unknown" ? "this schema" : "'\(schema)': it needs the scope requests:\(schema)"
            var answer = refuse(403, requestID: requestID, .missingScope, "this credential may not post \(named)")
            answer.note.schema = schema
            return .refused(answer)
        }
        guard let created = header.createdAt else {
            return .refused(
                refuse(
                    422, requestID: requestID, .replayWindow,
                    "the envelope has no 'createdAt': it cannot be told from a replay"))
        }
        let received = now()
        let age = received.timeIntervalSince(created)
        if age > limits.replayWindow.seconds {
            return .refused(
                refuse(
                    422, requestID: requestID, .replayWindow,
                    "the envelope was created \(Int(age)) s ago, outside the replay window of \(Int(limits.replayWindow.seconds)) s: build a new one"
                ))
        }
        if -age > limits.clockSkew.seconds {
            return .refused(
                refuse(
                    422, requestID: requestID, .replayWindow,
                    "the envelope was created \(Int(-age)) s in the future, more than the allowed clock skew of \(Int(limits.clockSkew.seconds)) s"
                ))
        }
        // Kept for the replay window plus the skew from now: any copy of the envelope arriving later is refused by age.
        let expires = received.addingTimeInterval((limits.replayWindow + limits.clockSkew).seconds)
        return .admitted(
            incoming,
            IdempotentRequest(
                id: requestID, digest: Array(SHA256.hash(data: body)), schema: header.schema, received: received,
                expires: expires, caller: caller.name))
    }

    /// The answer when the validation threads are saturated.
    private func saturated() -> Answer {
        refuse(503, requestID: "", .overloaded, "the gateway is saturated: retry shortly", retryAfter: 1)
    }

    /// A request opened and validated, ready for the backend.
    private struct ValidRequest: Sendable {
        var header: EnvelopeHeader
        var document: JSONDocument
        /// The fingerprints of the card numbers it presents.
        var cards: [String]
    }

    /// What opening and validating a request whose id is claimed came to: its answer when refused, else the request
    /// for the backend (with the answer's note so far: schema, version, validation time).
    private func check(_ incoming: IncomingRequest) -> (answer: Answer, verdict: CheckVerdict) {
        let started = ContinuousClock.now
        let verdict = checkUntimed(incoming)
        var answer: Answer
        if case .refused(let refusal) = verdict { answer = refusal } else { answer = Answer(status: 200, body: []) }
        answer.note.schema = incoming.header.schema
        answer.note.schemaVersion = incoming.header.schemaVersion
        answer.note.validation = ContinuousClock.now - started
        return (answer, verdict)
    }

    private enum CheckVerdict: Sendable {
        case refused(Answer)
        case valid(ValidRequest)
    }

    /// ``check(_:)`` without the timing.
    private func checkUntimed(_ incoming: IncomingRequest) -> CheckVerdict {
        let header = incoming.header
        let validator = lock.withLock { self.validator }
        let report: ValidationReport
        let payload: [UInt8]?
        do {
            (report, payload) = try validator.accept(incoming, opener: opener, maxErrors: limits.maxErrorsPerAnswer)
        } catch {
            return .refused(
                refuse(422, requestID: header.requestID, ViolationCode(rawValue: error.code.rawValue), error.message))
        }
        guard report.valid, let payload, let document = try? JSONDocument(bytes: payload) else {
            // The report keeps at most the answer's limit of violations; it counts the rest.
            let response = PDResponse(
                requestID: header.requestID, status: .rejected, errors: Array(report.errors),
                omittedErrors: report.omittedErrors)
            var answer = Answer(status: 422, body: response.json)
            answer.note = Note(
                requestID: header.requestID, rules: report.errors.map(\.rule.rawValue), refusal: "invalid")
            return .refused(answer)
        }
        let cards = (validator.schema(header.schema)?.cardNumbers(in: document) ?? []).map { digits in
            cardFingerprinter.fingerprint(digits.span)
        }
        return .valid(ValidRequest(header: header, document: document, cards: cards))
    }

    /// The 429 for a request whose cards meet a card-testing limit, or the store's 503; `nil` when it may be served.
    private func limitCardTesting(_ request: ValidRequest, caller: Caller) async -> Answer? {
        guard !request.cards.isEmpty else { return nil }
        let verdict: CardVerdict
        do {
            verdict = try await store.present(
                cards: request.cards, caller: caller.name, at: now(), limits: limits.cardVelocity)
        } catch {
            logger.error(
                "store unavailable",
                metadata: ["requestId": .string(request.header.requestID), "reason": .string(error.message)])
            return refuse(
                503, requestID: request.header.requestID, .storeUnavailable,
                "the gateway cannot reach its database: retry shortly", retryAfter: 1)
        }
        guard case .refused(let reason, let retryAfter) = verdict else { return nil }
        // The same words whichever limit was met: a caller learns nothing of what others presented.
        var answer = refuse(
            429, requestID: request.header.requestID, .cardVelocity,
            "too many card numbers presented in a short time: retry after \(retryAfter) s", retryAfter: retryAfter)
        answer.note.refusal = reason.rawValue
        answer.note.schema = request.header.schema
        answer.note.schemaVersion = request.header.schemaVersion
        return answer
    }

    /// Answers a valid request from the backend, keeping the note ``check(_:)`` began.
    private func serve(_ request: ValidRequest, checked: Answer) -> Answer {
        let result = backend(request.header.schema, SchemaValue(document: request.document, at: request.document.root))
        var answer = Answer(
            status: 200,
            body: PDResponse(requestID: request.header.requestID, status: .accepted, payload: result).json)
        answer.note = checked.note
        answer.note.requestID = request.header.requestID
        return answer
    }

    /// A rejected answer with one error.
    private func refuse(
        _ status: Int, requestID: String, _ rule: ViolationCode, _ message: String, retryAfter: Int? = nil
    ) -> Answer {
        let response = PDResponse(
            requestID: requestID, status: .rejected,
            errors: [Violation(path: "", key: "", rule: rule, message: message)])
        var answer = Answer(status: status, body: response.json, retryAfter: retryAfter)
        answer.note = Note(requestID: requestID, rules: [rule.rawValue], refusal: rule.rawValue)
        return answer
    }

    /// The access log line and the counters of one exchange: method, path, status, duration, request id, schema
    /// and version, rule codes; never a message or a value (and the redacting handler, in `dce-gateway`, in front).
    func record(_ answer: Answer, method: String, path: String, since started: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - started
        let note = answer.note
        var metadata: Logger.Metadata = [
            "method": .string(method), "path": .string(path), "status": .stringConvertible(answer.status),
            "durationMs": .string(Self.milliseconds(duration)),
        ]
        if let caller = note.caller { metadata["caller"] = .string(caller) }
        if !note.requestID.isEmpty { metadata["requestId"] = .string(note.requestID) }
        if let schema = note.schema { metadata["schema"] = .string(schema) }
        if let version = note.schemaVersion { metadata["schemaVersion"] = .string(version) }
        if !note.rules.isEmpty { metadata["rules"] = .array(note.rules.map { .string($0) }) }
        // A reason the rule code does not say (which card-testing limit was met): for operations, never the answer.
        if let refusal = note.refusal, refusal != "invalid", !note.rules.contains(refusal) {
            metadata["refusal"] = .string(refusal)
        }
        logger.log(
            level: answer.status < 400 ? .info : answer.status < 500 ? .notice : .warning, "request answered",
            metadata: metadata)
        let schema = note.schema.flatMap(knownSchema)
        metrics.answered(path: path, status: answer.status, schema: schema)
        if let caller = note.caller { metrics.answered(caller: caller, status: answer.status) }
        if let seconds = note.validation, let schema { metrics.validated(schema: schema, in: seconds) }
        if let outcome = note.idempotency { metrics.idempotency(outcome) }
        if let reason = note.refusal { metrics.refused(reason) }
    }

    /// A schema id the gateway knows, for a metric's label; anything a client makes up would let it add series at will.
    private func knownSchema(_ id: String) -> String? {
        lock.withLock { validator.schema(id) } != nil ? id : "unknown"
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.seconds * 1_000)
    }

    /// Adds `POST /v1/requests`, `GET /v1/schemas` (with ETag, `If-None-Match` and `X-DCE-Signature`), `GET
    /// /metrics`, and for operators and integrators `GET /openapi.json`, `GET /healthz` and `GET /readyz`.
    ///
    /// `POST /v1/requests` takes only `application/json` (415 otherwise) and bodies up to
    /// ``Limits/maxBodyBytes`` (413 beyond), and validates on the gateway's own threads (503 with `Retry-After`
    /// when they are saturated). Use ``application(router:address:serverName:logger:onServerRunning:)`` to get the
    /// connection limits and timeouts as well.
    ///
    /// - Parameter router: The application's router.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.post("v1/requests") { request, _ -> Response in
            let started = ContinuousClock.now
            let answer = await self.answer(request)
            self.record(answer, method: "POST", path: "/v1/requests", since: started)
            var headers: HTTPFields = [.contentType: "application/json"]
            if let seconds = answer.retryAfter { headers[.retryAfter] = String(seconds) }
            if answer.status == 401 { headers[.wwwAuthenticate] = #"Bearer realm="dce-gateway""# }
            return Response(
                status: HTTPResponse.Status(code: answer.status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        router.get("v1/schemas") { request, _ -> Response in
            let started = ContinuousClock.now
            if self.store.isShared { await self.refreshCatalogue() }
            let catalogue = self.catalogue
            var headers: HTTPFields = [.eTag: catalogue.etag]
            if request.headers[.ifNoneMatch] == catalogue.etag {
                self.record(Answer(status: 304, body: []), method: "GET", path: "/v1/schemas", since: started)
                return Response(status: .notModified, headers: headers)
            }
            self.record(Answer(status: 200, body: []), method: "GET", path: "/v1/schemas", since: started)
            headers[.contentType] = "application/json"
            headers[HTTPField.Name("X-DCE-Signature")!] = catalogue.signature
            return Response(
                status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: catalogue.body)))
        }
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: self.metrics.exposition())))
        }
        addOperationRoutes(to: router)
    }

    /// Reads a request's body within the limits and answers it on a validation thread.
    private func answer(_ request: Request) async -> Answer {
        // Who calls is known before anything of the request is read; what failed is not said.
        guard let caller = await authentication.caller(authorization: request.headers[.authorization]) else {
            return refuse(
                401, requestID: "", .unauthenticated,
                "this request needs a valid credential: Authorization: Bearer KEY_OR_TOKEN")
        }
        var answer = await answer(request, from: caller)
        answer.note.caller = caller.name
        return answer
    }

    /// Reads an authenticated caller's request body within the limits and answers it.
    private func answer(_ request: Request, from caller: Caller) async -> Answer {
        guard Self.isJSON(request.headers[.contentType]) else {
            return refuse(
                415, requestID: "", .unsupportedMediaType, "the request body must be sent as application/json")
        }
        let tooLarge = "the request body is larger than the gateway's limit of \(limits.maxBodyBytes) bytes"
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.maxBodyBytes {
            return refuse(413, requestID: "", .bodyTooLarge, tooLarge)
        }
        let body: [UInt8]
        do {
            body = Array(try await request.body.collect(upTo: limits.maxBodyBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            return refuse(413, requestID: "", .bodyTooLarge, tooLarge)
        } catch {
            return refuse(400, requestID: "", .json, "the request body could not be read")
        }
        return await respond(to: body, caller: caller)
    }

    /// Whether a `Content-Type` names JSON (`application/json`, with or without parameters).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type =
            contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return type.lowercased() == "application/json"
    }

    /// A server for this gateway with every bound of ``limits``: the routes of ``addRoutes(to:)``, the header,
    /// body and idle timeouts, and the limit on open connections.
    ///
    /// ```swift
    /// let router = Router()
    /// try await gateway.application(router: router, address: .hostname("127.0.0.1", port: 8080)).runService()
    /// ```
    ///
    /// - Parameters:
    ///   - router: The router; middleware added to it beforehand runs before the gateway's routes.
    ///   - address: Where to listen.
    ///   - serverName: The `Server` header.
    ///   - logger: The server's logger.
    ///   - onServerRunning: Called with the listening channel once the server runs.
    /// With a shared store (``PostgresStore``), the application also runs the store, prepares it (creates or migrates
    /// its tables) and synchronizes the catalogue with it before the server starts (a store that cannot be reached
    /// then stops the application with its error), and looks for a newer catalogue every
    /// ``Limits/catalogueRefresh``.
    ///
    /// - Returns: The application, to `run()` or `runService()`.
    public func application<Context: RequestContext>(
        router: Router<Context>, address: BindAddress, serverName: String? = "dce-gateway", logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
        application(
            router: router, server: plainHTTP(), address: address, serverName: serverName, logger: logger,
            onServerRunning: onServerRunning)
    }

    /// ``application(router:address:serverName:logger:onServerRunning:)`` over TLS (1.2 or 1.3), for a gateway that
    /// no proxy stands in front of.
    ///
    /// - Parameters:
    ///   - router: The application's router; the gateway adds its routes.
    ///   - address: Where to listen.
    ///   - tls: The certificate chain and private key (``TLS``).
    ///   - serverName: The `Server` field of answers.
    ///   - logger: The application's logger.
    ///   - onServerRunning: Called once the server listens.
    /// - Throws: When the TLS server cannot be built.
    public func application<Context: RequestContext>(
        router: Router<Context>, address: BindAddress, tls: TLS, serverName: String? = "dce-gateway",
        logger: Logger? = nil, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
        application(
            router: router, server: try .tls(plainHTTP(), tlsConfiguration: tls.configuration), address: address,
            serverName: serverName, logger: logger, onServerRunning: onServerRunning)
    }

    /// HTTP/1.1 with the gateway's deadlines.
    private func plainHTTP() -> HTTPServerBuilder {
        let limits = limits
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    RequestDeadlines(header: limits.headerTimeout, body: limits.bodyTimeout, idle: limits.idleTimeout)
                ],
                idleTimeout: TimeAmount(limits.idleTimeout)))
    }

    private func application<Context: RequestContext>(
        router: Router<Context>, server: HTTPServerBuilder, address: BindAddress, serverName: String?,
        logger: Logger?, onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
        addRoutes(to: router)
        var application = Application(
            router: router, server: server,
            configuration: .init(
                address: address, serverName: serverName,
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections)),
            onServerRunning: onServerRunning, logger: logger)
        if let service = store as? any Service { application.addServices(service) }
        if store.isShared { application.addServices(CatalogueWatcher(gateway: self, every: limits.catalogueRefresh)) }
        application.beforeServerStarts { [store] in
            try await store.prepare()
            try await self.synchronizeCatalogue()
        }
        return application
    }

    /// ``synchronizeCatalogue()``, and when the store cannot say, a warning: the catalogue served is signed and still
    /// valid until it expires, so it goes on being served.
    private func refreshCatalogue() async {
        do {
            try await synchronizeCatalogue()
        } catch {
            logger.warning("catalogue not synchronized", metadata: ["reason": .string("\(error)")])
        }
    }

    /// Looks for a catalogue published through another instance, on a timer, until shutdown.
    private struct CatalogueWatcher: Service {
        let gateway: Gateway
        let every: Duration

        func run() async throws {
            // Shutdown cancels the sleep: that is this service's end, not its failure (which would make a gateway
            // on a shared store exit 2 after a graceful shutdown).
            do {
                try await cancelWhenGracefulShutdown {
                    while true {
                        try await Task.sleep(for: every)
                        await gateway.refreshCatalogue()
                    }
                }
            } catch is CancellationError {
                return
            }
        }
    }
}

extension Gateway {
    /// The gateway's own TLS, where no proxy terminates it: a certificate chain and its private key, read from PEM
    /// files once; TLS 1.2 and 1.3 only (`dce-gateway --tls-cert --tls-key`).
    public struct TLS: Sendable {
        let configuration: TLSConfiguration

        /// Reads the certificate chain (the server's certificate first) and its private key.
        ///
        /// - Parameters:
        ///   - certificateChain: A PEM file of certificates.
        ///   - privateKey: A PEM file of the first certificate's private key.
        /// - Throws: ``GatewayTLSError`` naming the file that cannot be read or used, or a key that does not match.
        public init(certificateChain: String, privateKey: String) throws(GatewayTLSError) {
            let chain: [NIOSSLCertificate]
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificateChain)
            } catch {
                throw GatewayTLSError("\(certificateChain) is not a PEM certificate chain: \(error)")
            }
            guard !chain.isEmpty else {
                throw GatewayTLSError("\(certificateChain) holds no certificate")
            }
            let key: NIOSSLPrivateKey
            do {
                key = try NIOSSLPrivateKey(file: privateKey, format: .pem)
            } catch {
                throw GatewayTLSError("\(privateKey) is not a PEM private key: \(error)")
            }
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            // The context is built here once, so that a key that is not the certificate's is found at start, not at
            // the first handshake.
            do {
                _ = try NIOSSLContext(configuration: configuration)
            } catch {
                throw GatewayTLSError(
                    "\(privateKey) and \(certificateChain) do not make a TLS server (is the key the certificate's?): \(error)"
                )
            }
            self.configuration = configuration
        }
    }
}

/// Why the gateway's TLS files cannot be used.
public struct GatewayTLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// The rule codes only the gateway answers with.
extension ViolationCode {
    /// The envelope has no creation time, or it lies outside the gateway's replay window (too old, or too far in
    /// the future).
    public static let replayWindow = ViolationCode(rawValue: "replayWindow")
    /// The request id was used before for a different request (HTTP 409).
    public static let idempotencyConflict = ViolationCode(rawValue: "idempotencyConflict")
    /// The same request is being processed; retry shortly (HTTP 409).
    public static let requestInProgress = ViolationCode(rawValue: "requestInProgress")
    /// The request has no valid credential: none, a malformed one, an unknown or revoked key (HTTP 401, with
    /// `WWW-Authenticate: Bearer`).
    public static let unauthenticated = ViolationCode(rawValue: "unauthenticated")
    /// The credential is valid but lacks the scope for the schema posted, `requests:SCHEMA` (HTTP 403).
    public static let missingScope = ViolationCode(rawValue: "missingScope")
    /// The request body is not `application/json` (HTTP 415).
    public static let unsupportedMediaType = ViolationCode(rawValue: "unsupportedMediaType")
    /// The request body is larger than the gateway's limit (HTTP 413).
    public static let bodyTooLarge = ViolationCode(rawValue: "bodyTooLarge")
    /// The gateway is saturated; retry after the `Retry-After` seconds (HTTP 503).
    public static let overloaded = ViolationCode(rawValue: "overloaded")
    /// The request presents a card number while its caller has presented too many different cards in a minute, or
    /// the card has been presented by too many callers in an hour (card testing); retry after the `Retry-After`
    /// seconds (HTTP 429). The answer does not say which.
    public static let cardVelocity = ViolationCode(rawValue: "cardVelocity")
    /// The gateway cannot reach its store (its database); retry after the `Retry-After` seconds (HTTP 503). Nothing
    /// was recorded.
    public static let storeUnavailable = ViolationCode(rawValue: "storeUnavailable")
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
