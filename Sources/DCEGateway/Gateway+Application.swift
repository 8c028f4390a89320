import HTTPTypes
public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
public import NIOCore
import ServiceLifecycle

extension Gateway {
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
                        await gateway.publisher.refresh()
                    }
                }
            } catch is CancellationError {
                return
            }
        }
    }
}
