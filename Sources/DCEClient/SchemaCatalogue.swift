import Crypto
public import DCEEngine
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The schemas an app validates with, delivered by the gateway so that rules change without an app release.
///
/// It starts from the bundled schemas; ``refresh()`` asks the gateway for its catalogue with `If-None-Match`,
/// checks the Ed25519 signature over the body against the key the app pins, compiles the new set (with the app's
/// local overrides on top) and only then swaps it in. A gateway that is down, sends something unsigned or broken,
/// or a set that does not compile changes nothing: the last good set keeps serving.
///
/// ```swift
/// let catalogue = try SchemaCatalogue(baseURL: gateway, signingKey: pinnedKey, overrides: ["card-create": localRules])
/// _ = await catalogue.refresh()                  // at start, and whenever convenient
/// let validator = await catalogue.validator
/// ```
public actor SchemaCatalogue {
    /// Where the schemas in use came from.
    public enum Origin: Sendable, Hashable {
        /// The schemas shipped with the package.
        case bundled
        /// The gateway's catalogue of this version.
        case gateway(version: String)
    }

    /// What a refresh did.
    public enum Outcome: Sendable, Hashable {
        /// A new set is in use.
        case updated(version: String)
        /// The gateway's set has not changed (HTTP 304).
        case notModified
        /// Nothing changed; the reason says why (unreachable, bad signature, does not compile, …).
        case kept(reason: String)
    }

    /// The schemas in use.
    public private(set) var validator: Validator
    /// Where they came from.
    public private(set) var origin: Origin = .bundled
    /// The ids the app's local overrides replace, reported as such.
    public nonisolated let overridden: [String]
    /// The catalogue's ETag, once one was taken.
    public private(set) var etag: String?

    private let baseURL: URL
    private let signingKey: Data
    private let overrides: [String: [UInt8]]
    private let session: URLSession
    private let timeout: TimeInterval

    /// Starts from the bundled schemas with the app's overrides on top.
    ///
    /// - Parameters:
    ///   - baseURL: The gateway; the catalogue is at `v1/schemas` under it.
    ///   - signingKey: The gateway's Ed25519 public key (32 raw bytes), pinned in the app.
    ///   - overrides: Schema documents by id that replace the gateway's and the bundled ones.
    ///   - timeout: Seconds to wait for the gateway.
    ///   - session: The URL session.
    /// - Throws: ``SchemaError`` when the bundled schemas with the overrides do not compile.
    public init(
        baseURL: URL, signingKey: Data, overrides: [String: [UInt8]] = [:], timeout: TimeInterval = 10, session: URLSession? = nil
    ) throws(SchemaError) {
        self.baseURL = baseURL
        self.signingKey = signingKey
        self.overrides = overrides
        self.overridden = overrides.keys.sorted()
        self.timeout = timeout
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.validator = try Validator(source: .documents(try SchemaSource.bundled.documents().merging(overrides) { $1 }))
    }

    /// Asks the gateway for a newer catalogue and swaps it in when it is signed and compiles.
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
        guard response.statusCode == 200 else { return .kept(reason: "the gateway answered HTTP \(response.statusCode)") }
        guard let signature = response.value(forHTTPHeaderField: "X-DCE-Signature").flatMap({ Data(base64Encoded: $0) }),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingKey),
            key.isValidSignature(signature, for: body)
        else {
            return .kept(reason: "the catalogue's signature does not verify against the pinned key")
        }
        let catalogue: (version: String, documents: [String: [UInt8]])
        do {
            catalogue = try Self.read(body)
        } catch {
            return .kept(reason: error.message)
        }
        do {
            validator = try Validator(source: .documents(catalogue.documents.merging(overrides) { $1 }))
        } catch {
            return .kept(reason: "catalogue \(catalogue.version) does not compile: \(error.problems.first.map { "\($0)" } ?? "")")
        }
        origin = .gateway(version: catalogue.version)
        etag = response.value(forHTTPHeaderField: "ETag")
        return .updated(version: catalogue.version)
    }

    /// `{"version": "…", "schemas": {"id": {…schema…}, …}}`.
    static func read(_ body: Data) throws(ValidatorError) -> (version: String, documents: [String: [UInt8]]) {
        guard let document = try? JSONDocument(bytes: [UInt8](body)), case .object(let members) = SchemaValue(document: document, at: document.root),
            case .string(let version)? = members.first(where: { $0.key == "version" })?.value,
            case .object(let schemas)? = members.first(where: { $0.key == "schemas" })?.value
        else {
            throw ValidatorError(code: .encoding, message: "the catalogue is not {\"version\": …, \"schemas\": {…}}")
        }
        return (version, Dictionary(schemas.map { ($0.key, Array($0.value.description.utf8)) }) { $1 })
    }
}
