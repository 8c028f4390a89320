import DCEEnvelope
public import Foundation
public import Logging
import NIOCore
import NIOSSL
import PostgresNIO
public import ServiceLifecycle

/// The gateway's store in PostgreSQL, shared by every instance on the database and kept across restarts.
///
/// A request is answered inside one transaction: its id is inserted first (a second instance given the same id
/// waits on that row until the first one's transaction ends, at most the lock timeout, then answers 409 "in
/// progress"), and an accepted answer is written with the record of the acceptance (`dce_acceptances`) and
/// committed together. An instance that dies before committing leaves nothing: PostgreSQL rolls its transaction
/// back and the client's retry is processed anew, once. Catalogues are rows of `dce_catalogues`; the newest is the
/// one every instance serves.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://dce@127.0.0.1:5432/dce?sslmode=disable")
/// let gateway = try Gateway(keys: keys, version: "2026.11.1", store: store, authentication: .none)
/// // gateway.application(...) runs the store's connections, migrates its tables and publishes the catalogue.
/// ```
///
/// Tables are created and migrated at start (`Migrations/*.sql`, applied in order under an advisory lock, each
/// recorded in `dce_migrations`), so several instances may start at once.
public final class PostgresStore: GatewayStore, Service {
    private let client: PostgresClient
    /// The card-testing limits' own pool: a request holds a connection of `client` for its transaction while it
    /// asks them, and must never wait for a second connection of the same pool (all held, none would come back).
    private let limiter: PostgresClient
    let address: DatabaseAddress
    /// The settings every connection starts with: the statement, lock and idle-transaction timeouts.
    let parameters: [(String, String)]
    private let logger: Logger
    private let instance: String
    let timeout: Duration
    /// Where the database is, for messages: host, port and database, never the password.
    public let location: String
    /// Claims since expired answers were last deleted; every 1,024th claim deletes them.
    private let claims = ClaimCounter()
    /// Card presentations since card uses past every window were last deleted; every 256th deletes them.
    private let presentations = ClaimCounter()

