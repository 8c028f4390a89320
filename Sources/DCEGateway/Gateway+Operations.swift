import DCEEngine
import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
public import UnixSignals

/// What an operator and an integrator ask of a gateway besides its requests: its OpenAPI document, whether it lives,
/// whether to send it requests, and a shutdown that lets a load balancer stop sending first.
extension Gateway {
    /// Whether to send this gateway requests, and why not.
    public struct Readiness: Sendable, Hashable {
        /// Ready: every check passes and the gateway is not draining.
        public var isReady: Bool { !isDraining && checks.values.allSatisfy { $0 == "ok" } }
        /// Whether a SIGTERM (or SIGINT) was received: the gateway is finishing its requests before it stops.
        public var isDraining: Bool
        /// The catalogue version served.
        public var catalogue: String
        /// Each check and its outcome: `catalogue` (`ok`, or `expired` once clients stop using it) and, with a
        /// database, `database` (`ok` or `unreachable`).
        public var checks: [String: String]

        /// `ready`, `draining` or `notReady`.
        public var status: String { isDraining ? "draining" : isReady ? "ready" : "notReady" }

        /// The body of `GET /readyz`.
        var json: [UInt8] {
            let checks = self.checks.sorted { $0.key < $1.key }.map {
                SchemaValue.Member(key: $0.key, value: .string($0.value))
            }
            return Array(
                SchemaValue.object([
                    .init(key: "status", value: .string(status)), .init(key: "catalogue", value: .string(catalogue)),
                    .init(key: "checks", value: .object(checks)),
                ]).json.utf8)
        }
    }

    /// Whether to send this gateway requests now: the catalogue served has not expired, the database (with one)
    /// answers within two seconds, and no shutdown has begun.
    ///
    /// - Returns: The readiness, each check named.
    public func readiness() async -> Readiness {
        let (catalogue, isDraining) = (publisher.catalogue, lock.withLock { draining })
        var checks = ["catalogue": catalogue.expires > now() ? "ok" : "expired"]
        if store.isShared {
            do {
                try await store.checkReachable(within: .seconds(2))
                checks["database"] = "ok"
            } catch {
                logger.warning("database unreachable", metadata: ["reason": .string(error.message)])
                checks["database"] = "unreachable"
            }
        }
        let readiness = Readiness(isDraining: isDraining, catalogue: catalogue.version, checks: checks)
        metrics.ready(readiness.isReady)
        return readiness
    }

    /// The gateway's OpenAPI 3.1 document (`GET /openapi.json`): every route and answer, each request schema's
    /// envelope made from the catalogue served, and the credentials it takes. Made once per catalogue.
    ///
    /// - Returns: The document as JSON.
    public func openAPIDocument() -> [UInt8] {
        let (catalogue, validator) = publisher.current
        let kept = lock.withLock { apiDocument }
        if let kept, kept.etag == catalogue.etag { return kept.body }
        let document = APIDocument(
            acceptsAPIKeys: authentication.acceptsAPIKeys, acceptsTokens: authentication.acceptsTokens, limits: limits)
        let body = document.json(for: validator, version: catalogue.version)
        // Kept unless a newer catalogue came meanwhile, whose document the next request makes.
        if publisher.catalogue.etag == catalogue.etag { lock.withLock { apiDocument = (catalogue.etag, body) } }
        return body
    }

    /// Runs an application of this gateway until SIGTERM or SIGINT, then drains before it stops: `GET /readyz`
    /// answers 503 (`draining`) for `drain`, long enough for a load balancer's checks to stop sending requests here,
    /// while requests are still served; then the server stops taking connections and finishes the requests it has.
    ///
    /// ```swift
    /// let application = gateway.application(router: Router(), address: .hostname("0.0.0.0", port: 8080))
    /// try await gateway.runService(application, drainingFor: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - application: The application (``application(router:address:serverName:logger:onServerRunning:)``).
    ///   - drain: How long readiness fails before the server stops.
    ///   - signals: The signals that begin the shutdown.
    /// - Throws: What the application throws.
    public func runService(
        _ application: some ApplicationProtocol, drainingFor drain: Duration,
        signals: [UnixSignal] = [.sigterm, .sigint]
    ) async throws {
        // A group shuts its services down last first, each after the one before has returned: the drain, then the
        // application.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: application), .init(service: Drain(gateway: self, period: drain))],
                gracefulShutdownSignals: signals, logger: logger))
        try await group.run()
    }

    /// Marks the gateway as draining: `GET /readyz` answers 503 from now on.
    func beginDraining() {
        lock.withLock { draining = true }
        metrics.ready(false)
        logger.notice("draining: readiness fails until the server stops")
    }

    /// Waits for the shutdown, then holds it back for the drain period with readiness failing.
    private struct Drain: Service {
        let gateway: Gateway
        let period: Duration

        func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                return  // cancelled: the group stops without a drain
            }
            gateway.beginDraining()
            try? await Task.sleep(for: period)
        }
    }
}
