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
    package static func parse(_ entries: [String]) throws -> [String: String] {
        var context: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
                throw ValidationError("--context takes KEY=VALUE, such as region=US; got '\(entry)'.")
            }
            let key = String(entry[..<equals])
            guard context[key] == nil else { throw ValidationError("--context \(key) is given twice.") }
            context[key] = String(entry[entry.index(after: equals)...])
        }
        return context
    }
}

/// Builds the validator for `--schemas`, mapping schema problems to exit status 2.
package enum SchemaOption {
    package static func validator(directory: String?, ids: [String]?) throws -> Validator {
        let source: SchemaSource = directory.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled
        do {
            return try Validator(source: source, schemaIDs: ids)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
    }
}
