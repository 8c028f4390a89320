import ArgumentParser
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

            dce-validate PAYLOAD... --schema ID [--schemas DIR] [--context KEY=VALUE]... [--tender-type TYPE] \
            [--format text|json] [--output FILE]

            Exit status: 0 every payload valid; 1 at least one payload invalid; \
            2 usage error, unknown schema, broken schema, unreadable payload, or a report that cannot be written; \
            3 (send only) the gateway could not be reached or answered something invalid.
            Run 'dce-validate help validate' for every option.
            """,
        subcommands: [ValidateCommand.self, LintCommand.self, ExportCommand.self, SchemasCommand.self, DescribeCommand.self, SendCommand.self],
        defaultSubcommand: ValidateCommand.self
    )

    /// Parses and runs the command, mapping ArgumentParser's own exit statuses (64 for usage errors, 1 for
    /// uncaught errors) onto the documented ones.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            Diagnostics.write(fullMessage(for: error) + "\n")
            Foundation.exit(ExitStatus.failure.rawValue)
        }
    }
}
