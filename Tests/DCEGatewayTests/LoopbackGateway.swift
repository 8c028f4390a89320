import DCEEngine
import DCEGateway
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Testing

/// Starts `gateway` (with a fault switch in front of it) on a free loopback port, runs `body`, stops it.
func withLoopbackGateway(_ gateway: Gateway, _ body: (URL, Gateway, Faults) async throws -> Void) async throws {
    let faults = Faults()
    let router = Router()
    router.add(middleware: FaultMiddleware(faults: faults))
    gateway.addRoutes(to: router)
    try await withRunningServer({ onServerRunning in
        Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: onServerRunning)
    }) { port in
        try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), gateway, faults)
    }
}

/// Runs the application `makeApplication` builds (listening on a free loopback port, and calling the callback it
/// is handed once it does) until `body`, given the port, returns; then shuts it down gracefully, as SIGTERM does.
///
/// Not by cancelling it: a connection accepted but not yet handed to a handler when the server is cancelled traps
/// in NIO ("Deinited NIOAsyncWriter without calling finish()", swift-server/swift-http-server#137), which crashed
/// the whole test process now and then when a test ended while a client was still connecting.
func withRunningServer<App: ApplicationProtocol>(
    _ makeApplication: (@escaping @Sendable (any Channel) async -> Void) -> App, _ body: (Int) async throws -> Void
) async throws {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = makeApplication { continuation.yield($0.localAddress?.port ?? 0) }
    let services = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do {
            try await body(port)
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
        await services.triggerGracefulShutdown()
        // Bounded: a shutdown that does not end fails this test instead of holding up the whole run.
        group.addTask {
            try await Task.sleep(for: .seconds(120))
            throw GracefulShutdownTimedOut()
        }
        try await group.next()
        group.cancelAll()
    }
}

/// The server's graceful shutdown did not end within 120 s of being asked for.
struct GracefulShutdownTimedOut: Error, CustomStringConvertible {
    var description: String { "the loopback server's graceful shutdown did not end within 120 s" }
}

/// The bundled schemas, except that card-create allows program names of at most 5 characters: a rule change that
/// shows which set a validator holds (the bundled set accepts `SKRILL-VIRTUAL-MC-EEA`, this one does not).
func stricterDocuments() throws -> [String: [UInt8]] {
    var documents = try SchemaSource.bundled.documents()
    let stricter = String(decoding: documents["card-create"]!, as: UTF8.self)
        .replacingOccurrences(of: #""version": "1.0.0""#, with: #""version": "2.0.0""#)
        .replacingOccurrences(of: #""key": "programName","#, with: #""key": "programName", "maxLength": 5,"#)
    documents["card-create"] = Array(stricter.utf8)
    return documents
}

/// A clock the test moves by hand.
///
/// `@unchecked Sendable`: its one value is read and written only under the lock.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date()) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
