import Crypto
import DCECompatibility
import DCEEngine
import DCEEnvelope
public import Foundation
import Logging

extension Gateway {
    /// The catalogue as served: body, ETag and signature.
    public struct Catalogue: Sendable, Hashable {
        /// How long clients may use a catalogue unless the gateway is told otherwise: 30 days.
        public static let defaultLifetime: TimeInterval = 30 * 24 * 60 * 60

        /// The version: decimal numbers separated by dots, such as `2026.11.1`.
        public var version: String
        /// When clients stop using it, in whole seconds.
        public var expires: Date
        /// `{"version": …, "expires": …, "schemas": {…}}`.
        public var body: [UInt8]
        /// A strong ETag: the body's SHA-256.
        public var etag: String
        /// The Ed25519 signature of the body, base64.
        public var signature: String
    }
}

/// Signs catalogues and decides which one a gateway serves: the one it was started with, one published through it,
/// or a newer one another instance published to the shared store, never one that breaks the requests of apps
/// already installed (unless told to), never one without this gateway's signature, never an older one.
///
/// `@unchecked Sendable`: the catalogue served and its compiled schemas change only under `lock`, together; the
/// rest is immutable or synchronised by its own type.
final class CataloguePublisher: @unchecked Sendable {
    private let signingKey: Data
    /// Whether a catalogue that breaks requests the one before it accepts may replace it in the shared store.
    private let allowBreaking: Bool
    /// The team's severities for what breaks (the schema folder's `compat-severity.txt`).
    private let severities: CompatSeverities
    private let store: any GatewayStore
    private let metrics: GatewayMetrics
    private let logger: Logger
    private let lock = NSLock()
    private var validator: Validator
    private var served: Gateway.Catalogue

    /// Signs the first catalogue from `documents` and compiles them.
    init(
        documents: [String: [UInt8]], version: String, lifetime: TimeInterval, signingKey: Data,
        severities: CompatSeverities, allowBreaking: Bool, store: any GatewayStore, metrics: GatewayMetrics,
        logger: Logger
    ) throws {
        self.signingKey = signingKey
        self.severities = severities
        self.allowBreaking = allowBreaking
        self.store = store
        self.metrics = metrics
        self.logger = logger
        validator = try Validator(source: .documents(documents))
        served = try Self.sign(documents, version: version, expires: Self.expiry(after: lifetime), key: signingKey)
        metrics.serving(served, previous: nil)
    }

    /// The catalogue served and the schemas it compiles to, read together.
    var current: (catalogue: Gateway.Catalogue, validator: Validator) { lock.withLock { (served, validator) } }

    /// The catalogue served.
    var catalogue: Gateway.Catalogue { lock.withLock { served } }

    /// The schemas requests are validated with.
    var schemas: Validator { lock.withLock { validator } }

    /// `id` when the catalogue served has a schema of that id, else `unknown`: for a metric's label or a message,
    /// where anything a client makes up would add series at will or be echoed.
    func knownSchema(_ id: String) -> String {
        schemas.schema(id) != nil ? id : "unknown"
    }

    /// ``Gateway/publish(_:version:lifetime:allowBreaking:)``.
    func publish(_ documents: [String: [UInt8]], version: String, lifetime: TimeInterval, allowBreaking: Bool)
        async throws
    {
        let compiled = try Validator(source: .documents(documents))
        let (served, current) = self.current
        if !allowBreaking {
            try refuseBreaks(from: current, version: served.version, to: compiled, version: version)
        }
        let catalogue = try Self.sign(
            documents, version: version, expires: Self.expiry(after: lifetime), key: signingKey)
        try await store.publish(catalogue)
        serve(catalogue, compiled)
    }

    /// ``Gateway/synchronizeCatalogue()``.
    func synchronize() async throws {
        // A second round when another instance published between this one's look and its own publication.
        for _ in 0..<2 {
            let current = catalogue
            let etag = try await store.latestCatalogueETag()
            if etag == current.etag { return }
            let latest = etag == nil ? nil : try await store.latestCatalogue()
            if let latest, try CatalogueVersion(latest.version) >= CatalogueVersion(current.version) {
                take(latest)
                return
            }
            if let latest, !allowBreaking,
                let before = try? Validator(source: .documents(CatalogueBody(json: latest.body).documents))
            {
                try refuseBreaks(from: before, version: latest.version, to: schemas, version: current.version)
            }
            do {
                try await store.publish(current)
                return
            } catch let error as CatalogueError where error.code == .notNewer {
                continue
            }
        }
    }

