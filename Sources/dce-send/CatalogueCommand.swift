import ArgumentParser
import DCEBatchInput
import DCEClient
import DCECommandLine
import DCEEnvelope
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `dce-send catalogue`: the gateway's schema catalogue, refreshed as an app refreshes it (`SchemaCatalogue`: signature
/// against the pinned key, expiry, versions only forward, the last good one kept on disk), its verified body printed
/// on standard output. `dce-validate --catalogue` runs it and reads that body from a pipe, so that a CI job validates
/// against exactly what apps are served without `dce-validate` linking networking or crypto.
struct CatalogueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dce-send catalogue",
        abstract:
            "Print the gateway's schema catalogue once its signature, expiry and version are checked (what dce-validate --catalogue runs).",
        discussion: """
            The catalogue is fetched from GET <url>/v1/schemas and taken only if its signature verifies against \
            --catalogue-key, it has not expired, it is not older than the one cached (a rollback) and it compiles; \
            then it is cached. When the gateway cannot be reached or its catalogue is refused, the cached one is \
            used if it still holds, with a note on standard error. Exit status: 0 the body printed; 2 usage or an \
            unreadable key; 3 no catalogue (refused or out of reach, and none valid cached).
            """)

    @OptionGroup var options: CatalogueOptions

    @Option(help: "Seconds to wait for the gateway.")
    var timeout: Double = 10

    func validate() throws {
        try options.check()
        guard options.catalogue != nil else { throw ValidationError("Give the gateway's URL with --catalogue.") }
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout takes a positive number of seconds.")
        }
    }

    func run() async throws {
        let (url, key, cache) = try inputs()
        let shown = Self.shown(url)
        let catalogue: SchemaCatalogue
        do {
            catalogue = try SchemaCatalogue(baseURL: url, signingKey: key, storage: cache, timeout: timeout)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        let cacheProblem = await catalogue.storageProblem
        let refusal: String?
        switch await catalogue.refresh() {
        case .updated, .notModified: refusal = nil
        case .kept(let reason): refusal = reason
        case .expired(let version, let at): refusal = "catalogue \(version) expired at \(Self.time(at))"
        case .notNewer(let offered, let inForce):
            refusal =
                "catalogue \(offered) is not newer than catalogue \(inForce) in the cache (versions only move forward)"
        }
        guard let body = await catalogue.body, let contents = try? CatalogueBody(json: body) else {
            let cached = cacheProblem ?? "none is cached in \(cache.path)"
            Diagnostics.error("no catalogue to validate against: from \(shown): \(refusal ?? "none served"); \(cached)")
            throw ExitStatus.unavailable
        }
        if let refusal {
            Diagnostics.warning("the catalogue of \(shown) is not used: \(refusal)")
            Diagnostics.note(
                "using catalogue \(contents.version) from the cache in \(cache.path) (it expires at \(Self.time(contents.expires)))"
            )
        } else if let problem = await catalogue.storageProblem {
            Diagnostics.warning("\(problem); the next run without the gateway has no catalogue")
        }
        guard let failure = body.withUnsafeBytes({ Descriptor.writeAll(STDOUT_FILENO, $0) }) else { return }
        Diagnostics.error("cannot write the catalogue to standard output: \(Descriptor.reason(failure))")
        throw ExitStatus.failure
    }

    /// The gateway's URL, its pinned key and the cache directory, or exit status 2 with the reason.
    private func inputs() throws -> (URL, Data, URL) {
        guard let text = options.catalogue, let url = URL(string: text), url.scheme == "http" || url.scheme == "https",
            url.host != nil
        else {
            Diagnostics.error("--catalogue must be an http or https URL, such as https://gateway.example.com")
            throw ExitStatus.failure
        }
        let keyPath = options.catalogueKey ?? ""
        // As every other file the tools read: a regular file only (a FIFO or a device would block), bounded.
        let limit = 64
        let key: [UInt8]
        do {
            key = try PayloadFile.read(keyPath, limit: limit)
        } catch {
            Diagnostics.error("cannot read the catalogue key '\(keyPath)': \(error.reason)")
            throw ExitStatus.failure
        }
        guard key.count == 32 else {
            let size = key.count > limit ? "more than \(limit)" : "\(key.count)"
            Diagnostics.error(
                "'\(keyPath)' is not an Ed25519 public key: 32 raw bytes, as dce-gateway writes signing.pub (it has \(size) bytes)"
            )
            throw ExitStatus.failure
        }
        guard let cache = options.catalogueCache.map({ URL(fileURLWithPath: $0) }) ?? Self.defaultCache(for: url) else {
            Diagnostics.error(
                "no cache directory for the catalogue: give --catalogue-cache DIR (neither XDG_CACHE_HOME nor HOME is set)"
            )
            throw ExitStatus.failure
        }
        return (url, Data(key), cache)
    }

    /// `$XDG_CACHE_HOME/dce-validate/<host>[_port][_path]`, or under `~/.cache` when that is not set: one directory a
    /// gateway, so that two gateways' catalogues never meet.
    static func defaultCache(for url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL?
    {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
        } else {
            return nil
        }
        let parts =
            [url.host ?? ""] + (url.port.map { [String($0)] } ?? []) + url.path.split(separator: "/").map(String.init)
        let name = String(
            parts.joined(separator: "_").unicodeScalars.map { scalar -> Character in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        return base.appendingPathComponent("dce-validate").appendingPathComponent(name)
    }

    /// The URL as diagnostics show it: without a user name or password, which CI logs must not carry.
    private static func shown(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the gateway" }
        components.user = nil
        components.password = nil
        return components.string ?? "the gateway"
    }

    private static func time(_ date: Date) -> String { UTCTimestamp.string(from: date) ?? "\(date)" }
}
