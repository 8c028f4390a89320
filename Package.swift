// swift-tools-version:6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// PCRE2, the engine's regular expressions: by default the system's libpcre2-8 (pkg-config), as on Linux and macOS with
// Homebrew; compiled from its release source (CPCRE2Source) on the Apple platforms where an app has no system PCRE2 to
// link, and anywhere with the trait PCRE2FromSource. scripts/fetch-pcre2 fetches that source into Vendor/pcre2.
let pcre2SourcePlatforms: [Platform] = [.iOS, .macCatalyst, .tvOS, .watchOS, .visionOS]
let systemPCRE2Platforms: [Platform] = [.linux, .macOS, .windows, .android, .openbsd, .wasi]

let package = Package(
    name: "dce-validate",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "DCEEngine", targets: ["DCEEngine"]),
        .library(name: "DCEForms", targets: ["DCEForms"]),
        .library(name: "DCEModels", targets: ["DCEModels"]),
        // The models of a target's own schemas, generated as it builds (dce-models.json and Schemas/ in the target).
        .plugin(name: "DCEModelsGenerator", targets: ["DCEModelsGenerator"]),
        .library(name: "DCEEnvelope", targets: ["DCEEnvelope"]),
        .library(name: "DCECrypto", targets: ["DCECrypto"]),
        .library(name: "DCEFingerprint", targets: ["DCEFingerprint"]),
        .library(name: "DCELogging", targets: ["DCELogging"]),
        .library(name: "DCEClient", targets: ["DCEClient"]),
        .library(name: "DCEGateway", targets: ["DCEGateway"]),
        .executable(name: "dce-gateway", targets: ["dce-gateway"]),
        .executable(name: "dce-validate", targets: ["dce-validate"]),
        .executable(name: "dce-send", targets: ["dce-send"]),
        .executable(name: "dce-preview", targets: ["dce-preview"]),
    ],
    traits: [
        .trait(name: "SystemPCRE2", description: "Link the system's libpcre2-8 (pkg-config) where there is one."),
        .trait(name: "PCRE2FromSource", description: "Compile PCRE2 from source (scripts/fetch-pcre2) everywhere."),
        .default(enabledTraits: ["SystemPCRE2"]),
    ],
    dependencies: [
        // Only the command-line tool depends on this; the engine stays Foundation + PCRE2.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Field encryption (HPKE, DCECrypto) and keyed fingerprints (DCEFingerprint): never the engine.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The redacting log handler: only DCELogging.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The gateway side and its reference server: only DCEGateway and dce-gateway.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The preview's page (dce-preview only): its shell and pickers rendered from a template.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Hummingbird's own dependency; the gateway runs its database pool with it, the gateway tests stop their loopback
        // servers gracefully with it.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The gateway's shared store (idempotency answers and catalogues for several instances): only DCEGateway.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Bearer JWTs (signatures by JWKS keys): only DCEGateway.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // The gateway's metrics (GET /metrics): only DCEGateway.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Tests only.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // A self-signed certificate for the TLS tests (already built for jwt-kit).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // The documentation (scripts/docs): a command plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .target(
            // Its sources are the files scripts/fetch-pcre2 writes beside include/, one a unit of the library, each
            // #including the unit from Vendor/pcre2; until then it has none, and its header says what to run.
            name: "CPCRE2Source",
            cSettings: [
                .define("HAVE_CONFIG_H"), .define("PCRE2_CODE_UNIT_WIDTH", to: "8"), .define("SUPPORT_PCRE2_8"),
                .define("SUPPORT_UNICODE"), .define("HAVE_MEMMOVE"),
                // Apple forbids an app to write code at run time on iOS and its kin; there PCRE2 interprets.
                .define("SUPPORT_JIT", .when(platforms: [.linux, .macOS])),
            ]
        ),
        .target(
            // No code: it brings CPCRE2Source in under the trait. A dependency has one condition, whose platforms and
            // traits must all hold, and SwiftPM warns of two on one target; DCEPattern's own is the platforms'.
            name: "CPCRE2SourceTrait",
            dependencies: ["CPCRE2Source"]
        ),
        .target(
            name: "DCEPattern",
            dependencies: [
                .target(name: "CPCRE2", condition: .when(platforms: systemPCRE2Platforms, traits: ["SystemPCRE2"])),
                .target(name: "CPCRE2Source", condition: .when(platforms: pcre2SourcePlatforms)),
                .target(name: "CPCRE2SourceTrait", condition: .when(traits: ["PCRE2FromSource"])),
            ],
            // Memory safety checked by the compiler: every unsafe use (PCRE2's pointers) is marked `unsafe` and says
            // why it holds.
            swiftSettings: strictSettings + [
                .strictMemorySafety(),
                .define("DCE_PCRE2_FROM_SOURCE", .when(platforms: pcre2SourcePlatforms)),
                .define("DCE_PCRE2_FROM_SOURCE", .when(traits: ["PCRE2FromSource"])),
            ]
        ),
        .target(
            name: "DCEEngine",
            dependencies: ["DCEPattern"],
            // The schemas are data kept at the top of the repository; they ship inside the engine's bundle.
            // The message catalogues (one JSON file per language) ship the same way.
            resources: [.copy("../../Schemas"), .copy("Messages")],
            // Memory safety checked by the compiler: every unsafe use is in Lowered/, marked `unsafe`, with the
            // invariant it relies on (MemorySafetyTests).
            swiftSettings: strictSettings + [.strictMemorySafety()]
        ),
        .target(
            // Forms in an app: the form a schema describes, the as-you-type checks of a field, FormSession and drafts
            // kept on disk; over the engine's rules in force, which an app that only validates does not compile.
            name: "DCEForms",
            dependencies: ["DCEEngine"],
            // Its words (a form's group titles), one file per language beside the engine's catalogues.
            resources: [.copy("Terms")],
            swiftSettings: strictSettings
        ),
        .target(
            // What a catalogue change breaks (dce-validate compat, the gateway's catalogue reload): tooling on top of
            // the engine, which an app does not link.
            name: "DCECompatibility",
            dependencies: ["DCEEngine", "DCEPattern"],
            swiftSettings: strictSettings
        ),
        .target(
            // The JSON Schema export (dce-validate export, the export differential): tooling on top of the engine.
            name: "DCEExport",
            dependencies: ["DCEEngine", "DCEPattern"],
            swiftSettings: strictSettings
        ),
        .target(
            // The report formats (text, JSON, JUnit, SARIF, GitHub) and their writers: what the tools write, which an
            // app that reads a ValidationReport does not compile.
            name: "DCEReports",
            dependencies: ["DCEEngine"],
            // The words around messages in a report (the summary line, the note on errors left out), per language.
            resources: [.copy("Terms")],
            swiftSettings: strictSettings
        ),
        .target(
            // Keyed fingerprints of rejected values: swift-crypto's HMAC-SHA256, passed to the engine, which links no
            // crypto, as a ValueFingerprinter.
            name: "DCEFingerprint",
            dependencies: ["DCEEngine", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .target(
            // The card and wallet requests and responses of the seeds as Swift types (ValidatableRequest), with Patch
            // and JSONValue: apart from the engine, so that its public surface is what validating needs.
            name: "DCEModels",
            dependencies: ["DCEEngine"],
            swiftSettings: strictSettings
        ),
        .target(
            // The Swift models of a schema folder (dce-validate generate swift, the DCEModelsGenerator plugin): tooling,
            // which an app does not link; the models it writes need only DCEEngine and DCEModels.
            name: "DCESwiftGeneration",
            dependencies: ["DCEEngine"],
            swiftSettings: strictSettings
        ),
        .target(
            // The wire: the envelope an app sends (PDRequest, its sealed fields, the sealing hooks), the gateway's
            // answer (PDResponse) and the signed schema catalogue; what validates does not link what sends.
            name: "DCEEnvelope",
            dependencies: ["DCEEngine"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DCECrypto",
            dependencies: ["DCEEngine", "DCEEnvelope", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DCELogging",
            dependencies: ["DCEEngine", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DCEClient",
            // URLSession (FoundationNetworking on Linux) for HTTP; swift-crypto to check the catalogue's signature.
            dependencies: ["DCEEngine", "DCEEnvelope", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DCEGateway",
            dependencies: [
                // DCEFingerprint: the cards' fingerprints for the card-testing limits; DCECompatibility: a reloaded
                // catalogue that breaks requests is refused; DCEExport: the request schemas in the OpenAPI document.
                "DCEEngine", "DCEEnvelope", "DCECrypto", "DCEFingerprint", "DCECompatibility", "DCEExport",
                "DCEWorkers",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // --tls-cert / --tls-key: the gateway's own TLS where no proxy terminates it.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The signals that begin a drain (Gateway.runService(_:drainingFor:signals:)).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The SQL that creates and migrates the PostgreSQL store's tables, applied in order at start.
            resources: [.copy("Migrations")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "dce-gateway",
            dependencies: [
                "DCEGateway", "DCEEngine", "DCEEnvelope", "DCELogging", "DCECommandLine",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            // The threads that validate off the threads that read and write: the gateway's and dce-validate's
            // batches (Foundation only).
            name: "DCEWorkers",
            swiftSettings: strictSettings
        ),
        .target(
            // Reading payload inputs (files, directories, globs, NDJSON streams) apart from the command, so that a
            // fuzz target can drive the NDJSON reader.
            name: "DCEBatchInput",
            dependencies: ["DCEEngine"],
            swiftSettings: strictSettings
        ),
        .target(
            // What the command-line tools share: diagnostics, exit statuses, --schemas/--context/--catalogue options,
            // main(), and the companions dce-validate hands work to (the catalogue's body is DCEEnvelope's).
            name: "DCECommandLine",
            dependencies: [
                "DCEEngine", "DCEEnvelope", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The commands' words (describe's notes, check-input's verdicts, the step summary, the preview's page),
            // per language.
            resources: [.copy("Terms")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            // Validates and reports; links no networking, so that a run starts fast; swift-crypto only for the keyed
            // fingerprints of --fingerprint-key (DCEFingerprint). `dce-validate send` hands over to dce-send; `--catalogue` runs
            // `dce-send catalogue`, which fetches and checks the signed catalogue, and reads its body (DCEEnvelope).
            name: "dce-validate",
            dependencies: [
                "DCEBatchInput",
                "DCECommandLine",
                "DCECompatibility",
                "DCEEngine",
                "DCEEnvelope",
                "DCEExport",
                "DCEFingerprint",
                "DCEForms",
                "DCEReports",
                "DCESwiftGeneration",
                "DCEWorkers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The fingerprints of the schemas code was generated from (dce-generated.lock).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            // Validates one payload, seals its PCI fields and sends the envelope: URLSession and swift-crypto.
            name: "dce-send",
            dependencies: [
                "DCEBatchInput",
                "DCEClient",
                "DCECommandLine",
                "DCECrypto",
                "DCEEngine",
                "DCEEnvelope",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            // The form preview (dce-validate preview): a loopback HTTP server holding a FormSession per page, and the
            // page itself (a template, plain JavaScript and CSS, served from its resources).
            name: "dce-preview",
            dependencies: [
                "DCECommandLine", "DCEEngine", "DCEForms",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Page")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            // What the DCEModelsGenerator plugin runs: the models of a target's schemas, in one file.
            name: "dce-generate-swift",
            dependencies: ["DCEEngine", "DCESwiftGeneration"],
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "DCEModelsGenerator",
            capability: .buildTool(),
            dependencies: ["dce-generate-swift"]
        ),
        .target(
            // An app's own schemas (Schemas/) and the code it writes with their models, which the plugin generates as
            // the target builds: the generator's fixture, compiled under the package's settings.
            name: "LoyaltyApp",
            dependencies: ["DCEEngine", "DCEModels"],
            path: "Tests/LoyaltyApp",
            exclude: ["Schemas", "dce-models.json"],
            swiftSettings: strictSettings,
            plugins: ["DCEModelsGenerator"]
        ),
        .executableTarget(
            name: "dce-benchmark",
            dependencies: ["DCEEngine", "DCEForms", "DCEModels"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCEPatternTests",
            dependencies: ["DCEPattern"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCEEngineTests",
            dependencies: [
                "DCEEngine", "DCEEnvelope", "DCEModels", "DCECompatibility", "DCEExport", "DCEForms", "DCEReports",
                "DCESwiftGeneration", "LoyaltyApp", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCESecurityTests",
            // Also the sensitive-data tests that span every output: crypto, logs, drafts, reports.
            dependencies: [
                "DCECrypto", "DCETestSupport", "DCEFingerprint", "DCELogging", "DCEEngine", "DCEEnvelope", "DCEGateway",
                "DCEForms", "DCEModels", "DCEReports",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
                // The gateway's routes served on a loopback port, so that what they answer is searched too.
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCEGatewayTests",
            dependencies: [
                "DCEGateway", "DCEWorkers", "DCEClient", "DCECrypto", "DCEEngine", "DCEEnvelope", "DCEForms",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // PostgresStoreTests run several dce-gateway processes on one database and read what it recorded.
                "dce-gateway", "DCETestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            // What several test targets share: a real dce-gateway process (started, killed, stopped) and where the
            // package's executables are built.
            name: "DCETestSupport",
            dependencies: [
                // An identity provider's keys and tokens, signed by hand so that the gateway's JWT checks (jwt-kit) are
                // tested against an implementation of their own, forgeries included.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/DCETestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            // The engine shared by many tasks at once: the engine's suite ThreadSanitizer runs (scripts/test).
            name: "DCEConcurrencyTests",
            dependencies: ["DCEEngine", "DCEForms", "DCEModels", "DCEPattern"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCEBatchInputTests",
            dependencies: ["DCEBatchInput", "DCEEngine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DCEValidateCLITests",
            // Depends on the executables so that they are built before the tests run them (dce-benchmark writes the
            // corpora the verdict is checked on); DCEClient and DCEGateway
            // sign and store catalogues as the gateway and the client would (--catalogue: expired, older).
            dependencies: [
                "DCEClient", "DCEEngine", "DCEEnvelope", "DCEForms", "DCEGateway", "DCEModels", "DCEReports",
                "DCETestSupport",
                "dce-validate",
                "dce-send", "dce-gateway", "dce-preview", "dce-benchmark",
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
    ]
)

// scripts/test builds a part of the package in each phase but --quick, so that each suite is compiled only where it runs:
// DCE_SCOPE=core is the engine and what validates with it (PCRE2, the batch reader, the envelope and the models, the
// tools' layers its suites test) with the engine's suites, where the hand-managed memory is (AddressSanitizer);
// DCE_SCOPE=gateway is the same libraries, the gateway, its server, the client, crypto and logging, with the suites
// where the threads are (ThreadSanitizer): the engine shared by many tasks (DCEConcurrencyTests), the gateway's and the
// security suites. Neither builds the command-line tools, whose suites start them as processes. DCE_SCOPE=tools is
// every target but those suites: the debug build, whose binaries the command-line suites, the browser, the
// integrations and the documentation use.
if let scope = Context.environment["DCE_SCOPE"] {
    let coreLibraries: Set = [
        "CPCRE2", "CPCRE2Source", "CPCRE2SourceTrait", "DCEPattern", "DCEEngine", "DCEModels", "DCEEnvelope",
        "DCECompatibility", "DCEExport", "DCEForms", "DCEReports", "DCEBatchInput",
        // The models generator and its fixture, whose generated types the engine's suites validate.
        "DCESwiftGeneration", "dce-generate-swift", "DCEModelsGenerator", "LoyaltyApp",
    ]
    let engineSuites: Set = ["DCEPatternTests", "DCEEngineTests", "DCEBatchInputTests", "DCEConcurrencyTests"]
    let gatewayLibraries: Set = [
        "DCEFingerprint", "DCECrypto", "DCELogging", "DCEClient", "DCEGateway", "DCEWorkers", "DCECommandLine",
        "dce-gateway",
        "DCETestSupport",
    ]
    let threadSuites: Set = ["DCEConcurrencyTests", "DCESecurityTests", "DCEGatewayTests"]
    let kept: Set<String>
    switch scope {
    case "core": kept = coreLibraries.union(engineSuites)
    case "gateway": kept = coreLibraries.union(gatewayLibraries).union(threadSuites)
    case "tools": kept = Set(package.targets.map(\.name)).subtracting(engineSuites).subtracting(threadSuites)
    default: fatalError("DCE_SCOPE is core, gateway or tools, not '\(scope)'")
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !kept.contains($0.name) }  // each product is its one target, by name
    // Only the packages the kept targets name are resolved: a package's name is the last part of its URL.
    var named: Set<String> = []
    for target in package.targets {
        for case .productItem(_, let name?, _, _) in target.dependencies { named.insert(name.lowercased()) }
    }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        let last = location.split(separator: "/").last.map { $0.lowercased() } ?? location.lowercased()
        return !named.contains(last.hasSuffix(".git") ? String(last.dropLast(4)) : last)
    }
}

// DCE_SANITIZE=thread or address instruments this package's own targets (their Swift and C code, and what links
// them) and leaves its dependencies as the debug build compiled them: so ThreadSanitizer's build in .build compiles
// only this package's code again, not SwiftNIO, Hummingbird, PostgresNIO and BoringSSL (about 12 minutes here).
// Races are found in this package's code and between it and what it calls; the dependencies' own locks are pthread
// mutexes, which ThreadSanitizer intercepts in uninstrumented code too.
if let sanitizer = Context.environment["DCE_SANITIZE"] {
    for target in package.targets where [.regular, .executable, .test].contains(target.type) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=\(sanitizer)"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizer)"])]
    }
}

// The fuzz target exists only for scripts/fuzz: libFuzzer supplies its main(), so an ordinary build must not see it.
// DCE_FUZZ=core builds it without the gateway (and so without SwiftNIO, Hummingbird and the rest the gateway needs),
// for the targets that fuzz the engine, the envelope and the batch reader: what scripts/test --ci runs.
if let fuzz = Context.environment["DCE_FUZZ"] {
    let gateway = fuzz != "core"
    package.products.append(.executable(name: "dce-fuzz", targets: ["dce-fuzz"]))
    package.targets.append(
        .executableTarget(
            name: "dce-fuzz",
            dependencies: ["DCEBatchInput", "DCEEngine", "DCEEnvelope", "DCEForms", "DCEReports"]
                + (gateway ? ["DCEGateway", .product(name: "Logging", package: "swift-log")] : []),
            path: "Fuzz",
            swiftSettings: strictSettings + [.unsafeFlags(["-parse-as-library"])]
                + (gateway ? [.define("DCE_FUZZ_GATEWAY")] : [])
        ))
}

// The allocation benchmarks exist only for scripts/allocations (ordo-one/benchmark counts heap allocations and reference
// counting per payload): an app that depends on this package never resolves that package or its malloc interposer.
if Context.environment["DCE_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "Allocations",
            dependencies: ["DCEEngine", "DCEModels", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Allocations",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}