    /// ``synchronize()``, and when the store cannot say, a warning: the catalogue served is signed and still valid
    /// until it expires, so it goes on being served.
    func refresh() async {
        do {
            try await synchronize()
        } catch {
            logger.warning("catalogue not synchronized", metadata: ["reason": .string("\(error)")])
        }
    }

    /// Throws ``/DCEEnvelope/CatalogueError/Code/breaking``, listing the breaks, when `new` refuses requests `old`
    /// accepts.
    private func refuseBreaks(from old: Validator, version: String, to new: Validator, version newVersion: String)
        throws
    {
        let breaks = SchemaComparison(old: old, new: new).requestBreaks(severities: severities)
        guard !breaks.isEmpty else { return }
        logger.error(
            "catalogue not published: it breaks requests",
            metadata: [
                "version": .string(newVersion), "served": .string(version),
                "breaks": .string(breaks.map { "\($0.schema) \($0.path) \($0.change)" }.joined(separator: ", ")),
            ])
        throw CatalogueError(
            code: .breaking,
            message: "catalogue \(newVersion) refuses requests catalogue \(version) accepts, and apps that send them "
                + "are installed; allow breaking changes (dce-gateway --allow-breaking) to publish it anyway. "
                + "\(breaks.count) break\(breaks.count == 1 ? "" : "s") (dce-validate compat shows a payload for each):\n"
                + breaks.map { "  " + $0.summary }.joined(separator: "\n"))
    }

    /// The team's severities for what breaks: `compat-severity.txt` in a schema folder, else the defaults.
    static func severities(in source: SchemaSource) throws -> CompatSeverities {
        guard case .directory(let folder) = source else { return CompatSeverities() }
        let file = folder.appendingPathComponent(CompatSeverities.fileName)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return CompatSeverities() }
        do {
            return try CompatSeverities(text: text)
        } catch {
            throw CatalogueError(
                code: .invalidSeverities, message: "\(file.path):\(error.line): \(error.message)")
        }
    }

    /// Serves a catalogue from the store, if it carries this gateway's signature and compiles.
    private func take(_ latest: Gateway.Catalogue) {
        let previous = catalogue.version
        do {
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: signingKey).publicKey
            guard let signature = Data(base64Encoded: latest.signature),
                key.isValidSignature(signature, for: latest.body)
            else {
                throw CatalogueError(code: .malformed, message: "its signature is not this gateway's")
            }
            let compiled = try Validator(source: .documents(try CatalogueBody(json: latest.body).documents))
            serve(latest, compiled)
            logger.notice(
                "catalogue taken from the store",
                metadata: ["version": .string(latest.version), "previous": .string(previous)])
        } catch {
            logger.error(
                "catalogue in the store not served",
                metadata: ["version": .string(latest.version), "reason": .string("\(error)")])
        }
    }

    /// Serves `catalogue`, validating with `compiled`, unless a newer one is served already.
    private func serve(_ catalogue: Gateway.Catalogue, _ compiled: Validator) {
        let previous: Gateway.Catalogue? = lock.withLock {
            if let new = try? CatalogueVersion(catalogue.version), let old = try? CatalogueVersion(served.version),
                new < old
            {
                return nil
            }
            defer { (validator, served) = (compiled, catalogue) }
            return served
        }
        if let previous { metrics.serving(catalogue, previous: previous) }
    }

    /// ``Gateway/catalogue(_:version:expires:signingKey:)``.
    static func sign(_ documents: [String: [UInt8]], version: String, expires: Date, key: Data) throws
        -> Gateway.Catalogue
    {
        let contents = CatalogueBody(version: try CatalogueVersion(version), expires: expires, documents: documents)
        let body = try contents.json()
        let signature = try Curve25519.Signing.PrivateKey(rawRepresentation: key).signature(for: body)
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        return Gateway.Catalogue(
            version: version, expires: contents.expires, body: body, etag: "\"\(digest)\"",
            signature: signature.base64EncodedString())
    }

    /// The expiry of a catalogue signed now that clients may use for `lifetime` seconds.
    private static func expiry(after lifetime: TimeInterval) throws(CatalogueError) -> Date {
        guard lifetime > 0, lifetime.isFinite else {
            throw CatalogueError(
                code: .invalidExpiry, message: "a catalogue's lifetime must be a positive number of seconds")
        }
        return Date(timeIntervalSinceNow: lifetime)
    }
}
