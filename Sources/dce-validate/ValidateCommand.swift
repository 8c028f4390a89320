public import ArgumentParser
import DCEEngine
import Foundation

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON payloads against a schema (the default command).",
        discussion: """
            Example:
              dce-validate Examples/card-create/invalid-format-currency.json --schema card-create
              Examples/card-create/invalid-format-currency.json:3:15: error: /currency: Currency must be an ISO 4217 currency code [format]
              invalid: 1 payload checked against card-create, 0 valid, 1 invalid, 1 error
            """
    )

    @Argument(help: ArgumentHelp("JSON payload files; '-' reads standard input.", valueName: "payload"))
    var payloads: [String]

    @Option(help: ArgumentHelp("The schema id (a file name in the schema directory, without .json).", valueName: "id"))
    var schema: String

    @Option(help: ArgumentHelp("A directory of schema files (default: the schemas shipped with dce-validate).", valueName: "dir"))
    var schemas: String?

    @Option(
        name: .customLong("context"),
        help: ArgumentHelp("A context value, such as region=US; repeat for several.", valueName: "key=value"))
    var contexts: [String] = []

    @Option(help: ArgumentHelp("The tender type (payment type) whose overrides apply.", valueName: "type"))
    var tenderType: String?

    @Option(help: "The report format: text or json.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard !payloads.isEmpty else { throw ValidationError("Give at least one payload file, or '-' for standard input.") }
        _ = try parsedContext()
    }

    func run() throws {
        let context = try parsedContext()
        let source: SchemaSource = schemas.map { .directory(URL(fileURLWithPath: $0)) } ?? .bundled
        let validator: Validator
        do {
            validator = try Validator(source: source, schemaIDs: [schema])
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        var reports: [PayloadReport] = []
        var unreadable = false
        for path in payloads {
            let bytes: [UInt8]
            do {
                bytes = try PayloadFile.read(path)
            } catch {
                Diagnostics.error("\(error)")
                unreadable = true
                continue
            }
            do {
                let report = try validator.validate(json: bytes, schema: schema, context: context, tenderType: tenderType)
                reports.append(PayloadReport(file: path, report: report))
            } catch {
                Diagnostics.error("\(error)")
                throw ExitStatus.failure
            }
        }
        let run = ValidationRun(schema: schema, payloads: reports)
        let rendered = format.render(run)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(rendered.utf8)) else {
                Diagnostics.error("cannot write the report to '\(output)'")
                throw ExitStatus.failure
            }
        } else {
            FileHandle.standardOutput.write(Data(rendered.utf8))
        }
        if unreadable { throw ExitStatus.failure }
        throw run.valid ? ExitStatus.valid : ExitStatus.invalid
    }

    private func parsedContext() throws -> [String: String] {
        var context: [String: String] = [:]
        for entry in contexts {
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

extension ReportFormat: ExpressibleByArgument {}
