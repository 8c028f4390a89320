import DCEEngine
import DCEGateway
import DCETestSupport
import Foundation
import Testing

@testable import DCEClient

/// `--catalogue URL --catalogue-key FILE`: payloads checked against the signed catalogue a real `dce-gateway` serves,
/// as apps get it; offline from the cache; expired, older and foreign-signed catalogues refused.
@Suite(.serialized)
struct CatalogueOptionTests {
    /// Valid under the bundled schemas; its program name (21 characters) breaks the served `maxLength` of 5.
    static let payload = "Examples/card-create/valid-eu-virtual.json"

    /// `dce-validate PAYLOAD --schema card-create --catalogue URL --catalogue-key KEY --catalogue-cache CACHE` and more.
    private func validate(_ url: URL, key: URL, cache: URL?, _ more: [String] = [], environment: [String: String] = [:])
        throws -> CLI.Result
    {
        try CLI.run(
            [Self.payload, "--schema", "card-create", "--catalogue", url.absoluteString, "--catalogue-key", key.path]
                + (cache.map { ["--catalogue-cache", $0.path] } ?? []) + more,
            environment: environment)
    }

    @Test func theServedRulesApplyAndEveryReportNamesTheCatalogue() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(
            in: scratch,
            options: ["--schemas", try stricterSchemas(in: scratch).path, "--catalogue-version", "2026.11.10"])
        defer { gateway.stop() }
        let cache = scratch.appendingPathComponent("cache")

