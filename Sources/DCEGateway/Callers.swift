import Crypto
public import Foundation

/// Who called the gateway, as its credential says: a name for the access log and the idempotency slot, and the
/// scopes it holds. Never the credential itself.
public struct Caller: Sendable, Hashable {
    /// The key's name (an API key), `sub:SUBJECT` (a JWT's subject), or `anonymous` when the gateway runs without
    /// authentication.
    public var name: String
    /// What it may do: `requests:SCHEMA` posts that request schema, `requests:*` any.
    public var scopes: [String]

    /// Creates a caller.
    ///
    /// - Parameters:
    ///   - name: Its name in logs and metrics.
    ///   - scopes: Its scopes.
    public init(name: String, scopes: [String]) {
        self.name = name
        self.scopes = scopes
    }

    /// Every caller of a gateway without authentication (`dce-gateway --no-auth`).
    public static let anonymous = Caller(name: "anonymous", scopes: ["requests:*"])

    /// Whether the caller may post requests of `schema`: it holds `requests:SCHEMA` or `requests:*`.
    public func mayPost(_ schema: String) -> Bool {
        scopes.contains("requests:*") || scopes.contains("requests:" + schema)
    }
}

/// How a gateway knows who calls `POST /v1/requests`: API keys, bearer JWTs, both, or nobody.
public struct Authentication: Sendable {
    fileprivate let keys: APIKeys?
    fileprivate let tokens: BearerTokens?

    /// Callers present an API key or a JWT as `Authorization: Bearer CREDENTIAL`: a credential of three dot-separated
    /// parts is a token (``BearerTokens``), any other a key (``APIKeys``). Give neither for ``none``.
    ///
    /// - Parameters:
    ///   - apiKeys: The API keys, if callers may present one.
    ///   - tokens: The token verifier, if callers may present a JWT.
    public init(apiKeys: APIKeys? = nil, tokens: BearerTokens? = nil) {
        keys = apiKeys
        self.tokens = tokens
    }

    /// Every caller is ``Caller/anonymous``, with every scope: for a gateway behind a proxy that authenticates, or
    /// for tests. `dce-gateway` starts so only with `--no-auth`, and logs a warning.
    public static let none = Authentication()

    /// Callers present an API key as `Authorization: Bearer KEY` (``APIKeys``).
    public static func apiKeys(_ keys: APIKeys) -> Authentication { Authentication(apiKeys: keys) }

    /// Callers present a JWT as `Authorization: Bearer TOKEN` (``BearerTokens``).
    public static func tokens(_ tokens: BearerTokens) -> Authentication { Authentication(tokens: tokens) }

    /// Whether requests are authenticated at all.
    public var isOn: Bool { keys != nil || tokens != nil }

    /// Whether callers may present an API key.
    var acceptsAPIKeys: Bool { keys != nil }

    /// Whether callers may present a JWT.
    var acceptsTokens: Bool { tokens != nil }

    /// Who the `Authorization` field's credential names; `nil` when it is missing, malformed, unknown, revoked,
    /// expired or for someone else (what failed is not said: 401 is the whole answer).
    func caller(authorization: String?) async -> Caller? {
        guard isOn else { return .anonymous }
        guard let authorization, let credential = Self.bearer(authorization) else { return nil }
        if credential.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 {
            return await tokens?.caller(presenting: credential)
        }
        return await keys?.caller(presenting: credential)
    }

