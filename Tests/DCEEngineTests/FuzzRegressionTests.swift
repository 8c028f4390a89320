import DCEEngine
import Foundation
import Testing

/// Every input in Fixtures/fuzz-regressions/<target>/ (found by scripts/fuzz, or written as a known-hostile case)
/// goes through the same entry point as the fuzzer and gets a verdict.
struct FuzzRegressionTests {
    private func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let directory = Fixtures.fixtures.appendingPathComponent("fuzz-regressions/\(target)")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, try [UInt8](Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    @Test func jsonReaderInputs() throws {
        let cases = try inputs("json")
        #expect(!cases.isEmpty)
        for (name, bytes) in cases {
            do {
                let document = try JSONDocument(bytes: bytes)
                #expect(document.position(of: document.root).line >= 1, "\(name)")
            } catch {
                #expect(!error.message.isEmpty, "\(name)")
            }
        }
    }

    @Test func schemaInputsAreRefusedWithProblems() throws {
        let cases = try inputs("schema")
        #expect(!cases.isEmpty)
        for (name, bytes) in cases {
            #expect(throws: SchemaError.self, "\(name)") { try Validator(source: .documents(["fuzz": bytes])) }
        }
    }

    @Test func validateInputsGetAnInvalidVerdict() throws {
        let cases = try inputs("validate")
        #expect(!cases.isEmpty)
        let prepared = try Fixtures.validator.prepare("card-create")
        for (name, bytes) in cases {
            let report = prepared.validate(json: bytes)
            #expect(!report.valid, "\(name)")
            #expect(report.errors.allSatisfy { !$0.message.isEmpty && $0.line != nil }, "\(name)")
        }
    }
}
