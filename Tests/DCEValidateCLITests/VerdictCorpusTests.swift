import DCEEngine
import DCETestSupport
import Foundation
import Testing

/// `isValid(json:)` gives `validate(json:)`'s verdict on every payload of both benchmark corpora (card-create and
/// card-tokenize, as `dce-benchmark generate` writes them for `./scripts/benchmark`).
struct VerdictCorpusTests {
    @Test(arguments: ["card-create", "card-tokenize"])
    func theVerdictIsValidatesOnTheBenchmarkCorpus(schema: String) throws {
        let corpus = try CLI.scratchDirectory().appendingPathComponent("corpus.ndjson")
        defer { try? FileManager.default.removeItem(at: corpus.deletingLastPathComponent()) }
        let generated = try CLI.run(
            ["generate", "--schema", schema, "--count", "4000", "--seed", "7", "--out", corpus.path],
            executable: GatewayProcess.executable("dce-benchmark").path)
        #expect(generated.status == 0, "\(generated.err)")
        let prepared = try Validator().prepare(schema)
        var verdicts = (valid: 0, invalid: 0)
        for line in try Data(contentsOf: corpus).split(separator: UInt8(ascii: "\n")) {
            let payload = [UInt8](line)
            let valid = prepared.validate(json: payload).valid
            #expect(prepared.isValid(json: payload) == valid, "\(String(decoding: payload, as: UTF8.self))")
            if valid { verdicts.valid += 1 } else { verdicts.invalid += 1 }
        }
        #expect(verdicts.valid + verdicts.invalid == 4_000 && verdicts.invalid > 1_000 && verdicts.valid > 1_000)
    }
}
