public import Foundation

extension Gateway {
    /// Every bound the gateway keeps against hostile clients and bad days, with defaults for a small deployment.
    /// `dce-gateway --help` names the flag of each; docs/security.md ("Gateway") lists them.
    public struct Limits: Sendable, Hashable {
        /// The largest request body accepted (413 beyond it). Default 1 MiB.
        public var maxBodyBytes: Int
        /// The most violations one answer lists; the rest are counted in the answer's `omittedErrors`. Default 100.
        public var maxErrorsPerAnswer: Int
        /// How old an envelope may be (by its sealed `createdAt`) and still be processed; older ones are refused,
        /// and accepted ones are remembered at least this long, so that no envelope is processed twice. Default
        /// 5 minutes.
        public var replayWindow: Duration
        /// How far in the future an envelope's `createdAt` may lie (the sender's clock may run ahead). Default 1
        /// minute.
        public var clockSkew: Duration
        /// The most accepted requests remembered at once for idempotency and replay; when that many are younger
        /// than the replay window, new requests get 503 until the oldest expire. Default 100,000.
        public var rememberedRequests: Int
        /// The most bytes of remembered answers (with their ids); beyond it, as for ``rememberedRequests``.
        /// Default 64 MiB.
        public var rememberedBytes: Int
        /// Threads that validate requests, off the server's network threads. Default: twice the cores, at least 4.
        public var validationThreads: Int
        /// Of those, how many may work on large bodies at once, so that a flood of large requests leaves threads
        /// for the rest. Default: half the cores, at least 1.
        public var largeBodyThreads: Int
        /// The body size from which a request counts as large. Default 64 KiB.
        public var largeBodyBytes: Int
        /// How many requests may wait for a validation thread; beyond it the gateway answers 503 with
        /// `Retry-After`. Default 256.
        public var queuedRequests: Int
        /// How long a new connection may take to deliver a complete request head. Default 10 s.
        public var headerTimeout: Duration
        /// How long a request body may take to arrive once its head has. Default 30 s.
        public var bodyTimeout: Duration
        /// How long a kept-alive connection may wait for its next request. Default 30 s.
        public var idleTimeout: Duration
        /// The most connections open at once; further ones wait in the listen backlog. Default 1,024.
        public var maxConnections: Int
        /// How often a gateway on a shared store (``PostgresStore``) looks for a catalogue published through another
        /// instance; it also looks whenever a client asks for the catalogue. Default 5 s.
        public var catalogueRefresh: Duration
        /// The card-testing limits: different cards per caller per minute (20) and callers per card per hour (5);
        /// 429 with `Retry-After` beyond either.
        public var cardVelocity = CardVelocity()

        /// Creates limits; every argument has the documented default.
        ///
        /// - Parameters:
        ///   - maxBodyBytes: The body limit.
        ///   - maxErrorsPerAnswer: Violations listed per answer.
        ///   - replayWindow: The replay window.
        ///   - clockSkew: How far ahead a sender's clock may be.
        ///   - rememberedRequests: Remembered requests, by count.
        ///   - rememberedBytes: Remembered requests, by bytes.
        ///   - validationThreads: Validation threads.
        ///   - largeBodyThreads: Threads for large bodies.
        ///   - largeBodyBytes: When a body is large.
        ///   - queuedRequests: Requests that may wait.
        ///   - headerTimeout: The header read timeout.
        ///   - bodyTimeout: The body read timeout.
        ///   - idleTimeout: The keep-alive idle timeout.
        ///   - maxConnections: Open connections.
        ///   - catalogueRefresh: How often a shared store is asked for a newer catalogue.
        public init(
            maxBodyBytes: Int = 1 << 20, maxErrorsPerAnswer: Int = 100, replayWindow: Duration = .seconds(300),
            clockSkew: Duration = .seconds(60), rememberedRequests: Int = 100_000, rememberedBytes: Int = 64 << 20,
            validationThreads: Int = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount),
            largeBodyThreads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2),
            largeBodyBytes: Int = 64 << 10,
            queuedRequests: Int = 256, headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30),
            idleTimeout: Duration = .seconds(30), maxConnections: Int = 1_024, catalogueRefresh: Duration = .seconds(5)
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxErrorsPerAnswer = maxErrorsPerAnswer
            self.replayWindow = replayWindow
            self.clockSkew = clockSkew
            self.rememberedRequests = rememberedRequests
            self.rememberedBytes = rememberedBytes
            self.validationThreads = validationThreads
            self.largeBodyThreads = largeBodyThreads
            self.largeBodyBytes = largeBodyBytes
            self.queuedRequests = queuedRequests
            self.headerTimeout = headerTimeout
            self.bodyTimeout = bodyTimeout
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.catalogueRefresh = catalogueRefresh
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
