import Foundation
import PostgresNIO

/// The API keys in `dce_api_keys` (migration 0004), for ``APIKeys/init(database:)``: what `dce-gateway keys` changes
/// and every instance on the database reads.
extension PostgresStore {
    /// Every key, in the order created.
    func keyRecords() async throws(GatewayStoreError) -> [APIKeys.Record] {
        try await bounded("read the API keys", timeout: timeout) { client, logger in
            var records: [APIKeys.Record] = []
            for try await (name, scopes, sha256, created, used, revoked) in try await client.query(
                "SELECT name, scopes, sha256, created_at, last_used_at, revoked_at FROM dce_api_keys ORDER BY created_at, name",
                logger: logger
            ).decode((String, [String], String, Date, Date?, Date?).self) {
                records.append(
                    APIKeys.Record(
                        name: name, scopes: scopes, sha256: sha256, created: created, lastUsed: used, revoked: revoked))
            }
            return records
        }
    }

    /// Adds a key; `false` when one has its name.
    func insertKey(_ record: APIKeys.Record) async throws(GatewayStoreError) -> Bool {
        try await bounded("create an API key", timeout: timeout) { client, logger in
            let rows = try await client.query(
                """
                INSERT INTO dce_api_keys (name, scopes, sha256, created_at) VALUES (\(record.name), \(record.scopes), \(record.sha256), \(record.created))
                ON CONFLICT (name) DO NOTHING RETURNING 1
                """, logger: logger
            ).collect()
            return !rows.isEmpty
        }
    }

    /// Revokes the key named `name` (a revoked key keeps its first revocation); `false` when none has the name.
    func revokeKey(named name: String, at date: Date) async throws(GatewayStoreError) -> Bool {
        try await bounded("revoke an API key", timeout: timeout) { client, logger in
            let rows = try await client.query(
                "UPDATE dce_api_keys SET revoked_at = coalesce(revoked_at, \(date)) WHERE name = \(name) RETURNING 1",
                logger: logger
            ).collect()
            return !rows.isEmpty
        }
    }

    /// Notes when keys were last presented.
    func noteKeyUses(_ uses: [String: Date]) async throws(GatewayStoreError) {
        try await bounded("note API key uses", timeout: timeout) { client, logger in
            for (name, date) in uses {
                try await client.query(
                    "UPDATE dce_api_keys SET last_used_at = greatest(last_used_at, \(date)) WHERE name = \(name)",
                    logger: logger)
            }
        }
    }
}
