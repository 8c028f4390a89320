import ArgumentParser
import DCECommandLine
import DCEEngine

/// `--schema ID`, `--schemas DIR` or `--catalogue URL`, `--context KEY=VALUE`... and `--tender-type TYPE`: the one
/// schema a command works on, where it comes from, and the call it is prepared for (describe, export, check-input,
/// mask).
struct SchemaCallOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The schema id.", valueName: "id"))
    var schema: String

    @Option(
        help: ArgumentHelp(
            "A directory of schema files (default: the schemas shipped with dce-validate).", valueName: "dir"))
    var schemas: String?

    @OptionGroup var catalogue: CatalogueOptions

    @OptionGroup var call: CallOptions

    func validate() throws { try catalogue.check(schemas: schemas) }

    /// The context values given, checked for form (not yet against the schema).
    func context() throws -> [String: String] { try ContextOption.parse(call.contexts) }

    /// The validator with the schema loaded, or exit status 2 with the schema's problems (3 when no catalogue can be
    /// had).
    func validator() throws -> Validator {
        try SchemaChoice(catalogue: catalogue, schemas: schemas, ids: [schema]).validator
    }

    /// The schema prepared for the call (its contexts and tender type checked) in the language asked for, or exit
    /// status 2 with the reason.
    func prepared(language: LanguageOption? = nil) throws -> PreparedSchema {
        let context = try context()
        let validator = try validator()
        do {
            return try validator.prepare(
                schema, context: context, tenderType: call.tenderType, messages: language?.catalogue() ?? .english)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
    }
}

/// `--format json|text` of the commands that print one document.
enum TextOrJSON: String, ExpressibleByArgument, CaseIterable {
    case json
    case text
}