    /// The credential of an `Authorization: Bearer CREDENTIAL` field (RFC 6750; the scheme in any case).
    static func bearer(_ field: String) -> String? {
        // By bytes, as every request asks: the scheme in any case, spaces, a credential without spaces, spaces.
        let bytes = Array(field.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == 0x20,
            zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let credential = bytes[(scheme.count + 1)...].drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard !credential.isEmpty, !credential.contains(where: isSpace) else { return nil }
        return String(decoding: credential, as: UTF8.self)
    }

}

/// API keys for server-to-server callers, kept in a file of the gateway's key directory (`api-keys.json`, 0600), or in
/// the gateway's PostgreSQL database (`dce_api_keys`) where every instance on it reads them.
///
/// A key is 32 random bytes, shown once when it is created (`dce_` and base64url); only its SHA-256 is kept, with
/// the key's name, scopes, creation and last use, and when it was revoked. `dce-gateway keys create|list|revoke`
/// changes them (the file under a lock); a running gateway reads them again when they change (looked at most once a
/// second), so a revoked key is refused from then on.
///
/// `@unchecked Sendable`: what it has read (`loaded`, `lastChecked`), the uses not written yet and when uses were
/// last written are read and written only under `lock`; the rest is set in `init` and never changes.
public final class APIKeys: @unchecked Sendable {
    /// One key as it is kept: never the key itself.
    public struct Record: Codable, Sendable, Hashable {
        /// Its name, unique: what logs, metrics and idempotency know the caller by.
        public var name: String
        /// Its scopes (``Caller/scopes``).
        public var scopes: [String]
        /// The SHA-256 of the key, in hexadecimal.
        public var sha256: String
        /// When it was created.
        public var created: Date
        /// When a request last presented it (written at most once a minute); `nil` for never.
        public var lastUsed: Date?
        /// When it was revoked; `nil` while it is valid.
        public var revoked: Date?
    }

    private struct File: Codable {
        var keys: [Record]
    }

    private enum Backing {
        case file(URL)
        case database(PostgresStore)
    }

    private let backing: Backing
    /// The file, for keys kept in one (`nil` in a database).
    public var url: URL? {
        if case .file(let url) = backing { return url }
        return nil
    }
    /// Where the keys are kept, for messages: the file's path, or the database's location.
    public var location: String {
        switch backing {
        case .file(let url): url.path
        case .database(let store): "the database at \(store.location)"
        }
    }
    private let lock = NSLock()
    private var loaded: (version: Date?, records: [String: Record])?
    private var lastChecked = Date.distantPast
    /// Last uses not yet written, by key name.
    private var unwrittenUses: [String: Date] = [:]
    private var lastWrite = Date.distantPast

    /// Keys in `directory/api-keys.json` (the file need not exist yet).
    public init(directory: URL) {
        backing = .file(directory.appendingPathComponent("api-keys.json"))
    }

    /// Keys in the database of `store` (its table `dce_api_keys`, created when the store is prepared).
    public init(database store: PostgresStore) {
        backing = .database(store)
    }

    /// The caller a presented key names, or `nil` for an unknown or revoked one. The keys are read again when they
    /// changed (looked at most once a second: the file's date, or the database's rows); the last use is written at
    /// most once a minute.
    func caller(presenting secret: String) async -> Caller? {
        let digest = Self.digest(secret)
        let now = Date()
        let (due, empty): (Bool, Bool) = lock.withLock {
            guard now.timeIntervalSince(lastChecked) >= 1 else { return (false, loaded == nil) }
            lastChecked = now
            return (true, loaded == nil)
        }
        // The one request that looks waits for the look (a file's date, or one query); the others meanwhile use the
        // keys as they were, unless none were read yet.
        if due || empty { await reload() }
        let record: Record? = lock.withLock {
            guard let found = loaded?.records[digest], found.revoked == nil else { return nil }
            unwrittenUses[found.name] = now
            return found
        }
        guard let record else { return nil }
        if now.timeIntervalSince(lock.withLock { lastWrite }) >= 60 { await writeUses() }
        return Caller(name: record.name, scopes: record.scopes)
    }

    /// Reads the keys again when they changed; on failure the keys read before stay.
    private func reload() async {
        switch backing {
        case .file(let url):
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            guard lock.withLock({ loaded == nil || modified != loaded?.version }), let records = try? readFile(url)
            else { return }
            install(records, version: modified)
        case .database(let store):
            guard let records = try? await store.keyRecords() else { return }
            install(records, version: nil)
        }
    }

