import ArgumentParser
import DCECommandLine
import DCEEngine
import DCEEnvelope
import DCEGateway
import DCELogging
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The reference gateway: serves the schema catalogue and validates envelopes on loopback.
@main
struct GatewayCommand: AsyncParsableCommand {
    /// Runs the command with the exit statuses the other two tools document (2 for a usage error, not
    /// ArgumentParser's 64).
    static func main() async {
        await runMappingExitStatuses()
    }

    static let configuration = CommandConfiguration(
        commandName: "dce-gateway",
        abstract: "A reference gateway: serves the signed schema catalogue and validates incoming envelopes.",
        discussion: """
            Keys are read from --keys (created there on first start): encryption.key and signing.key are private \
            (0600); encryption.pub is the X25519 key clients seal PCI fields to, signing.pub the Ed25519 key they \
            pin to check the catalogue. Routes: POST /v1/requests, GET /v1/schemas, GET /metrics (Prometheus), GET \
            /openapi.json (the OpenAPI 3.1 document of the catalogue served), GET /healthz (liveness) and GET /readyz \
            (readiness: the catalogue not expired, the database answering; 503 from a SIGTERM on, for --drain-seconds, \
            before the server stops taking connections and finishes its requests). One access log line per request \
            on standard output (method, path, status, duration, request id, schema, rule codes; never a value).

            Callers: with --api-keys, POST /v1/requests takes Authorization: Bearer KEY, a key made by 'dce-gateway \
            keys create' (kept as a hash in --keys/api-keys.json); with --jwks, --issuer and --audience, a JWT \
            (RS256, ES256 or EdDSA, its kid a key of the JWKS, iss and aud as given, exp not past, scopes in its \
            scope claim; the caller is sub:SUBJECT). Its scopes must name the schema posted (requests:SCHEMA or \
            requests:*): 401 without a valid credential, 403 without the scope. --no-auth serves every caller as \
            'anonymous' with every scope, for a gateway behind a proxy that authenticates; one of these is needed.

            Without a database, answers and the catalogue are kept in the process (one instance). With \
            --database-url (or DCE_DATABASE_URL), they are kept in PostgreSQL and shared by every instance on it: the \
            tables are created or migrated at start, the catalogue is published there (or a newer one taken from \
            there). A catalogue whose request schemas refuse requests the stored one accepts (what 'dce-validate \
            compat' calls breaking at error severity, after --schemas' compat-severity.txt) is not published: the \
            gateway lists the breaks and exits 2, unless --allow-breaking. Exit status: 0 after a graceful shutdown \
            (SIGTERM, SIGINT); 2 a usage error or a failure to start (unreadable keys or schemas, the port taken, a \
            catalogue that breaks requests); 3 the database cannot be reached or migrated at start.
            """,
        version: DCEVersion.current, subcommands: [KeysCommand.self])

    @Flag(help: "Callers present an API key (Authorization: Bearer KEY) made by 'dce-gateway keys create'.")
    var apiKeys = false

    @Option(
        help: ArgumentHelp(
            "Callers may present a JWT (Authorization: Bearer TOKEN) signed by a key of this JWKS: a file, or an https URL.",
            valueName: "file-or-url"))
    var jwks: String?

    @Option(help: ArgumentHelp("The iss a JWT must carry (with --jwks).", valueName: "issuer"))
    var issuer: String?

    @Option(help: ArgumentHelp("A value a JWT's aud must hold (with --jwks).", valueName: "audience"))
    var audience: String?

    @Option(
        help: ArgumentHelp(
            "How far a JWT's exp and nbf may be off this clock, in seconds (at most 300).", valueName: "seconds"))
    var clockSkew = 60

    @Option(help: ArgumentHelp("Seconds between fetches of a --jwks URL.", valueName: "seconds"))
    var jwksRefresh = 300

    @Flag(help: "No authentication: every caller is 'anonymous' with every scope (behind a proxy that authenticates).")
    var noAuth = false

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS (TLS 1.2 or 1.3) with this PEM certificate chain, the server's certificate first (with --tls-key).",
            valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert's certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("The directory of the gateway's keys (created if missing).", valueName: "dir"))
    var keys = ".gateway-keys"

