import DCECrypto
import DCEEngine
import DCEEnvelope
import DCETestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import DCEGateway

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Several `dce-gateway` processes on one real PostgreSQL server (started by `scripts/test` through
/// `scripts/postgres`, which names it in `DCE_TEST_DATABASE_URL` and its data folder in `DCE_TEST_POSTGRES_DIR`):
/// retries that land on another instance, an instance killed while answering, catalogues published through one
/// instance, and the database stopped and started again. Each test has a database of its own.
@Suite(
    .serialized, .enabled(if: PostgresServer.url != nil, "needs DCE_TEST_DATABASE_URL: scripts/test starts a server"))
struct PostgresStoreTests {
    let keys = Gateway.Keys.generate()
    let validator: Validator

    init() throws {
        validator = try Validator(source: .bundled)
    }

    @Test func aRequestAcceptedByOneInstanceIsAnsweredByAnotherByteForByteAndARestartForgetsNothing() async throws {
        try await withGateways(2) { url, keyFolder, gateways in
            let (a, b) = (gateways[0], gateways[1])
            let envelope = try card(requestID: "retry-1")
            let first = try await post(envelope, to: a)
            #expect(first.status == 200)
            let retried = try await post(envelope, to: b)
            #expect(retried.status == 200)
            #expect(retried.body == first.body)
            // The same id with another body is refused at either instance.
            let other = try card(requestID: "retry-1", program: "SKRILL-VIRTUAL-MC-EEA", currency: "GBP")
            #expect(try await post(other, to: b).status == 409)
            a.stop()
            b.stop()
            let c = try GatewayProcess(database: url, keys: keyFolder)
            let afterRestart = try await post(envelope, to: c)
            #expect(afterRestart.status == 200)
            #expect(afterRestart.body == first.body)
            #expect(try await PostgresServer.acceptances(of: "retry-1", in: url) == 1)
            c.stop()
        }
    }

    @Test func anInstanceKilledWhileAnsweringLeavesExactlyOneAcceptanceAfterTheRetry() async throws {
        try await withGateways(2) { url, _, gateways in
            let (a, b) = (gateways[0], gateways[1])
            let envelope = try card(requestID: "killed-1")
            // Hold A inside its transaction: it has claimed the id and waits to record the acceptance.
            let holder = try await PostgresServer.connect(url)
            try await holder.query("BEGIN", logger: PostgresServer.logger)
            try await holder.query("LOCK TABLE dce_acceptances IN EXCLUSIVE MODE", logger: PostgresServer.logger)
            let toA = Task { try? await post(envelope, to: a) }
            try await PostgresServer.waitForALockWait(on: holder)
            a.kill()
            #expect(await toA.value == nil)  // the client saw its connection drop: it retries, at B
            try await holder.query("COMMIT", logger: PostgresServer.logger)
            try await holder.close()
            let retried = try await post(envelope, to: b)
            #expect(retried.status == 200)
            let response = try PDResponse(json: Array(retried.body))
            #expect(response.status == .accepted)
            #expect(try await PostgresServer.acceptances(of: "killed-1", in: url) == 1)
            // And the retry's answer is the one kept.
            #expect(try await post(envelope, to: b).body == retried.body)
            b.stop()
        }
    }

    @Test func aCataloguePublishedThroughOneInstanceIsServedByAnotherWithTheSameETag() async throws {
        try await withGateways(2) { url, keyFolder, gateways in
            let (a, b) = (gateways[0], gateways[1])
            let (firstA, firstB) = (try await catalogue(of: a), try await catalogue(of: b))
            #expect(firstA.etag == firstB.etag)
            #expect(firstA.version == "1")
            // A graceful shutdown on a shared store ends with 0 (its catalogue watcher's sleep is cancelled).
            #expect(a.stop(), "a graceful shutdown did not end within 60 s: \(a.output)")
            #expect(a.process.terminationStatus == 0)
            // A restarts with a stricter set under version 2: it breaks requests version 1 accepts, so it does not
            // start, and says what breaks, until the publisher allows it.
            let stricter = try writeSchemas(stricterDocuments())
            let refused = try GatewayProcess(
                database: url, keys: keyFolder, arguments: ["--catalogue-version", "2", "--schemas", stricter.path],
                waitUntilListening: false)
            try #require(refused.process.waitForExit(within: 60), "a refused catalogue did not end the gateway")
            #expect(refused.process.terminationStatus == 2)
            #expect(refused.output.contains("catalogue 2 refuses requests catalogue 1 accepts"))
            #expect(refused.output.contains("card-create /programName: max-length-added (request, breaking)"))
            #expect(try await catalogue(of: b).version == "1")
            let a2 = try GatewayProcess(
                database: url, keys: keyFolder,
                arguments: ["--catalogue-version", "2", "--schemas", stricter.path, "--allow-breaking"])
            let (servedA, servedB) = (try await catalogue(of: a2), try await catalogue(of: b))
            #expect(servedA.version == "2")
            #expect(servedB.version == "2")
            #expect(servedB.etag == servedA.etag)
            #expect(servedB.signature == servedA.signature)
            #expect(servedB.body == servedA.body)
            // B validates with what it serves: a request built against card-create 1.0.0 meets 2.0.0 there.
            let answer = try await post(try card(requestID: "strict-1"), to: b)
            #expect(answer.status == 422)
            let refusal = try #require(try PDResponse(json: Array(answer.body)).errors.first)
            #expect(refusal.rule.rawValue == "versionMismatch")
            #expect(refusal.message.contains("this gateway has 2.0.0"))
            // An instance started later with an older version serves the newest from the database.
            let c = try GatewayProcess(database: url, keys: keyFolder, arguments: ["--catalogue-version", "1"])
            #expect(try await catalogue(of: c).etag == servedA.etag)
            a2.stop()
            b.stop()
            c.stop()
        }
    }

    @Test func whileTheDatabaseIsDownRequestsGetAClear503AndNothingIsRecordedTwice() async throws {
        try await withGateways(1) { url, _, gateways in
            let a = gateways[0]
            let before = try card(requestID: "down-1")
            let during = try card(requestID: "down-2")
            let first = try await post(before, to: a)
            #expect(first.status == 200)
            try PostgresServer.control("stop")
            for envelope in [during, before] {
                let refused = try await post(envelope, to: a)
                #expect(refused.status == 503)
                #expect(refused.retryAfter != nil)
                #expect(try PDResponse(json: Array(refused.body)).errors.map(\.rule) == [.storeUnavailable])
            }
            try PostgresServer.control("start")
            var answer = try await post(during, to: a)
            let deadline = Date().addingTimeInterval(30)
            while answer.status == 503, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                answer = try await post(during, to: a)
            }
            #expect(answer.status == 200)
            let replayed = try await post(before, to: a)
            #expect(replayed.status == 200)
            #expect(replayed.body == first.body)
            #expect(try await PostgresServer.acceptances(of: "down-1", in: url) == 1)
            #expect(try await PostgresServer.acceptances(of: "down-2", in: url) == 1)
            a.stop()
        }
    }

    /// Readiness follows the database: ready with it, 503 naming it while it is stopped (liveness still 200, so that
    /// an orchestrator takes the instance out of service rather than restarting it), ready again once it is back.
    @Test func readinessFailsWhileTheDatabaseIsStoppedAndComesBackWithIt() async throws {
        try await withGateways(1) { _, _, gateways in
            let a = gateways[0]
            func get(_ path: String) async throws -> (status: Int, body: String) {
                let (body, response) = try await URLSession.shared.data(from: a.url.appendingPathComponent(path))
                return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: body, as: UTF8.self))
            }
            let ready = try await get("readyz")
            #expect(ready.status == 200)
            #expect(ready.body.contains(#""status":"ready""#) && ready.body.contains(#""database":"ok""#))
            try PostgresServer.control("stop")
            let down = try await get("readyz")
            #expect(down.status == 503)
            #expect(down.body.contains(#""status":"notReady""#) && down.body.contains(#""database":"unreachable""#))
            #expect(try await get("healthz").status == 200)
            try PostgresServer.control("start")
            var back = try await get("readyz")
            let deadline = Date().addingTimeInterval(30)
            while back.status != 200, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                back = try await get("readyz")
            }
            #expect(back.status == 200)
            #expect(a.output.contains("database unreachable"))
            a.stop()
        }
    }

    /// The card-testing limits hold across instances: cards presented at A count at B, and eight requests at once
    /// over both never take more slots than the limit.
    @Test func theCardTestingLimitsAreSharedByEveryInstance() async throws {
        try await PostgresServer.withDatabase { url in
            let keyFolder = try writeKeys()
            defer { try? FileManager.default.removeItem(at: keyFolder) }
            let secrets = try (0..<4).map { index in
                try keysCommand(
                    ["create", "--name", "caller-\(index)", "--scopes", "requests:*"], database: url, keys: keyFolder
                ).out.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let arguments = [
                "--api-keys", "--max-cards-per-caller-per-minute", "4", "--max-callers-per-card-per-hour", "2",
            ]
            let (a, b) = (
                try GatewayProcess(database: url, keys: keyFolder, arguments: arguments),
                try GatewayProcess(database: url, keys: keyFolder, arguments: arguments)
            )
            defer {
                a.stop()
                b.stop()
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    let envelope = try CardRequests.sealed(
                        card: CardRequests.number(index), id: "many-\(index)", at: Date(), validator: validator,
                        keys: keys)
                    group.addTask { try await self.post(envelope, to: index % 2 == 0 ? a : b, key: secrets[0]).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 200, 200, 200, 429, 429, 429, 429])
            let card = CardRequests.number(100)
            var shared: [Answer] = []
            for (caller, gateway) in [(1, a), (2, b), (3, a)] {
                let envelope = try CardRequests.sealed(
                    card: card, id: "shared-\(caller)", at: Date(), validator: validator, keys: keys)
                shared.append(try await post(envelope, to: gateway, key: secrets[caller]))
            }
            #expect(shared.map(\.status) == [200, 200, 429])
            #expect(shared.last?.retryAfter.flatMap { Int($0) }.map { (3_590...3_600).contains($0) } == true)
            for gateway in [a, b] {
                #expect(!gateway.output.contains(card) && !gateway.output.contains(CardRequests.number(0)))
                for secret in secrets { #expect(!gateway.output.contains(secret)) }
            }
        }
    }

    /// With `--database-url`, API keys live in the database: `dce-gateway keys` creates one there, every instance
    /// takes it, and a revocation reaches every instance within a second or two.
    @Test func apiKeysInTheDatabaseAreTakenAndRevokedOnEveryInstance() async throws {
        try await PostgresServer.withDatabase { url in
            let keyFolder = try writeKeys()
            defer { try? FileManager.default.removeItem(at: keyFolder) }
            func keys(_ arguments: [String]) throws -> (status: Int32, out: String) {
                try keysCommand(arguments, database: url, keys: keyFolder)
            }
            let created = try keys(["create", "--name", "shared", "--scopes", "requests:card-create"])
            #expect(created.status == 0)
            let secret = created.out.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(secret.hasPrefix("dce_"))
            #expect(!FileManager.default.fileExists(atPath: keyFolder.appendingPathComponent("api-keys.json").path))
            let listed = try keys(["list"])
            #expect(listed.out.hasPrefix("shared\trequests:card-create\t") && !listed.out.contains(secret))
            #expect(try keys(["create", "--name", "shared", "--scopes", "requests:*"]).status == 2)
            let (a, b) = (
                try GatewayProcess(database: url, keys: keyFolder, arguments: ["--api-keys"]),
                try GatewayProcess(database: url, keys: keyFolder, arguments: ["--api-keys"])
            )
            defer {
                a.stop()
                b.stop()
            }
            #expect(try await post(try card(requestID: "key-a"), to: a, key: secret).status == 200)
            #expect(try await post(try card(requestID: "key-b"), to: b, key: secret).status == 200)
            #expect(try await post(try card(requestID: "no-key"), to: b).status == 401)
            #expect(try keys(["revoke", "--name", "shared"]).status == 0)
            // Each instance looks again at most once a second, beside a request; the next one is refused.
            try await Task.sleep(for: .milliseconds(1_100))
            for gateway in [a, b] { _ = try await post(try card(requestID: "nudge"), to: gateway, key: secret) }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await post(try card(requestID: "revoked-a"), to: a, key: secret).status == 401)
            #expect(try await post(try card(requestID: "revoked-b"), to: b, key: secret).status == 401)
            #expect(try keys(["list"]).out.contains("\trevoked "))
            #expect(!a.output.contains(secret) && !b.output.contains(secret))
        }
    }

    @Test func aGatewayThatCannotReachItsDatabaseExitsWithAClearMessage() throws {
        let keyFolder = try writeKeys()
        defer { try? FileManager.default.removeItem(at: keyFolder) }
        let process = try GatewayProcess(
            database: "postgres://dce@127.0.0.1:1/dce?sslmode=disable", keys: keyFolder,
            arguments: ["--database-timeout", "1"], waitUntilListening: false)
        try #require(process.process.waitForExit(within: 60), "an unreachable database did not end the gateway")
        #expect(process.process.terminationStatus == 3)
        let message = process.output
        #expect(
            message.contains(
                "dce-gateway: error: cannot migrate the gateway's tables in the database at 127.0.0.1:1/dce"))
        #expect(message.contains("refused"))
    }

    // MARK: - Helpers

    /// A card-create envelope: valid with the bundled schemas, too long a program name for the stricter set.
    private func card(requestID: String, program: String = "SKRILL-VIRTUAL-MC-EEA", currency: String = "EUR") throws
        -> [UInt8]
    {
        let sealer = try HPKEFieldSealer(gatewayPublicKey: try keys.encryptionPublicKey, keyID: keys.encryptionKeyID)
        let json = #"{"programName": "\#(program)", "currency": "\#(currency)", "cardPin": "8264"}"#
        let built = try validator.prepare("card-create", context: ["region": "EU"]).makeRequest(
            json: Array(json.utf8), requestID: requestID, sealer: sealer)
        guard case .valid(let request) = built else { throw GatewayProcess.Failure("refused locally: \(built)") }
        return request.json
    }

    /// A database of its own, the keys every instance shares (removed after), and `count` instances on them,
    /// listening.
    private func withGateways(
        _ count: Int, _ body: (_ url: String, _ keys: URL, _ gateways: [GatewayProcess]) async throws -> Void
    ) async throws {
        try await PostgresServer.withDatabase { url in
            let keys = try writeKeys()
            defer { try? FileManager.default.removeItem(at: keys) }
            try await body(url, keys, try (0..<count).map { _ in try GatewayProcess(database: url, keys: keys) })
        }
    }

    /// The keys every instance shares, in the files `dce-gateway --keys` reads.
    private func writeKeys() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dce-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try keys.encryption.write(to: folder.appendingPathComponent("encryption.key"))
        try keys.signing.write(to: folder.appendingPathComponent("signing.key"))
        return folder
    }

    /// `dce-gateway keys ARGUMENTS` on the database and key folder: its exit status and standard output.
    private func keysCommand(_ arguments: [String], database url: String, keys keyFolder: URL) throws -> (
        status: Int32, out: String
    ) {
        let process = Process()
        process.executableURL = GatewayProcess.executable("dce-gateway")
        process.arguments = ["keys"] + arguments + ["--database-url", url, "--keys", keyFolder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // What it prints is a line or a few, well within the pipe's buffer: read once it has ended.
        guard process.waitForExit(within: 60) else {
            throw GatewayProcess.Failure("dce-gateway keys \(arguments) did not end within 60 s")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func writeSchemas(_ documents: [String: [UInt8]]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dce-schemas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (id, bytes) in documents {
            // Reference data has ids such as `reference/iso4217`: a file in a subfolder, as in Schemas/.
            let file = folder.appendingPathComponent("\(id).json")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        return folder
    }

    private struct Answer {
        var status: Int
        var body: Data
        var retryAfter: String?
    }

    private func post(_ envelope: [UInt8], to gateway: GatewayProcess, key: String? = nil) async throws -> Answer {
        var request = URLRequest(url: gateway.url.appendingPathComponent("v1/requests"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(key.map { "Bearer \($0)" }, forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 30
        let (body, response) = try await URLSession.shared.upload(for: request, from: Data(envelope))
        let http = try #require(response as? HTTPURLResponse)
        return Answer(status: http.statusCode, body: body, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
    }

    private struct Served {
        var version: String
        var etag: String
        var signature: String
        var body: Data
    }

    private func catalogue(of gateway: GatewayProcess) async throws -> Served {
        let (body, response) = try await URLSession.shared.data(from: gateway.url.appendingPathComponent("v1/schemas"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        let parsed = try CatalogueBody(json: Array(body))
        return Served(
            version: parsed.version.description, etag: http.value(forHTTPHeaderField: "ETag") ?? "",
            signature: http.value(forHTTPHeaderField: "X-DCE-Signature") ?? "", body: body)
    }
}

/// The test server `scripts/test` started, and a database of each test's own on it.
enum PostgresServer {
    static let url = ProcessInfo.processInfo.environment["DCE_TEST_DATABASE_URL"]
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with the URL of a new, empty database, dropped afterwards.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let server = try #require(url)
        let name = "t_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        let admin = try await connect(server)
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: PostgresServer.logger)
        try await admin.close()
        let database = server.replacingOccurrences(of: "/dce?", with: "/\(name)?")
        do {
            try await body(database)
        } catch {
            try? await drop(name, on: server)
            throw error
        }
        try await drop(name, on: server)
    }

    private static func drop(_ name: String, on server: String) async throws {
        let admin = try await connect(server)
        try await admin.query(
            PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: PostgresServer.logger)
        try await admin.close()
    }

    static func connect(_ url: String) async throws -> PostgresConnection {
        try await PostgresConnection.connect(
            configuration: try DatabaseAddress(url).connection(), id: 1, logger: logger)
    }

    /// How many acceptances the database records for a request id.
    static func acceptances(of requestID: String, in url: String) async throws -> Int {
        let connection = try await connect(url)
        var count = -1
        for try await (value) in try await connection.query(
            "SELECT count(*) FROM dce_acceptances WHERE request_id = \(requestID)", logger: PostgresServer.logger
        ).decode(Int.self) {
            count = value
        }
        try await connection.close()
        return count
    }

    /// Waits until a gateway's connection waits for a lock (the one `holder` holds).
    static func waitForALockWait(on holder: PostgresConnection) async throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let query: PostgresQuery =
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dce-gateway' AND wait_event_type = 'Lock'"
            for try await (waiting) in try await holder.query(query, logger: PostgresServer.logger).decode(Int.self)
            where waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw GatewayProcess.Failure("no gateway waited for the lock within 30 s")
    }

    /// `scripts/postgres stop|start` on the test server.
    static func control(_ command: String) throws {
        let directory = try #require(ProcessInfo.processInfo.environment["DCE_TEST_POSTGRES_DIR"])
        let process = Process()
        process.executableURL = GatewayProcess.repository.appendingPathComponent("scripts/postgres")
        process.arguments = [command, directory]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard process.waitForExit(within: 60), process.terminationStatus == 0 else {
            throw GatewayProcess.Failure("scripts/postgres \(command) failed or did not end within 60 s")
        }
    }
}

extension GatewayProcess {
    /// An instance on `database` with the keys in `keys`, listening unless told not to wait.
    convenience init(database: String, keys: URL, arguments: [String] = [], waitUntilListening: Bool = true) throws {
        try self.init(
            keys: keys, in: keys, arguments: Self.storeArguments(database) + arguments,
            waitUntilListening: waitUntilListening)
    }

    private static func storeArguments(_ database: String) -> [String] {
        ["--database-url", database, "--database-timeout", "3", "--catalogue-refresh", "1"]
    }
}