    /// Connects to the database a URL names: `postgres://user:password@host:port/database`, with
    /// `?sslmode=disable|prefer|require` (default `prefer`) and `?host=/path` for a Unix socket directory.
    ///
    /// - Parameters:
    ///   - url: The database URL (`DCE_DATABASE_URL` in `dce-gateway`).
    ///   - instance: Who records acceptances and publications: this host and process by default.
    ///   - timeout: How long one request may wait for the database before the gateway answers 503; also the
    ///     server-side statement and lock timeout. Default 5 s.
    ///   - logger: Where the connection pool logs.
    /// - Throws: ``GatewayStoreError`` for a URL that is not of that form.
    public init(
        url: String,
        instance: String = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)",
        timeout: Duration = .seconds(5), logger: Logger = Logger(label: "dce-gateway.postgres")
    ) throws(GatewayStoreError) {
        let address = try DatabaseAddress(url)
        let milliseconds = Int(timeout.seconds * 1_000)
        self.parameters = [
            ("application_name", "dce-gateway"), ("statement_timeout", String(milliseconds)),
            ("lock_timeout", String(milliseconds)),
            // A transaction left open by an instance that hangs (not dies) is rolled back, freeing its request ids.
            ("idle_in_transaction_session_timeout", String(max(30_000, milliseconds * 6))),
        ]
        var configuration = address.client
        configuration.options.additionalStartupParameters = parameters
        configuration.options.connectTimeout = timeout
        // The pool logs every failed connection attempt at info; the gateway reports what fails itself.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        configuration.options.maximumConnections = 8
        self.limiter = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.address = address
        self.location = address.location
        self.logger = logger
        self.instance = instance
        self.timeout = timeout
    }

    /// Runs the connection pool until the task is cancelled; nothing reaches the database without it.
    /// ``Gateway/application(router:address:serverName:logger:onServerRunning:)`` runs it.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.limiter.run() }
        }
    }

    public func once(_ request: IdempotentRequest, process: @escaping @Sendable () async -> Gateway.Answer)
        async throws(GatewayStoreError)
        -> IdempotencyOutcome
    {
        let purge = claims.next() % 1_024 == 0
        let instance = instance
        return try await bounded("answer a request", timeout: timeout) { client, logger in
            if purge {
                // A statement of its own, committed whatever becomes of the request: inside the request's transaction,
                // every answer but an acceptance rolled it back. Rows another instance holds are left for next time.
                do {
                    try await client.query(
                        "DELETE FROM dce_idempotency WHERE expires_at <= \(request.received)", logger: logger)
                } catch {
                    logger.notice("expired answers not removed", metadata: ["reason": .string("\(error)")])
                }
            }
            return try await client.withConnection { connection in
                do {
                    return try await Self.transaction(on: connection, logger: logger) {
                        let outcome = try await Self.once(
                            request, process: process, instance: instance, on: connection, logger: logger)
                        // Only an accepted answer is kept; anything else leaves no trace.
                        guard case .processed(let answer) = outcome, answer.status == 200 else {
                            return (outcome, commit: false)
                        }
                        return (outcome, commit: true)
                    }
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
                    // lock_not_available: another instance holds the id's row for longer than the lock timeout.
                    return .inProgress
                }
            }
        }
    }

    /// The steps of ``once(_:process:)`` inside its transaction.
    private static func once(
        _ request: IdempotentRequest, process: @Sendable () async -> Gateway.Answer, instance: String,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> IdempotencyOutcome {
        let digest = Data(request.digest)
        // A row whose answer has expired is taken over; a live one stays as it is.
        let claimed = try await connection.query(
            """
            INSERT INTO dce_idempotency (caller, request_id, digest, expires_at) VALUES (\(request.caller), \(request.id), \(digest), \(request.expires))
            ON CONFLICT (caller, request_id) DO UPDATE SET digest = EXCLUDED.digest, status = NULL, body = NULL, expires_at = EXCLUDED.expires_at
            WHERE dce_idempotency.expires_at <= \(request.received)
            RETURNING 1
            """, logger: logger
        ).collect()
        guard !claimed.isEmpty else {
            for try await (kept, status, body) in try await connection.query(
                "SELECT digest, status, body FROM dce_idempotency WHERE caller = \(request.caller) AND request_id = \(request.id)",
                logger: logger
            ).decode((Data, Int?, Data?).self) {
                guard kept == digest else { return .conflict }
                guard let status, let body else { return .inProgress }
                return .replayed(Gateway.Answer(status: status, body: Array(body)))
            }
            return .inProgress
        }
        let answer = await process()
        guard answer.status == 200 else { return .processed(answer) }
        try await connection.query(
            "UPDATE dce_idempotency SET status = \(answer.status), body = \(Data(answer.body)) WHERE caller = \(request.caller) AND request_id = \(request.id)",
            logger: logger)
        try await connection.query(
            """
            INSERT INTO dce_acceptances (caller, request_id, schema, accepted_at, instance)
            VALUES (\(request.caller), \(request.id), \(request.schema), \(request.received), \(instance))
            """, logger: logger)
        return .processed(answer)
    }

    public func present(cards: [String], caller: String, at now: Date, limits: CardVelocity)
        async throws(GatewayStoreError) -> CardVerdict
    {
        let sweep = presentations.next() % 256 == 0
        let fingerprints = Array(Set(cards)).sorted()
        return try await bounded("count the cards presented", timeout: timeout, on: limiter) { client, logger in
            try await client.withConnection { connection in
                try await Self.transaction(on: connection, logger: logger) {
                    // One caller's requests, and one card's, are judged one at a time on every instance, locks taken in
                    // one order (the caller, then the cards sorted) so that none waits for another in a circle.
                    for key in ["caller:" + caller] + fingerprints.map({ "card:" + $0 }) {
                        try await connection.query(
                            "SELECT pg_advisory_xact_lock(hashtextextended(\(key), 7103431046913))", logger: logger)
                    }
                    var callerCards: [String: Date] = [:]
                    for try await (card, seen) in try await connection.query(
                        """
                        SELECT card, last_seen FROM dce_card_uses
                        WHERE caller = \(caller) AND last_seen > \(now - CardVelocity.callerWindow)
                        """, logger: logger
                    ).decode((String, Date).self) {
                        callerCards[card] = seen
                    }
                    var cardCallers: [String: [String: Date]] = [:]
                    for try await (card, presenter, seen) in try await connection.query(
                        """
                        SELECT card, caller, last_seen FROM dce_card_uses
                        WHERE card = ANY(\(fingerprints)) AND last_seen > \(now - CardVelocity.cardWindow)
                        """, logger: logger
                    ).decode((String, String, Date).self) {
                        cardCallers[card, default: [:]][presenter] = seen
                    }
                    let verdict = limits.judge(
                        cards: fingerprints, caller: caller, callerCards: callerCards, cardCallers: cardCallers,
                        now: now)
                    guard verdict == .allowed else { return (verdict, commit: false) }
                    for card in fingerprints {
                        try await connection.query(
                            """
                            INSERT INTO dce_card_uses (caller, card, last_seen) VALUES (\(caller), \(card), \(now))
                            ON CONFLICT (caller, card) DO UPDATE SET last_seen = EXCLUDED.last_seen
                            """, logger: logger)
                    }
                    if sweep {
                        try await connection.query(
                            "DELETE FROM dce_card_uses WHERE last_seen <= \(now - CardVelocity.cardWindow)",
                            logger: logger)
                    }
                    return (verdict, commit: true)
                }
            }
        }
    }

    public func publish(_ catalogue: Gateway.Catalogue) async throws {
        let instance = instance
        let refused: String? = try await bounded("publish a catalogue", timeout: timeout) { client, logger in
            try await client.withConnection { connection in
                try await Self.transaction(on: connection, logger: logger) {
                    // Publications are one at a time, so that "newer than the latest" holds when the row is written.
                    try await connection.query("LOCK TABLE dce_catalogues IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                    let latest = try await connection.query(
                        "SELECT version FROM dce_catalogues ORDER BY id DESC LIMIT 1", logger: logger)
                    for try await (version) in latest.decode(String.self) {
                        if try CatalogueVersion(catalogue.version) <= CatalogueVersion(version) {
                            return (version, commit: false)
                        }
                    }
                    try await connection.query(
                        """
                        INSERT INTO dce_catalogues (version, expires_at, body, etag, signature, published_at, published_by)
                        VALUES (\(catalogue.version), \(catalogue.expires), \(Data(catalogue.body)), \(catalogue.etag),
                                \(catalogue.signature), \(Date()), \(instance))
                        """, logger: logger)
                    return (nil, commit: true)
                }
            }
        }
        if let refused {
            throw CatalogueError(
                code: .notNewer,
                message: "catalogue \(catalogue.version) is not newer than catalogue \(refused), which is served")
        }
    }

    /// Asks the database for `SELECT 1`.
    ///
    /// - Parameter timeout: How long to wait for its answer.
    /// - Throws: ``GatewayStoreError`` naming the database (never its password) when it does not answer in time.
    public func checkReachable(within timeout: Duration) async throws(GatewayStoreError) {
        try await bounded("run SELECT 1", timeout: timeout) { client, logger in
            _ = try await client.query("SELECT 1", logger: logger)
        }
    }

    public func latestCatalogueETag() async throws(GatewayStoreError) -> String? {
        try await bounded("read the catalogue's ETag", timeout: timeout) { client, logger in
            for try await (etag) in try await client.query(
                "SELECT etag FROM dce_catalogues ORDER BY id DESC LIMIT 1", logger: logger
            )
            .decode(String.self) {
                return etag
            }
            return nil
        }
    }

    public func latestCatalogue() async throws(GatewayStoreError) -> Gateway.Catalogue? {
        try await bounded("read the catalogue", timeout: timeout) { client, logger in
            let rows = try await client.query(
                "SELECT version, expires_at, body, etag, signature FROM dce_catalogues ORDER BY id DESC LIMIT 1",
                logger: logger)
            for try await (version, expires, body, etag, signature) in rows.decode(
                (String, Date, Data, String, String).self)
            {
                return Gateway.Catalogue(
                    version: version, expires: expires, body: Array(body), etag: etag, signature: signature)
            }
            return nil
        }
    }

    /// Runs `body` in a transaction on `connection`: committed when it says so, rolled back when it says not or throws.
    static func transaction<Value>(
        on connection: PostgresConnection, logger: Logger, _ body: () async throws -> (Value, commit: Bool)
    ) async throws -> Value {
        try await connection.query("BEGIN", logger: logger)
        do {
            let (value, commit) = try await body()
            try await connection.query(commit ? "COMMIT" : "ROLLBACK", logger: logger)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Runs `operation` against the database for at most `timeout`; what fails or takes longer becomes a
    /// ``GatewayStoreError`` naming the database's location and `what` was being done, never a value.
    ///
    /// The operation is not waited for past the deadline: a query already sent finishes (or fails) on its own, its
    /// transaction rolled back or committed as if the answer had been sent; a retry then finds what it left.
    func bounded<Result: Sendable>(
        _ what: String, timeout: Duration, on pool: PostgresClient? = nil,
        _ operation: @escaping @Sendable (PostgresClient, Logger) async throws -> Result
    ) async throws(GatewayStoreError) -> Result {
        let client = pool ?? client
        let logger = logger
        let location = location
        let race = DeadlineRace<Result>()
        let work = Task {
            do {
                race.finish(.success(try await operation(client, logger)))
            } catch {
                race.finish(
                    .failure(
                        GatewayStoreError("cannot \(what) in the database at \(location): \(Self.describe(error))")))
            }
        }
        let clock = Task {
            try await Task.sleep(for: timeout)
            race.finish(
                .failure(
                    GatewayStoreError("cannot \(what) in the database at \(location): no answer within \(timeout)")))
            work.cancel()
        }
        let result = await race.result()
        clock.cancel()
        return try result.get()
    }

    /// What a database error says, without the query's bound values (PSQLError's description can show them).
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: type(of: error)) }
        if let message = error.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
        }
        switch error.code {
        case .connectionError:
            return "the connection failed: \(error.underlying.map { String(describing: $0) } ?? "no reason given")"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown: return "the connection was closed"
        default: return "\(error.code)"
        }
    }
}

/// The first of an operation's result and its deadline.
///
/// `@unchecked Sendable`: `outcome` and `waiter` are read and written only under `lock`.
private final class DeadlineRace<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Swift.Result<Value, GatewayStoreError>?
    private var waiter: CheckedContinuation<Swift.Result<Value, GatewayStoreError>, Never>?

    func finish(_ result: Swift.Result<Value, GatewayStoreError>) {
        let waiting: CheckedContinuation<Swift.Result<Value, GatewayStoreError>, Never>? = lock.withLock {
            guard outcome == nil else { return nil }
            outcome = result
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: result)
    }

    func result() async -> Swift.Result<Value, GatewayStoreError> {
        await withCheckedContinuation { continuation in
            let ready: Swift.Result<Value, GatewayStoreError>? = lock.withLock {
                if let outcome { return outcome }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Counts claims across tasks.
///
/// `@unchecked Sendable`: `count` is read and written only under `lock`.
private final class ClaimCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