    @Option(
        help: ArgumentHelp("A directory of schema files to serve (default: the bundled schemas).", valueName: "dir"))
    var schemas: String?

    @Option(help: "The catalogue version served: decimal numbers separated by dots (clients take only newer versions).")
    var catalogueVersion = "1"

    @Flag(
        help: """
            Publish the catalogue even when its request schemas refuse requests the one in --database-url's store \
            accepts (without it, the gateway lists the breaks and does not start).
            """)
    var allowBreaking = false

    @Option(
        help: ArgumentHelp(
            "How long clients may use the catalogue, in days; restart with a newer --catalogue-version before it runs out.",
            valueName: "days"))
    var catalogueLifetime = Gateway.Catalogue.defaultLifetime / 86_400

    @Option(help: ArgumentHelp("The largest request body accepted, in bytes (413 beyond it).", valueName: "bytes"))
    var maxBodyBytes = Gateway.Limits().maxBodyBytes

    @Option(help: ArgumentHelp("The most violations one answer lists; the rest are counted.", valueName: "n"))
    var maxErrors = Gateway.Limits().maxErrorsPerAnswer

    @Option(
        help: ArgumentHelp(
            "How old an envelope may be and still be processed, in seconds; accepted requests are remembered as long.",
            valueName: "seconds"))
    var replayWindow = Int(Gateway.Limits().replayWindow.components.seconds)

    @Option(help: ArgumentHelp("The most accepted requests remembered at once (503 when full).", valueName: "n"))
    var rememberedRequests = Gateway.Limits().rememberedRequests

    @Option(help: ArgumentHelp("The most bytes of remembered answers (503 when full).", valueName: "bytes"))
    var rememberedBytes = Gateway.Limits().rememberedBytes

    /// Optional so that the help shows the rule rather than this machine's figure as the default.
    @Option(
        help: ArgumentHelp("Threads that validate requests (default: twice the cores, at least 4).", valueName: "n"))
    var validationThreads: Int?

    @Option(
        help: ArgumentHelp(
            "Requests that may wait for a validation thread (503 with Retry-After beyond).", valueName: "n"))
    var queuedRequests = Gateway.Limits().queuedRequests

    @Option(
        help: ArgumentHelp("Seconds a new connection may take to send a complete request head.", valueName: "seconds"))
    var headerTimeout = Int(Gateway.Limits().headerTimeout.components.seconds)

    @Option(help: ArgumentHelp("Seconds a request body may take to arrive after its head.", valueName: "seconds"))
    var bodyTimeout = Int(Gateway.Limits().bodyTimeout.components.seconds)

    @Option(help: ArgumentHelp("Seconds a kept-alive connection may wait for its next request.", valueName: "seconds"))
    var idleTimeout = Int(Gateway.Limits().idleTimeout.components.seconds)

    @Option(help: ArgumentHelp("The most connections open at once; more wait in the listen backlog.", valueName: "n"))
    var maxConnections = Gateway.Limits().maxConnections

    @Option(
        help: ArgumentHelp(
            "The most different card numbers one caller may present in a minute (429 with Retry-After beyond; 0: no limit).",
            valueName: "n"))
    var maxCardsPerCallerPerMinute = CardVelocity().maxCardsPerCallerPerMinute

    @Option(
        help: ArgumentHelp(
            "The most different callers that may present one card number in an hour (429 with Retry-After beyond; 0: no limit).",
            valueName: "n"))
    var maxCallersPerCardPerHour = CardVelocity().maxCallersPerCardPerHour

    @Option(
        help: ArgumentHelp(
            "Keep answers and catalogues in PostgreSQL, shared by every instance: postgres://user:password@host:port/database[?sslmode=disable] (default: $DCE_DATABASE_URL; without either, in the process).",
            valueName: "url"))
    var databaseURL: String?

    /// `--database-url`, or else `DCE_DATABASE_URL`.
    var databaseURLInEffect: String? { databaseURL ?? ProcessInfo.processInfo.environment["DCE_DATABASE_URL"] }

