package import ArgumentParser
package import DCEEngine
import Foundation

/// `--context KEY=VALUE` and `--tender-type`: how a call names the context and payment type it validates for.
package struct CallOptions: ParsableArguments {
    @Option(
        name: .customLong("context"),
        help: ArgumentHelp("A context value, such as region=US; repeat for several.", valueName: "key=value"))
    package var contexts: [String] = []

    @Option(help: ArgumentHelp("The tender type (payment type) whose overrides apply.", valueName: "type"))
    package var tenderType: String?

    package init() {}
}

/// `--context KEY=VALUE` parsing, shared by the commands that take contexts.
package enum ContextOption {
    /// Reads `KEY=VALUE` entries (split at the first `=`) of an option, `--context` unless named otherwise; a
    /// malformed entry is quoted in the error unless `quoting` is off (an option that may carry a sensitive value).
    package static func parse(
        _ entries: [String], option: String = "--context", example: String = "region=US", quoting: Bool = true
    ) throws -> [String: String] {
        var context: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError(
                    "\(option) takes KEY=VALUE, such as \(example)\(quoting ? "; got '\(entry)'" : "").")
            }
            let key = String(entry[..<equals])
            guard context[key] == nil else { throw ValidationError("\(option) \(key) is given twice.") }
            context[key] = String(entry[entry.index(after: equals)...])
        }
        return context
    }
}

/// Builds the validator for `--schemas` (or schemas from elsewhere), mapping schema problems to exit status 2.
package enum SchemaOption {
    package static func validator(directory: String?, ids: [String]?) throws -> Validator {
        try validator(source: directory.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled, ids: ids)
    }

    package static func validator(source: SchemaSource, ids: [String]?) throws -> Validator {
        do {
            return try Validator(source: source, schemaIDs: ids)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
    }
}
