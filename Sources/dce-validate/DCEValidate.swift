import ArgumentParser
import DCECommandLine
import DCEEngine
import Foundation

@main
struct DCEValidate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dce-validate",
        abstract: "Validate card and wallet request payloads against metadata schemas.",
        discussion: """
            Examples:
              dce-validate Examples/card-create/valid-eu-virtual.json --schema card-create
              dce-validate payload.json --schema card-create --context region=US --format json
              cat payload.json | dce-validate - --schema card-tokenize --context scheme=VISA
              dce-validate fixtures --schema card-create --catalogue https://gateway.example.com --catalogue-key signing.pub

            dce-validate PAYLOAD... --schema ID [--schemas DIR | --catalogue URL --catalogue-key FILE] \
            [--context KEY=VALUE]... [--tender-type TYPE] [--format text|json|junit|sarif|github [--output FILE]]...

            Exit status: 0 every payload valid; 1 at least one payload invalid; \
            2 usage error, unknown schema, broken schema, unreadable payload, or a report that cannot be written; \
            3 send: the gateway could not be reached or answered something invalid; --catalogue: no catalogue to \
            validate against (the served one refused or out of reach, and none valid cached).
            Run 'dce-validate help validate' for every option.
            """,
        version: DCEVersion.current,
        subcommands: [
            ValidateCommand.self, LintCommand.self, ExportCommand.self, SchemasCommand.self, DescribeCommand.self,
            CheckInputCommand.self, MaskCommand.self, CompatCommand.self, GenerateCommand.self, SendCommand.self,
            PreviewCommand.self,
        ],
        defaultSubcommand: ValidateCommand.self
    )

    /// Hands `send` over to `dce-send` and `preview` to `dce-preview` before any parsing (so that
    /// `dce-validate send --help` shows dce-send's options),
    /// then parses and runs the command with the documented exit statuses.
    static func main() async {
        let arguments = CommandLine.arguments
        let companions = ["send": Companion.send, "preview": Companion.preview]
        if arguments.count > 1, let companion = companions[arguments[1]] {
            do {
                try companion.handOver(Array(arguments.dropFirst(2)), as: "dce-validate \(arguments[1])")
            } catch {
                Foundation.exit(ExitStatus.failure.rawValue)
            }
        }
        await runMappingExitStatuses()
    }
}
