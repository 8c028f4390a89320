import ArgumentParser
import DCECommandLine
import DCEEngine
import Foundation

struct SchemasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemas",
        abstract: "List the schemas: every id with its title.",
        discussion: """
            Example:
              dce-validate schemas
              card-create                    Create a prepaid card
            """
    )

    @Option(
        help: ArgumentHelp(
            "A directory of schema files (default: the schemas shipped with dce-validate).", valueName: "dir"))
    var schemas: String?

    @OptionGroup var catalogue: CatalogueOptions

    func validate() throws { try catalogue.check(schemas: schemas) }

    func run() throws {
        let validator = try SchemaChoice(catalogue: catalogue, schemas: schemas, ids: nil).validator
        let ids = validator.schemaIDs
        let width = (ids.map(\.count).max() ?? 0) + 2
        var output = ""
        for id in ids {
            let title = validator.schema(id)?.name ?? ""
            output += id.padding(toLength: max(width, id.count + 1), withPad: " ", startingAt: 0) + title + "\n"
        }
        try StandardOutput.write(output)
    }
}
