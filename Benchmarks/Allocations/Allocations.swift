// Heap allocations per payload on the engine's API paths, counted by ordo-one/benchmark's malloc interposer (retains
// are not: scripts/allocations says why). Counts, unlike times on a shared 2-core machine, are the same on every run
// of the same build: scripts/allocations checks them against Benchmarks/Thresholds, and ./scripts/test fails when one
// changes. Each iteration is one payload, so a figure is a count per payload.
import Benchmark
import DCEEngine
import DCEModels
import Foundation

/// The repository's root, from this file's place in it.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func example(_ name: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Examples/\(name)").path) else {
        fatalError("Benchmarks/Allocations: cannot read Examples/\(name)")
    }
    return Array(data)
}

/// A card-create request breaking four rules: a currency not in ISO 4217, a PIN with a letter, a mobile number
/// without its country code, a city with digits.
private let fourViolations = Array(
    """
    {"programName":"SKRILL-PHYSICAL-MC-EEA","currency":"EURO","mobile":"0888123456","cardPin":"12a4",
     "deliveryAddress":{"address1":"Tsarigradsko Shose 73","city":"Sofia 1000","countryCode":"BG","postalCode":"1000"}}
    """.utf8)

let benchmarks: @Sendable () -> Void = {
    // Counts are exact: any rise at the 90th percentile is a regression.
    let exact = BenchmarkThresholds(absolute: BenchmarkThresholds.Absolute.strict)
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(1),
        maxIterations: 2_000,
        thresholds: [.mallocCountTotal: exact])

    let validator: Validator
    let prepared: PreparedSchema
    do {
        validator = try Validator()
        prepared = try validator.prepare("card-create")
    } catch {
        fatalError("Benchmarks/Allocations: cannot prepare card-create: \(error)")
    }
    let valid = example("card-create/valid-eu-physical.json")
    guard let validDocument = try? JSONDocument(bytes: valid),
        let invalidDocument = try? JSONDocument(bytes: fourViolations),
        prepared.validate(invalidDocument).errors.count == 4, prepared.validate(validDocument).valid,
        let request = try? JSONDecoder().decode(CardRequest.self, from: Data(valid))
    else { fatalError("Benchmarks/Allocations: the payloads are not what the benchmarks say") }

    // Generic over the result, so that nothing boxes it (a closure returning `Any` allocated for every report).
    func measure<Result>(_ name: String, _ validate: @escaping @Sendable () -> Result) {
        Benchmark(name) { _ in blackHole(validate()) }
    }
    measure("valid-parsed-isValid") { prepared.isValid(validDocument) }
    measure("valid-parsed-validate") { prepared.validate(validDocument) }
    measure("valid-bytes-isValid") { prepared.isValid(json: valid) }
    measure("valid-bytes-validate") { prepared.validate(json: valid) }
    measure("valid-typed-validate") { try? validator.validate(request) }
    measure("fourViolations-parsed-isValid") { prepared.isValid(invalidDocument) }
    measure("fourViolations-parsed-validate") { prepared.validate(invalidDocument) }
    measure("fourViolations-bytes-validate") { prepared.validate(json: fourViolations) }
}
