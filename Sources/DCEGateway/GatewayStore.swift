public import Foundation

/// Where a gateway keeps what must outlive one request and be the same for every instance: the answers to accepted
/// requests (for idempotency and replay) and the published catalogues.
///
/// ``MemoryStore`` keeps them in the process, for one instance; ``PostgresStore`` in PostgreSQL, shared by every
/// instance behind a load balancer and kept across restarts.
public protocol GatewayStore: Sendable {
    /// Answers a request at most once.
    ///
    /// When an answer is kept for `request`'s caller and id, `process` does not run: the same request (same digest) gets the
    /// kept answer again, another request ``IdempotencyOutcome/conflict``. Otherwise `process` runs; an accepted
    /// answer (status 200) is kept until ``IdempotentRequest/expires``, in one step with the record of the
    /// acceptance, and any other answer leaves nothing behind (the id stays free for the genuine request).
    ///
    /// - Parameters:
    ///   - request: The request's id, body digest and schema, and the clock's reading.
    ///   - process: Validates and answers the request.
    /// - Returns: What became of the request.
    /// - Throws: ``GatewayStoreError`` when the store cannot be reached or fails; nothing is kept then.
    func once(_ request: IdempotentRequest, process: @escaping @Sendable () async -> Gateway.Answer)
        async throws(GatewayStoreError)
        -> IdempotencyOutcome

    /// Judges the cards a request presents against the card-testing limits and, when it may be served, notes them
    /// under its caller (``CardVelocity``): atomically, so that two requests at once cannot both take the last slot.
    ///
    /// - Parameters:
    ///   - cards: The cards' fingerprints.
    ///   - caller: Who presents them (``Caller/name``).
    ///   - now: The gateway's clock.
    ///   - limits: The limits.
    /// - Returns: Whether the request may be served, or which limit it met and when to try again.
    /// - Throws: ``GatewayStoreError`` when the store cannot be reached; nothing is noted then.
    func present(cards: [String], caller: String, at now: Date, limits: CardVelocity) async throws(GatewayStoreError)
        -> CardVerdict
    /// Keeps `catalogue` as the latest, if it is newer than the latest kept.
    ///
    /// - Parameter catalogue: A signed catalogue.
    /// - Throws: ``/DCEEnvelope/CatalogueError`` `notNewer` when the latest kept is as new or newer;
    ///   ``GatewayStoreError``.
    func publish(_ catalogue: Gateway.Catalogue) async throws

    /// The ETag of the latest catalogue kept, if any: a cheap question, asked often.
    ///
    /// - Throws: ``GatewayStoreError``.
    func latestCatalogueETag() async throws(GatewayStoreError) -> String?

    /// The latest catalogue kept, if any.
    ///
    /// - Throws: ``GatewayStoreError``.
    func latestCatalogue() async throws(GatewayStoreError) -> Gateway.Catalogue?

    /// Makes the store ready for use (creates or migrates its tables); the gateway's application calls it before
    /// the server starts. Nothing by default.
    ///
    /// - Throws: ``GatewayStoreError`` when it cannot.
    func prepare() async throws(GatewayStoreError)

    /// Whether other instances may change the store (publish catalogues): the gateway then looks for their
    /// catalogues. `true` by default.
    var isShared: Bool { get }

    /// Whether the store answers, for `GET /readyz`: returns when it does within `timeout`. Nothing by default.
    ///
    /// - Parameter timeout: How long to wait for an answer.
    /// - Throws: ``GatewayStoreError`` when it does not answer in time.
    func checkReachable(within timeout: Duration) async throws(GatewayStoreError)
}

extension GatewayStore {
    public func prepare() async throws(GatewayStoreError) {}

    public func checkReachable(within timeout: Duration) async throws(GatewayStoreError) {}

    public var isShared: Bool { true }
}

/// A request as its store sees it.
public struct IdempotentRequest: Sendable, Hashable {
    /// The envelope's request id.
    public var id: String
    /// Who sent it (``Caller/name``): an id is one caller's, so the same id from two callers is two requests.
    public var caller: String
    /// The SHA-256 of the request's body: a retry has the same, another request under the same id another.
    public var digest: [UInt8]
    /// The request schema the envelope names.
    public var schema: String
    /// The gateway's clock when the request arrived.
    public var received: Date
    /// Until when an accepted answer must be kept: no copy of the envelope can be processed after it.
    public var expires: Date

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - id: The request id.
    ///   - digest: The body's SHA-256.
    ///   - schema: The request schema.
    ///   - received: When it arrived.
    ///   - expires: How long an accepted answer is kept.
    ///   - caller: Who sent it.
    public init(
        id: String, digest: [UInt8], schema: String, received: Date, expires: Date,
        caller: String = Caller.anonymous.name
    ) {
        self.id = id
        self.caller = caller
        self.digest = digest
        self.schema = schema
        self.received = received
        self.expires = expires
    }
}

/// What became of a request given to ``GatewayStore/once(_:process:)``.
public enum IdempotencyOutcome: Sendable, Hashable {
    /// The request was processed now, with this answer.
    case processed(Gateway.Answer)
    /// The same request was answered before: this is that answer, byte for byte.
    case replayed(Gateway.Answer)
    /// The id belongs to a different request.
    case conflict
    /// The same request is being processed right now, here or by another instance.
    case inProgress
    /// Nothing more can be kept until the oldest answer expires, in about this many seconds.
    case full(retryAfter: Int)
}

/// A store that cannot be reached or failed; what the gateway answers with 503.
public struct GatewayStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for operators: never a request's content.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
