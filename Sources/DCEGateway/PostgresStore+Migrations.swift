import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The gateway's tables, created and migrated at start: `Migrations/NNN-*.sql` in the bundle, applied in order in
/// one transaction under an advisory lock, each recorded in `dce_migrations`, so several instances may start at once
/// and only the first does the work.
///
/// A runner of its own, about fifty lines: postgres-nio has no migrations, and of the packages available here only
/// Fluent's `Migrator` has them, which would bring Fluent's database abstraction and its PostgreSQL driver (an ORM the
/// gateway does not use, and minutes of every clean build) for what this does.
extension PostgresStore {
    /// Creates or migrates the gateway's tables, on a connection of its own (so that what prevents it — a refused
    /// connection, a password, a missing database — is reported as PostgreSQL or the network says it).
    ///
    /// - Throws: ``GatewayStoreError`` when the database cannot be reached or a migration fails.
    public func prepare() async throws(GatewayStoreError) {
        let migrations = try Self.migrations()
        var configuration = try address.connection()
        configuration.options.additionalStartupParameters = parameters
        configuration.options.connectTimeout = TimeAmount(timeout)
        let settings = configuration
        try await bounded("migrate the gateway's tables", timeout: timeout * 2) { _, logger in
            let connection = try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger)
            do {
                try await Self.migrate(migrations, on: connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
    }

    /// Applies the migrations not applied yet, one instance at a time (the others find the work done).
    static func migrate(_ migrations: [(Int, [String])], on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await transaction(on: connection, logger: logger) {
            try await connection.query("SELECT pg_advisory_xact_lock(7103431046913)", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS dce_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            var applied = 0
            for try await (version) in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM dce_migrations", logger: logger
            )
            .decode(Int.self) {
                applied = version
            }
            for (version, statements) in migrations where version > applied {
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO dce_migrations (version) VALUES (\(version))", logger: logger)
            }
            return ((), commit: true)
        }
    }

    /// The migrations shipped with the gateway, by number, each split into its statements.
    static func migrations() throws(GatewayStoreError) -> [(Int, [String])] {
        guard let folder = Bundle.module.url(forResource: "Migrations", withExtension: nil),
            let urls = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        else {
            throw GatewayStoreError("the gateway's database migrations are missing from its bundle")
        }
        var migrations: [(Int, [String])] = []
        for url in urls where url.pathExtension == "sql" {
            guard let number = Int(url.lastPathComponent.prefix { $0.isNumber }),
                let text = try? String(contentsOf: url, encoding: .utf8)
            else {
                throw GatewayStoreError("the migration \(url.lastPathComponent) cannot be read")
            }
            let sql = text.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            let statements = sql.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            migrations.append((number, statements.filter { !$0.isEmpty }))
        }
        return migrations.sorted { $0.0 < $1.0 }
    }
}
