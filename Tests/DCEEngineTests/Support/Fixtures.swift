import DCEEngine
import Foundation

/// Paths of the repository and the test fixtures, found from this file so tests run from any directory.
enum Fixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
    static let repository = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let schemas = repository.appendingPathComponent("Schemas")
    static let examples = repository.appendingPathComponent("Examples")

    /// The validator over the repository's schemas, compiled once for all tests.
    static let validator: Validator = {
        do {
            return try Validator(source: .directory(schemas))
        } catch {
            fatalError("the shipped schemas must compile: \(error)")
        }
    }()

    /// A validator over in-memory schema documents.
    static func validator(_ documents: [String: String]) throws -> Validator {
        try Validator(source: .documents(documents.mapValues { Array($0.utf8) }))
    }

    /// The problems of one in-memory schema document `s`, as `code: message`; empty when it loads.
    static func problems(of schema: String) -> [String] {
        do {
            _ = try validator(["s": schema])
            return []
        } catch let error as SchemaError {
            return error.problems.map { "\($0.code): \($0.message)" }
        } catch {
            return ["\(error)"]
        }
    }

    /// Validates JSON text against a shipped schema.
    static func validate(
        _ json: String, schema: String, context: [String: String] = [:], tenderType: String? = nil
    ) throws -> ValidationReport {
        try validator.validate(json: Array(json.utf8), schema: schema, context: context, tenderType: tenderType)
    }
}

extension ValidationReport {
    /// `rule@path` for each error, for compact assertions.
    var summary: [String] { errors.map { "\($0.rule)@\($0.path)" } }
}