    private func install(_ records: [Record], version: Date?) {
        let byDigest = Dictionary(records.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        lock.withLock { loaded = (version, byDigest) }
    }

    /// Creates a key with a name and scopes, and returns it: the only time it is shown.
    ///
    /// - Throws: ``APIKeyError`` for a name in use or empty, no scope, or keys that cannot be written.
    public func create(name: String, scopes: [String], now: Date = Date()) async throws(APIKeyError) -> String {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
        else {
            throw APIKeyError("a key's name is 1 to 64 letters, digits, '-', '_' or '.'")
        }
        guard !scopes.isEmpty else { throw APIKeyError("a key needs at least one scope, such as requests:card-create") }
        for scope in scopes where !scope.hasPrefix("requests:") || scope.count == "requests:".count {
            throw APIKeyError("'\(scope)' is not a scope: requests:SCHEMA or requests:*")
        }
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let secret = "dce_" + Self.base64URL(bytes)
        let record = Record(name: name, scopes: scopes, sha256: Self.digest(secret), created: now)
        let exists = APIKeyError("a key named '\(name)' exists (revoked keys keep their name)")
        switch backing {
        case .file(let url):
            try change(url) { records throws(APIKeyError) in
                guard !records.contains(where: { $0.name == name }) else { throw exists }
                records.append(record)
            }
        case .database(let store):
            guard try await databaseStep({ () throws(GatewayStoreError) in try await store.insertKey(record) }) else {
                throw exists
            }
        }
        return secret
    }

    /// Every key, revoked or not, in the order created.
    ///
    /// - Throws: ``APIKeyError`` for keys that cannot be read.
    public func list() async throws(APIKeyError) -> [Record] {
        switch backing {
        case .file(let url): return try readFile(url)
        case .database(let store):
            return try await databaseStep { () throws(GatewayStoreError) in try await store.keyRecords() }
        }
    }

    /// Revokes the key named `name`: from the gateway's next look at the keys on, it is refused.
    ///
    /// - Throws: ``APIKeyError`` when no key has the name, or the keys cannot be written.
    public func revoke(name: String, now: Date = Date()) async throws(APIKeyError) {
        let missing = APIKeyError("no key is named '\(name)'")
        switch backing {
        case .file(let url):
            try change(url) { records throws(APIKeyError) in
                guard let index = records.firstIndex(where: { $0.name == name }) else { throw missing }
                if records[index].revoked == nil { records[index].revoked = now }
            }
        case .database(let store):
            guard
                try await databaseStep({ () throws(GatewayStoreError) in
                    try await store.revokeKey(named: name, at: now)
                })
            else { throw missing }
        }
    }

    /// A database operation, its failure as an ``APIKeyError``.
    private func databaseStep<Value>(_ step: () async throws(GatewayStoreError) -> Value) async throws(APIKeyError)
        -> Value
    {
        do {
            return try await step()
        } catch {
            throw APIKeyError(error.message)
        }
    }

    private func writeUses() async {
        let uses: [String: Date] = lock.withLock {
            defer {
                unwrittenUses = [:]
                lastWrite = Date()
            }
            return unwrittenUses
        }
        guard !uses.isEmpty else { return }
        switch backing {
        case .file(let url):
            try? change(url) { records in
                for index in records.indices {
                    if let used = uses[records[index].name] { records[index].lastUsed = used }
                }
            }
        case .database(let store):
            try? await store.noteKeyUses(uses)
        }
    }

    private func readFile(_ url: URL) throws(APIKeyError) -> [Record] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(File.self, from: Data(contentsOf: url)).keys
        } catch {
            throw APIKeyError("\(url.path) cannot be read: \(error.localizedDescription)")
        }
    }

    /// Reads, changes and writes the file under an exclusive lock of the directory's `api-keys.lock`, so that
    /// the commands and a running gateway never lose each other's changes; written to a temporary file and renamed.
    private func change(_ url: URL, _ body: (inout [Record]) throws(APIKeyError) -> Void) throws(APIKeyError) {
        let lockPath = url.deletingLastPathComponent().appendingPathComponent("api-keys.lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else {
            throw APIKeyError("\(lockPath) cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        var records = try readFile(url)
        try body(&records)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(File(keys: records))
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".api-keys.json.\(getpid())").path
            let file = open(temporary, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
            guard file >= 0 else {
                throw APIKeyError("\(temporary) cannot be written: \(String(cString: strerror(errno)))")
            }
            let written = data.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
            guard written == data.count, rename(temporary, url.path) == 0 else {
                throw APIKeyError("\(url.path) cannot be written: \(String(cString: strerror(errno)))")
            }
        } catch let error as APIKeyError {
            throw error
        } catch {
            throw APIKeyError("\(url.path) cannot be written: \(error.localizedDescription)")
        }
    }

    /// The SHA-256 of a key, in hexadecimal (by table: `String(format:)` per byte cost a third of a request's time
    /// under load).
    static func digest(_ secret: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(secret.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Why an API key could not be created, listed or revoked.
public struct APIKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong; never a key.
    public var message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
