import ArgumentParser
import DCECommandLine
import DCEEngine
import DCEExport
import Foundation

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a schema as an equivalent JSON Schema (2020-12) for one context and tender type.",
        discussion: """
            Contexts given with --context are fixed in the export; contexts left out follow the schema's derive \
            rules. What JSON Schema cannot express is listed in the document's $comment.

            Example:
              dce-validate export --schema card-create --to json-schema --context region=US --output card-create.us.json
            """
    )

    enum Target: String, ExpressibleByArgument, CaseIterable {
        case jsonSchema = "json-schema"
    }

    @OptionGroup var target: SchemaCallOptions

    @Option(help: "The export format: json-schema.")
    var to: Target

    @Option(help: ArgumentHelp("Write the JSON Schema to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let context = try target.context()
        let validator = try target.validator()
        guard let compiled = validator.schema(target.schema) else { throw ExitStatus.failure }
        let export: JSONSchemaExport
        do {
            export = try compiled.exportJSONSchema(context: context, tenderType: target.call.tenderType)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        guard let output else { return try StandardOutput.write(export.json) }
        let file: OutputFile
        switch OutputFile.create(output) {
        case .success(let created): file = created
        case .failure(let reason):
            Diagnostics.error("cannot write the export to '\(output)': \(reason)")
            throw ExitStatus.failure
        }
        var json = export.json
        let failure = json.withUTF8 { file.write(UnsafeRawBufferPointer($0)) } ?? file.finishWriting() ?? file.install()
        if let failure {
            file.discard()
            Diagnostics.error("cannot write the export to '\(output)': \(Descriptor.reason(failure))")
            throw ExitStatus.failure
        }
    }
}
