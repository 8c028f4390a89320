import Crypto
import DCECrypto
public import DCEEngine
import DCEEnvelope
import DCEFingerprint
import DCEWorkers
public import Foundation
public import Logging

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
/// Its parts, each in a file of its own: the routes (`GatewayRoutes`) and the middleware in front of them (the access
/// log, the metrics, authentication, the body's limits), the envelope's way from admission to the backend
/// (`Gateway+Envelopes`, with the card-testing limits as a stage before the backend), the catalogue's signing and
/// publishing (`CataloguePublisher`), the server with its deadlines (`Gateway+Application`, `RequestDeadlines`), and
/// the validation threads (`WorkerPool`).
///
/// `@unchecked Sendable`: `draining` and the OpenAPI document change only under `lock`; the rest is immutable or
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

    /// The bounds in force.
    public let limits: Limits
    /// How callers are known.
    public let authentication: Authentication
    let opener: HPKEFieldOpener
    /// Fingerprints the card numbers requests present, for the card-testing limits: an HMAC under a key derived from
    /// the encryption key, so every instance with the same keys gives a card the same fingerprint.
    let cardFingerprinter: HMACFingerprinter
    let backend: Backend
    let logger: Logger
    let now: @Sendable () -> Date
    /// Guards `draining` and `apiDocument`.
    let lock = NSLock()
    /// Whether a shutdown has begun (``runService(_:drainingFor:signals:)``): readiness fails from then on.
    var draining = false
    /// The OpenAPI document of the catalogue with this ETag (``openAPIDocument()``).
    var apiDocument: (etag: String, body: [UInt8])?
    /// The catalogue served and the schemas requests are validated with; publishing and signing.
    let publisher: CataloguePublisher
    /// The accepted requests' answers, by request id and body digest, and the published catalogues.
    let store: any GatewayStore
    /// Where requests are validated, off the server's network threads.
    let pool: WorkerPool
    /// What `GET /metrics` shows.
    let metrics: GatewayMetrics
    /// The card-testing limits, between validation and the backend.
    let cardTesting: CardTestingMiddleware
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
        let memory =
            store == nil ? MemoryStore(maxEntries: limits.rememberedRequests, maxBytes: limits.rememberedBytes) : nil
        self.store = store ?? memory!
        self.metrics = GatewayMetrics()
        self.publisher = try CataloguePublisher(
            documents: try source.documents(), version: version, lifetime: catalogueLifetime, signingKey: keys.signing,
            severities: try CataloguePublisher.severities(in: source), allowBreaking: allowBreaking, store: self.store,
            metrics: metrics, logger: logger)
        try memory?.publish(publisher.catalogue)
        self.cardTesting = CardTestingMiddleware(
            store: self.store, limits: limits.cardVelocity, now: now, logger: logger)
        self.pool = WorkerPool(
            name: "dce-gateway validation", threads: limits.validationThreads, largeThreads: limits.largeBodyThreads,
            queueLimit: limits.queuedRequests)
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
        try await publisher.publish(documents, version: version, lifetime: lifetime, allowBreaking: allowBreaking)
    }

    /// The catalogue being served.
    public var catalogue: Catalogue { publisher.catalogue }

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
        try await publisher.synchronize()
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
        try CataloguePublisher.sign(documents, version: version, expires: expires, key: signingKey)
    }
}