        #expect(try CLI.run([Self.payload, "--schema", "card-create"]).status == 0)
        let text = try validate(gateway.url, key: gateway.signingKey, cache: cache)
        #expect(text.status == 1, "\(text.err)")
        #expect(text.out.contains("/programName: Program name must be at most 5 characters (it has 21) [maxLength]"))
        #expect(
            text.out.contains(
                "invalid: 1 payload checked against card-create (catalogue 2026.11.10), 0 valid, 1 invalid, 1 error"))
        #expect(text.err.isEmpty, "\(text.err)")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("schema-catalogue").path))

        // What dce-validate reads from dce-send: the body the gateway signed, byte for byte.
        let printed = try CLI.run(
            [
                "catalogue", "--catalogue", gateway.url.absoluteString, "--catalogue-key", gateway.signingKey.path,
                "--catalogue-cache", cache.path,
            ],
            executable: GatewayProcess.executable("dce-send").path)
        #expect(printed.status == 0, "\(printed.err)")
        #expect(printed.stdout == (try Data(contentsOf: gateway.url.appendingPathComponent("v1/schemas"))))

        let json = try validate(gateway.url, key: gateway.signingKey, cache: cache, ["--format", "json"])
        #expect(json.out.hasPrefix(#"{"schema":"card-create","catalogue":"2026.11.10","payloads":["#), "\(json.out)")

        let junit = scratch.appendingPathComponent("r.xml")
        let sarif = scratch.appendingPathComponent("r.sarif")
        let summary = scratch.appendingPathComponent("summary.md")
        let reports = try validate(
            gateway.url, key: gateway.signingKey, cache: cache,
            [
                "--format", "junit", "--output", junit.path, "--format", "sarif", "--output", sarif.path, "--format",
                "github",
            ],
            environment: ["GITHUB_STEP_SUMMARY": summary.path])
        #expect(reports.status == 1, "\(reports.err)")
        #expect(
            try String(contentsOf: junit, encoding: .utf8).contains(#"<property name="catalogue" value="2026.11.10"/>"#)
        )
        #expect(try String(contentsOf: sarif, encoding: .utf8).contains(#""properties":{"catalogue":"2026.11.10"}"#))
        #expect(
            try String(contentsOf: summary, encoding: .utf8).contains(
                "checked against card-create (catalogue 2026.11.10)"))
        #expect(try CLI.checkReports("junit", [junit]).status == 0)
        #expect(try CLI.checkReports("sarif", [sarif]).status == 0)

        // The commands that take one schema take it from the catalogue too.
        let catalogue = [
            "--catalogue", gateway.url.absoluteString, "--catalogue-key", gateway.signingKey.path, "--catalogue-cache",
            cache.path,
        ]
        let input = ["check-input", "--schema", "card-create", "--field", "/programName", "SKRILL-VIRTUAL-MC-EEA"]
        #expect(try CLI.run(input).status == 0)
        let served = try CLI.run(input + catalogue)
        #expect(served.status == 1, "\(served.err)")
        #expect(served.out.contains("[maxLength]"))
        #expect(try CLI.run(["schemas"] + catalogue).out.contains("card-create"))
    }

    @Test func aCatalogueSignedByAnotherGatewayIsRefused() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(in: scratch)
        defer { gateway.stop() }
        let otherKey = scratch.appendingPathComponent("other-signing.pub")
        try Gateway.Keys.generate().signingPublicKey.write(to: otherKey)
        let cache = scratch.appendingPathComponent("cache")

        let result = try validate(gateway.url, key: otherKey, cache: cache)
        #expect(result.status == 3)
        #expect(result.err.contains("dce-validate: error: no catalogue to validate against"), "\(result.err)")
        #expect(
            result.err.contains("the catalogue's signature does not verify against the pinned key"), "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("schema-catalogue").path))
    }

    @Test func offlineTheCachedCatalogueIsUsedWithANote() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(
            in: scratch, options: ["--schemas", try stricterSchemas(in: scratch).path, "--catalogue-version", "7"])
        defer { gateway.stop() }
        // Without --catalogue-cache: $XDG_CACHE_HOME/dce-validate/<host>_<port>.
        let environment = ["XDG_CACHE_HOME": scratch.appendingPathComponent("xdg").path]
        let online = try validate(gateway.url, key: gateway.signingKey, cache: nil, environment: environment)
        #expect(online.status == 1, "\(online.err)")
        let cache = scratch.appendingPathComponent("xdg/dce-validate/127.0.0.1_\(gateway.url.port ?? 0)")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("schema-catalogue").path))
        gateway.stop()

        let offline = try validate(gateway.url, key: gateway.signingKey, cache: nil, environment: environment)
        #expect(offline.status == 1, "\(offline.err)")
        #expect(offline.out.contains("[maxLength]"))
        #expect(offline.out.contains("checked against card-create (catalogue 7)"))
        #expect(
            offline.err.contains(
                "warning: the catalogue of \(gateway.url.absoluteString) is not used: the gateway cannot be reached"),
            "\(offline.err)")
        #expect(
            offline.err.contains("note: using catalogue 7 from the cache in \(cache.path) (it expires at "),
            "\(offline.err)")

        let nothing = try validate(gateway.url, key: gateway.signingKey, cache: scratch.appendingPathComponent("empty"))
        #expect(nothing.status == 3)
        #expect(nothing.err.contains("cannot be reached"), "\(nothing.err)")
        #expect(nothing.err.contains("none is cached in"), "\(nothing.err)")
        #expect(nothing.out.isEmpty)
    }

    @Test func anExpiredCachedCatalogueIsRefused() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = Gateway.Keys.generate()
        let key = scratch.appendingPathComponent("signing.pub")
        try keys.signingPublicKey.write(to: key)
        let cache = scratch.appendingPathComponent("cache")
        try store(
            try Gateway.catalogue(
                try SchemaSource.bundled.documents(), version: "5", expires: Date(timeIntervalSinceNow: -3_600),
                signingKey: keys.signing),
            in: cache)

        let result = try validate(URL(string: "http://127.0.0.1:9")!, key: key, cache: cache)
        #expect(result.status == 3)
        #expect(result.err.contains("the stored catalogue is not used: catalogue 5 expired at "), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test func anOlderServedCatalogueIsRefusedAndTheNewerCachedOneUsed() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(in: scratch, options: ["--catalogue-version", "1"])
        defer { gateway.stop() }
        let cache = scratch.appendingPathComponent("cache")
        let signing = try Data(contentsOf: gateway.keys.appendingPathComponent("signing.key"))
        let stricter = try SchemaSource.directory(try stricterSchemas(in: scratch)).documents()
        try store(
            try Gateway.catalogue(
                stricter, version: "2", expires: Date(timeIntervalSinceNow: 86_400), signingKey: signing), in: cache)

        let result = try validate(gateway.url, key: gateway.signingKey, cache: cache)
        #expect(result.status == 1, "\(result.err)")
        #expect(result.out.contains("[maxLength]"))
        #expect(result.out.contains("(catalogue 2)"))
        #expect(
            result.err.contains("is not used: catalogue 1 is not newer than catalogue 2 in the cache"), "\(result.err)")
        #expect(result.err.contains("note: using catalogue 2 from the cache"), "\(result.err)")
    }

    @Test(arguments: [
        (["--catalogue", "http://127.0.0.1:9"], "--catalogue needs --catalogue-key FILE"),
        (
            ["--catalogue", "http://127.0.0.1:9", "--catalogue-key", "Package.swift", "--schemas", "Schemas"],
            "from --schemas or from --catalogue, not both"
        ),
        (["--catalogue-key", "Package.swift"], "--catalogue-key and --catalogue-cache go with --catalogue URL"),
        (
            ["--catalogue", "http://127.0.0.1:9", "--catalogue-key", "Package.swift"],
            "is not an Ed25519 public key: 32 raw bytes"
        ),
        (
            ["--catalogue", "http://127.0.0.1:9", "--catalogue-key", "no-such-key.pub"],
            "cannot read the catalogue key 'no-such-key.pub'"
        ),
        (
            ["--catalogue", "gateway.example.com", "--catalogue-key", "Package.swift"],
            "--catalogue must be an http or https URL"
        ),
    ])
    func catalogueOptionsThatDoNotGoTogetherAreUsageErrors(options: [String], message: String) throws {
        for command in [[Self.payload], ["mask", Self.payload]] {
            let result = try CLI.run(command + ["--schema", "card-create"] + options)
            #expect(result.status == 2, "\(command): \(result.err)")
            #expect(result.err.contains(message), "\(command): \(result.err)")
            #expect(result.out.isEmpty)
        }
    }

    /// A key path that names a FIFO nobody writes to is refused at once, as every file the tools read: opening it
    /// would block the run for ever.
    @Test func aCatalogueKeyThatIsNotARegularFileIsRefusedWithoutWaiting() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("signing.pub").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try CLI.run(
            [Self.payload, "--schema", "card-create", "--catalogue", "http://127.0.0.1:9", "--catalogue-key", fifo],
            timeout: 30)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("cannot read the catalogue key '\(fifo)': it is a FIFO"), "\(result.err)")
    }

    /// Schemas/ with card-create's program name limited to 5 characters.
    private func stricterSchemas(in scratch: URL) throws -> URL {
        let folder = scratch.appendingPathComponent("stricter")
        try FileManager.default.copyItem(at: CLI.repository.appendingPathComponent("Schemas"), to: folder)
        let file = folder.appendingPathComponent("card-create.json")
        let stricter = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #""key": "programName","#, with: #""key": "programName", "maxLength": 5,"#)
        try Data(stricter.utf8).write(to: file)
        return folder
    }

    /// Writes a signed catalogue where the client keeps the last good one, as it would have.
    private func store(_ catalogue: Gateway.Catalogue, in directory: URL) throws {
        try CatalogueStore(directory: directory).save(
            .init(
                body: catalogue.body, signature: Data(base64Encoded: catalogue.signature) ?? Data(),
                etag: catalogue.etag))
    }
}