    @Option(
        help: ArgumentHelp(
            "Seconds a request may wait for the database before it is answered 503.", valueName: "seconds"))
    var databaseTimeout = 5

    @Option(
        help: ArgumentHelp(
            "Seconds between looks for a catalogue published through another instance.", valueName: "seconds"))
    var catalogueRefresh = Int(Gateway.Limits().catalogueRefresh.components.seconds)

    @Option(
        help: ArgumentHelp(
            "Seconds GET /readyz answers 503 after a SIGTERM or SIGINT, requests still served, before the server stops (0: none).",
            valueName: "seconds"))
    var drainSeconds = 5

    func validate() throws {
        do {
            _ = try CatalogueVersion(catalogueVersion)
        } catch {
            throw ValidationError(error.message)
        }
        guard catalogueLifetime > 0, catalogueLifetime.isFinite else {
            throw ValidationError("--catalogue-lifetime must be a positive number of days")
        }
        let positive: [(String, Int)] = [
            ("--max-body-bytes", maxBodyBytes), ("--max-errors", maxErrors), ("--replay-window", replayWindow),
            ("--remembered-requests", rememberedRequests), ("--remembered-bytes", rememberedBytes),
            ("--validation-threads", validationThreads ?? 1), ("--header-timeout", headerTimeout),
            ("--body-timeout", bodyTimeout),
            ("--idle-timeout", idleTimeout), ("--max-connections", maxConnections),
            ("--database-timeout", databaseTimeout),
            ("--catalogue-refresh", catalogueRefresh),
        ]
        for (name, value) in positive where value < 1 { throw ValidationError("\(name) takes a positive number.") }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: the certificate chain and its private key.")
        }
        if jwks != nil, issuer == nil || audience == nil {
            throw ValidationError("--jwks needs --issuer and --audience: a token is checked for both.")
        }
        if jwks == nil, issuer != nil || audience != nil {
            throw ValidationError("--issuer and --audience are a JWT's: give --jwks too.")
        }
        guard (0...Int(BearerTokens.Policy.maximumClockSkew)).contains(clockSkew) else {
            throw ValidationError("--clock-skew takes 0 to \(Int(BearerTokens.Policy.maximumClockSkew)) seconds.")
        }
        if jwksRefresh < 1 { throw ValidationError("--jwks-refresh takes a positive number.") }
        if drainSeconds < 0 { throw ValidationError("--drain-seconds takes zero or more.") }
        if queuedRequests < 0 { throw ValidationError("--queued-requests takes zero or more.") }
        if maxCardsPerCallerPerMinute < 0 || maxCallersPerCardPerHour < 0 {
            throw ValidationError(
                "--max-cards-per-caller-per-minute and --max-callers-per-card-per-hour take zero (no limit) or more.")
        }
        if let url = databaseURLInEffect {
            do {
                _ = try PostgresStore(url: url)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    func run() async throws {
        // Here, not in validate(), which also runs before `dce-gateway keys`; after the options are checked.
        let authenticates = apiKeys || jwks != nil
        guard authenticates != noAuth else {
            throw ValidationError(
                noAuth
                    ? "--no-auth excludes --api-keys and --jwks."
                    : "say how callers are known: --api-keys (keys from 'dce-gateway keys create'), --jwks with --issuer and --audience (JWTs), both, or --no-auth (every caller anonymous, behind a proxy that authenticates)."
            )
        }
        let keys = try KeyFiles.loadOrCreate(in: URL(fileURLWithPath: self.keys))
        let source: SchemaSource = schemas.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled
        // Every log line — the access log, the store's, Hummingbird's — passes the redactor first: a value under a
        // sensitive field's name, or a card number anywhere, is masked before it is written.
        let redactor = Redactor(validator: try Validator(source: source))
        LoggingSystem.bootstrap { label in
            RedactingLogHandler(wrapping: StreamLogHandler.standardOutput(label: label), redactor: redactor)
        }
        var limits = Gateway.Limits()
        limits.maxBodyBytes = maxBodyBytes
        limits.maxErrorsPerAnswer = maxErrors
        limits.replayWindow = .seconds(replayWindow)
        limits.rememberedRequests = rememberedRequests
        limits.rememberedBytes = rememberedBytes
        if let validationThreads {
            limits.validationThreads = validationThreads
            limits.largeBodyThreads = min(limits.largeBodyThreads, validationThreads)
        }
        limits.queuedRequests = queuedRequests
        limits.headerTimeout = .seconds(headerTimeout)
        limits.bodyTimeout = .seconds(bodyTimeout)
        limits.idleTimeout = .seconds(idleTimeout)
        limits.maxConnections = maxConnections
        limits.catalogueRefresh = .seconds(catalogueRefresh)
        limits.cardVelocity = CardVelocity(
            maxCardsPerCallerPerMinute: maxCardsPerCallerPerMinute, maxCallersPerCardPerHour: maxCallersPerCardPerHour)
        let store = try databaseURLInEffect.map {
            try PostgresStore(url: $0, timeout: .seconds(databaseTimeout))
        }
        let tokens = try await bearerTokens()
        // API keys are where the rest of the gateway's state is: in the database when there is one.
        let apiKeyStore = store.map { APIKeys(database: $0) } ?? APIKeys(directory: URL(fileURLWithPath: self.keys))
        let gateway = try Gateway(
            keys: keys, source: source, version: catalogueVersion, catalogueLifetime: catalogueLifetime * 86_400,
            limits: limits, store: store,
            authentication: Authentication(apiKeys: apiKeys ? apiKeyStore : nil, tokens: tokens),
            allowBreaking: allowBreaking)
        if noAuth {
            Logger(label: "dce-gateway").warning(
                "authentication is off (--no-auth): every caller is 'anonymous', with every scope")
        }
        let host = self.host
        let kept = store.map { "PostgreSQL at \($0.location)" } ?? "memory"
        let scheme = tlsCert == nil ? "http" : "https"
        let announce: @Sendable (any Channel) async -> Void = { channel in
            let port = channel.localAddress?.port ?? 0
            let line =
                "dce-gateway: listening on \(scheme)://\(host):\(port) (catalogue \(gateway.catalogue.version), key id \(keys.encryptionKeyID), answers kept in \(kept))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        let app: any ApplicationProtocol
        if let tlsCert, let tlsKey {
            let tls: Gateway.TLS
            do {
                tls = try Gateway.TLS(certificateChain: tlsCert, privateKey: tlsKey)
            } catch {
                throw ValidationError(error.message)
            }
            app = try gateway.application(
                router: Router(), address: .hostname(host, port: port), tls: tls, onServerRunning: announce)
        } else {
            app = gateway.application(router: Router(), address: .hostname(host, port: port), onServerRunning: announce)
        }
        do {
            try await gateway.runService(app, drainingFor: .seconds(drainSeconds))
        } catch let error as GatewayStoreError {
            Diagnostics.error(error.message)
            throw ExitStatus.unavailable
        }
    }
}

extension GatewayCommand {
    /// The JWT verifier `--jwks` asks for, its keys read once (a gateway that cannot read them does not start).
    private func bearerTokens() async throws -> BearerTokens? {
        guard let jwks, let issuer, let audience else { return nil }
        do {
            let policy = BearerTokens.Policy(
                issuer: issuer, audience: audience, clockSkew: TimeInterval(clockSkew),
                refreshInterval: TimeInterval(jwksRefresh))
            let (tokens, setAside) = try await BearerTokens.load(try BearerTokens.Source(jwks), policy: policy)
            let logger = Logger(label: "dce-gateway")
            logger.info("JWTs: \(tokens.keyCount) keys from \(tokens.source), issuer \(issuer), audience \(audience)")
            for reason in setAside { logger.notice("JWKS key set aside: \(reason)") }
            return tokens
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// The gateway's keys on disk.
enum KeyFiles {
    static func loadOrCreate(in directory: URL) throws -> Gateway.Keys {
        let manager = FileManager.default
        let encryption = directory.appendingPathComponent("encryption.key")
        let signing = directory.appendingPathComponent("signing.key")
        if manager.fileExists(atPath: encryption.path), manager.fileExists(atPath: signing.path) {
            return Gateway.Keys(
                encryption: try Data(contentsOf: encryption), encryptionKeyID: "gw-1",
                signing: try Data(contentsOf: signing))
        }
        try manager.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keys = Gateway.Keys.generate(keyID: "gw-1")
        for (url, data, mode) in [
            (encryption, keys.encryption, 0o600), (signing, keys.signing, 0o600),
            (directory.appendingPathComponent("encryption.pub"), try keys.encryptionPublicKey, 0o644),
            (directory.appendingPathComponent("signing.pub"), try keys.signingPublicKey, 0o644),
        ] {
            try data.write(to: url, options: .atomic)
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        }
        return keys
    }
}

/// `dce-gateway keys create|list|revoke`: the API keys callers present, in the gateway's key directory.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create, list and revoke the API keys callers present (Authorization: Bearer KEY).",
        discussion: """
            A key is shown once, when it is created; the gateway keeps only its SHA-256, with its name, scopes, \
            creation, last use and revocation, in --keys/api-keys.json, or with --database-url (or DCE_DATABASE_URL) \
            in the database's dce_api_keys, where every instance on it reads them. A running gateway reads them again \
            when they change (within a second): a revoked key is refused from then on. Exit status: 0 done; 2 a \
            usage error, a name in use or unknown; 3 the database cannot be reached.
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    /// Runs `body` with the keys of the gateway whose `--keys` and `--database-url` the command was given, as the
    /// server takes them: in the database (its tables migrated first, its connections run meanwhile) or the file.
    static func withKeys(_ gateway: GatewayCommand, _ body: (APIKeys) async throws(APIKeyError) -> Void) async throws {
        guard let url = gateway.databaseURLInEffect else {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: gateway.keys), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            do {
                try await body(APIKeys(directory: URL(fileURLWithPath: gateway.keys)))
            } catch {
                throw ValidationError(error.message)
            }
            return
        }
        let store = try PostgresStore(url: url, timeout: .seconds(gateway.databaseTimeout))
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        do {
            try await store.prepare()
        } catch {
            Diagnostics.error(error.message)
            throw ExitStatus.unavailable
        }
        do {
            try await body(APIKeys(database: store))
        } catch {
            throw ValidationError(error.message)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key and print it, once, on standard output.")

        @Option(help: "Its name, unique: what the access log and idempotency know the caller by.")
        var name: String

        @Option(
            help: ArgumentHelp(
                "Its scopes, separated by spaces: requests:SCHEMA (such as requests:card-create) or requests:*.",
                valueName: "scopes"))
        var scopes: String

        @ParentCommand var gateway: GatewayCommand

        func run() async throws {
            let scopes = scopes.split(separator: " ").map(String.init)
            try await KeysCommand.withKeys(gateway) { keys throws(APIKeyError) in
                print(try await keys.create(name: name, scopes: scopes))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the keys: name, scopes, creation, last use and revocation (never a key).")

        @ParentCommand var gateway: GatewayCommand

        func run() async throws {
            var records: [APIKeys.Record] = []
            try await KeysCommand.withKeys(gateway) { keys throws(APIKeyError) in records = try await keys.list() }
            let format = ISO8601DateFormatter()
            for record in records {
                var line =
                    "\(record.name)\t\(record.scopes.joined(separator: " "))\tcreated \(format.string(from: record.created))"
                line += "\tlast used " + (record.lastUsed.map { format.string(from: $0) } ?? "never")
                if let revoked = record.revoked { line += "\trevoked \(format.string(from: revoked))" }
                print(line)
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: the gateway refuses it from then on.")

        @Option(help: "The key's name.")
        var name: String

        @ParentCommand var gateway: GatewayCommand

        func run() async throws {
            try await KeysCommand.withKeys(gateway) { keys throws(APIKeyError) in try await keys.revoke(name: name) }
        }
    }
}
