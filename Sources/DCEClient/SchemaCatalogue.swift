import Crypto
public import DCEEngine
import DCEEnvelope
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The schemas an app validates with, delivered by the gateway so that rules change without an app release.
///
/// It starts from the last catalogue it stored, if there is one and it still holds, else from the bundled schemas;
/// ``refresh()`` asks the gateway for its catalogue with `If-None-Match`, checks the Ed25519 signature over the body
/// against the key the app pins, checks that the catalogue has not expired and is newer than the one in force,
/// compiles it (with the app's local overrides on top) and only then swaps it in and stores it. A gateway that is
/// down, sends something unsigned, broken, expired or older, or a set that does not compile changes nothing: the
/// last good set keeps serving.
///
/// Versions only move forward. A version is decimal numbers separated by dots, compared number by number
/// (`2026.11.10` is newer than `2026.11.9`, `10` newer than `9`, `2` the same as `2.0`); anything else is refused.
/// A catalogue of the same version as the one in force is not newer, and the bundled schemas have no version, so
/// any valid catalogue is newer than them.
///
/// Each catalogue carries a signed expiry (`"expires": "2026-12-23T00:00:00Z"`). Once the catalogue in force
/// passes it, ``validator`` and ``origin`` fall back, at the moment they are read, to the stored catalogue if it is
/// still valid; else, for the grace period the app gives (`gracePeriod`, none by default), to the newest catalogue
/// taken, fetched or stored (``Origin/grace(version:expired:)``): an app that cannot reach its gateway for a while
/// keeps the rules it last had rather than the older ones it shipped with; after that, to the bundled schemas. A
/// catalogue already past its expiry when it is offered is never taken, grace or not.
///
/// An open form follows the catalogue: ``updates()`` gives each validator a refresh takes, which a `FormModel`
/// adopts (`adopt(_:)`), keeping what was typed.
///
/// With `storage`, an accepted catalogue's exact body, signature and ETag are written to a file in that directory
/// (a new file, flushed and renamed over the old one). At start that file is read back and used only if its
/// signature verifies against the pinned key, it has not expired and it compiles; otherwise it is ignored and
/// ``storageProblem`` says why. Its version is then the one in force, so a rollback is refused after a restart too.
///
/// ```swift
/// let catalogue = try SchemaCatalogue(
///     baseURL: gateway, signingKey: pinnedKey, overrides: ["card-create": localRules],
///     storage: applicationSupport.appendingPathComponent("dce-catalogue"))
/// _ = await catalogue.refresh()                  // at start, and whenever convenient
/// let validator = await catalogue.validator
/// ```
public actor SchemaCatalogue {
    /// Where the schemas in use came from.
    public enum Origin: Sendable, Hashable {
        /// The schemas shipped with the package.
        case bundled
        /// The gateway's catalogue of this version, taken by a refresh.
        case gateway(version: String)
        /// The gateway's catalogue of this version as stored by an earlier run, verified again at start.
        case stored(version: String)
        /// The newest catalogue taken, of this version, past its expiry but within the app's grace period.
        case grace(version: String, expired: Date)
    }

    /// What a refresh did.
    public enum Outcome: Sendable, Hashable {
        /// A new set is in use.
        case updated(version: String)
        /// The gateway's set has not changed (HTTP 304, or the same catalogue again).
        case notModified
        /// A validly signed catalogue that is not newer than the one in force (older, or the same version with
        /// another body) was refused.
        case notNewer(offered: String, inForce: String)
        /// A validly signed catalogue that had already expired was refused.
        case expired(version: String, at: Date)
        /// Nothing changed; the reason says why (unreachable, bad signature, no valid version or expiry, does not
        /// compile, …).
        case kept(reason: String)
    }

    /// The schemas in use now: the catalogue in force, or the bundled schemas when none is.
    public var validator: Validator { inForce?.catalogue.validator ?? bundled }
    /// Where the schemas in use now came from.
    public var origin: Origin { inForce?.origin ?? .bundled }
    /// The ids the app's local overrides replace, reported as such.
    public nonisolated let overridden: [String]
    /// The ETag of the catalogue in force, sent as `If-None-Match`; `nil` with the bundled schemas.
    public var etag: String? { inForce?.catalogue.etag }
    /// The exact body of the catalogue in force, as the gateway signed it (`{"version": …, "expires": …, "schemas":
    /// {…}}`), to hand on once checked; `nil` with the bundled schemas.
    public var body: [UInt8]? { inForce?.catalogue.body }
    /// Why the stored catalogue was not used at start (corrupt, unsigned, expired, does not compile) or why the
    /// last accepted catalogue could not be stored; `nil` when there was no problem or once a catalogue is stored.
    public private(set) var storageProblem: String?

    /// How long past its expiry the newest catalogue taken still serves.
    public nonisolated let gracePeriod: TimeInterval

    /// A catalogue that was verified, compiled and taken.
    private struct Accepted: Sendable {
        var version: CatalogueVersion
        var expires: Date
        var body: [UInt8]
        var etag: String?
        var validator: Validator
    }

    private let baseURL: URL
    private let signingKey: Data
    private let overrides: [String: [UInt8]]
    private let session: URLSession
    private let timeout: TimeInterval
    private let now: @Sendable () -> Date
    private let store: CatalogueStore?
    private let bundled: Validator
    /// The catalogue the last successful refresh took.
    private var fetched: Accepted?
    /// The catalogue in the store: read at start, or the last one written.
    private var stored: Accepted?
    /// The streams ``updates()`` gave, by number.
    private var subscribers: [Int: AsyncStream<Validator>.Continuation] = [:]
    private var nextSubscriber = 0

    /// Starts from the stored catalogue when it holds, else from the bundled schemas, with the app's overrides on top.
    ///
    /// - Parameters:
    ///   - baseURL: The gateway; the catalogue is at `v1/schemas` under it.
    ///   - signingKey: The gateway's Ed25519 public key (32 raw bytes), pinned in the app.
    ///   - overrides: Schema documents by id that replace the gateway's and the bundled ones.
    ///   - storage: A directory where the last accepted catalogue is kept across restarts (created when missing);
    ///     `nil` keeps nothing.
    ///   - gracePeriod: Seconds past its expiry that the newest catalogue taken still serves; 0, the default, falls
    ///     back at the expiry itself.
    ///   - timeout: Seconds to wait for the gateway.
    ///   - session: The URL session.
    ///   - now: The clock that decides whether a catalogue has expired.
    /// - Throws: ``/DCEEngine/SchemaError`` when the bundled schemas with the overrides do not compile.
    public init(
        baseURL: URL, signingKey: Data, overrides: [String: [UInt8]] = [:], storage: URL? = nil,
        gracePeriod: TimeInterval = 0, timeout: TimeInterval = 10,
        session: URLSession? = nil, now: @escaping @Sendable () -> Date = Date.init
    ) throws(SchemaError) {
        self.baseURL = baseURL
        self.signingKey = signingKey
        self.overrides = overrides
        self.overridden = overrides.keys.sorted()
        self.timeout = timeout
        self.gracePeriod = max(gracePeriod, 0)
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.now = now
        self.bundled = try Validator(source: .documents(try SchemaSource.bundled.documents().merging(overrides) { $1 }))
        self.store = storage.map { CatalogueStore(directory: $0) }
        do {
            guard let record = try store?.load() else { return }
            // The stored catalogue serves within the grace period too, as it would have had the app kept running.
            switch Self.accept(
                record.body, signature: record.signature, etag: record.etag, key: signingKey, overrides: overrides,
                now: now(), grace: self.gracePeriod)
            {
            case .success(let catalogue): stored = catalogue
            case .failure(let refusal): storageProblem = "the stored catalogue is not used: \(refusal.reason)"
            }
        } catch {
            storageProblem = error.reason
        }
    }

    /// Asks the gateway for a newer catalogue and swaps it in when it is signed, unexpired, newer than the one in
    /// force and compiles; then stores it.
    ///
    /// - Returns: What happened; failures keep the current set and say why.
    public func refresh() async -> Outcome {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/schemas"))
        request.timeoutInterval = timeout
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let body: Data
        let response: HTTPURLResponse
        do {
            let (data, answer) = try await session.data(for: request)
            guard let http = answer as? HTTPURLResponse else { return .kept(reason: "not an HTTP answer") }
            body = data
            response = http
        } catch {
            return .kept(reason: "the gateway cannot be reached: \(error.localizedDescription)")
        }
        if response.statusCode == 304 { return .notModified }
        guard response.statusCode == 200 else {
            return .kept(reason: "the gateway answered HTTP \(response.statusCode)")
        }
        let signature =
            response.value(forHTTPHeaderField: "X-DCE-Signature").flatMap { Data(base64Encoded: $0) } ?? Data()
        let catalogue: Accepted
        switch Self.accept(
            [UInt8](body), signature: signature, etag: response.value(forHTTPHeaderField: "ETag"), key: signingKey,
            overrides: overrides, now: now(), inForce: inForce?.catalogue)
        {
        case .success(let accepted): catalogue = accepted
        case .failure(let refusal): return refusal.outcome
        }
        fetched = catalogue
        for subscriber in subscribers.values { subscriber.yield(catalogue.validator) }
        if let store {
            do {
                try store.save(.init(body: catalogue.body, signature: signature, etag: catalogue.etag))
                stored = catalogue
                storageProblem = nil
            } catch {
                storageProblem = error.reason
            }
        }
        return .updated(version: catalogue.version.description)
    }

    /// Each validator the catalogue takes from now on, as a refresh takes it (``Outcome/updated(version:)``): what
    /// an open form adopts. Each call gives a stream of its own, which keeps only the newest validator not yet read;
    /// it ends when the task reading it is cancelled.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await validator in await catalogue.updates() { try? form.adopt(validator) }
    /// }
    /// ```
    public func updates() -> AsyncStream<Validator> {
        let (stream, continuation) = AsyncStream.makeStream(of: Validator.self, bufferingPolicy: .bufferingNewest(1))
        let number = nextSubscriber
        nextSubscriber += 1
        subscribers[number] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(number) }
        }
        return stream
    }

    private func unsubscribe(_ number: Int) { subscribers[number] = nil }

    /// The catalogue in force now and where it came from: the one fetched, else the one stored, unless expired;
    /// past their expiry, the newer of them within the grace period.
    private var inForce: (catalogue: Accepted, origin: Origin)? {
        let now = now()
        if let fetched, fetched.expires > now { return (fetched, .gateway(version: fetched.version.description)) }
        if let stored, stored.expires > now { return (stored, .stored(version: stored.version.description)) }
        let newest = [fetched, stored].compactMap(\.self).max { $0.version < $1.version }
        guard let newest, newest.expires.addingTimeInterval(gracePeriod) > now else { return nil }
        return (newest, .grace(version: newest.version.description, expired: newest.expires))
    }

    /// Why a catalogue was not taken.
    private struct Refusal: Error {
        var outcome: Outcome

        var reason: String {
            switch outcome {
            case .kept(let reason): reason
            case .expired(let version, let at):
                "catalogue \(version) expired at \(UTCTimestamp.string(from: at) ?? "\(at)")"
            case .notNewer(let offered, let inForce): "catalogue \(offered) is not newer than catalogue \(inForce)"
            case .updated, .notModified: ""
            }
        }
    }

    /// Checks a catalogue in order (signature against the pinned key, body, expiry, newer than the one in force)
    /// and compiles it with the overrides on top: what a refresh and a start both do before taking one.
    private static func accept(
        _ body: [UInt8], signature: Data, etag: String?, key: Data, overrides: [String: [UInt8]], now: Date,
        grace: TimeInterval = 0, inForce: Accepted? = nil
    ) -> Result<Accepted, Refusal> {
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key),
            publicKey.isValidSignature(signature, for: body)
        else {
            return .failure(
                Refusal(outcome: .kept(reason: "the catalogue's signature does not verify against the pinned key")))
        }
        let contents: CatalogueBody
        do {
            contents = try CatalogueBody(json: body)
        } catch {
            return .failure(Refusal(outcome: .kept(reason: error.message)))
        }
        let version = contents.version.description
        guard contents.expires.addingTimeInterval(grace) > now else {
            return .failure(Refusal(outcome: .expired(version: version, at: contents.expires)))
        }
        if let inForce, contents.version <= inForce.version {
            // The very catalogue in force, sent again (a gateway that ignores If-None-Match), is no change.
            if contents.version == inForce.version, body == inForce.body {
                return .failure(Refusal(outcome: .notModified))
            }
            return .failure(Refusal(outcome: .notNewer(offered: version, inForce: inForce.version.description)))
        }
        do {
            let validator = try Validator(source: .documents(contents.documents.merging(overrides) { $1 }))
            return .success(
                Accepted(
                    version: contents.version, expires: contents.expires, body: body, etag: etag, validator: validator))
        } catch {
            return .failure(
                Refusal(
                    outcome: .kept(
                        reason: "catalogue \(version) does not compile: \(error.problems.first.map { "\($0)" } ?? "")"))
            )
        }
    }
}
