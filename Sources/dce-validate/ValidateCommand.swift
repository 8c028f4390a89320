import ArgumentParser
import DCEBatchInput
import DCECommandLine
import DCEEngine
import DCEFingerprint
import DCEReports
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON payloads against a schema (the default command).",
        discussion: """
            PAYLOAD is a JSON file, '-' for standard input, a directory (every *.json below it), or a quoted glob \
            ('fixtures/**/*.json'). With --ndjson each file (or standard input) holds one payload per line \
            (directories: *.ndjson and *.jsonl files), reported by line number.

            Several reports in one run: each --output belongs to the --format before it; one format may go to \
            standard output.

            Examples:
              dce-validate Examples/card-create/invalid-format-currency.json --schema card-create
              Examples/card-create/invalid-format-currency.json:3:15: error: /currency: Currency must be an ISO 4217 currency code [format]
              invalid: 1 payload checked against card-create, 0 valid, 1 invalid, 1 error

              dce-validate 'fixtures/**/*.json' --schema card-create --format text --format junit --output junit.xml \
            --format sarif --output results.sarif
            """
    )

    @Argument(
        help: ArgumentHelp("JSON payload files, directories or globs; '-' reads standard input.", valueName: "payload"))
    var payloads: [String]

    @Option(help: ArgumentHelp("The schema id (a file name in the schema directory, without .json).", valueName: "id"))
    var schema: String

    @Option(
        help: ArgumentHelp(
            "A directory of schema files (default: the schemas shipped with dce-validate).", valueName: "dir"))
    var schemas: String?

    @OptionGroup var catalogue: CatalogueOptions

    @OptionGroup var call: CallOptions

    @OptionGroup var language: LanguageOption

    @Option(
        help: ArgumentHelp(
            "Check only the fields of this dataGroup (one step of a form); repeat for several. Conditions still read the whole payload.",
            valueName: "group"))
    var dataGroup: [String] = []

    @Option(
        help: ArgumentHelp(
            "Check only this field, by its JSON Pointer (/deliveryAddress/postalCode); repeat for several.",
            valueName: "pointer"))
    var field: [String] = []

    @Option(
        help: ArgumentHelp(
            "Give each rejected value a keyed fingerprint (HMAC-SHA256 with the key in this file, at least 16 bytes) so two rejected values can be told apart; never the value.",
            valueName: "file"))
    var fingerprintKey: String?

    @Flag(help: "Read each payload file (or standard input) as NDJSON: one payload per line.")
    var ndjson = false

    @Option(
        name: .customLong("with"),
        help: ArgumentHelp(
            "Another document the schema's existsIn references point into, as SCHEMA-ID=FILE (card-arts-response=arts.json); repeat for several. Without it, those references are not checked.",
            valueName: "id=file"))
    var related: [String] = []

    @Option(
        help: ArgumentHelp(
            "Validate each payload as an update of this stored record, a merge patch (absent: kept, null: removed, arrays replaced whole): fields with updatesAllowed false may not change, changes needing reverification are listed, unchanged values are not failed.",
            valueName: "file"))
    var original: String?

    @Flag(
        help:
            "With --original: each payload is the whole new record, not a merge patch (a member it leaves out is removed)."
    )
    var replace = false

    @Flag(
        help: ArgumentHelp(
            "Attach each failing payload's masked copy (as `mask` prints it, never the payload) to the junit report (the suite's system-out) and the sarif report (the first result's properties.maskedPayload)."
        ))
    var attachMasked = false

    @Option(help: ArgumentHelp("How many payloads to validate at once (default: one per core).", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "The most errors listed per payload (default 200); every report says how many more there were.",
            valueName: "n"))
    var maxErrors = 200

    @Option(
        help: ArgumentHelp(
            "A report format: text, json, junit, sarif or github; repeat for several reports.", valueName: "format"))
    var format: [ReportFormat] = []

    @Option(
        help: ArgumentHelp(
            "Write the report of the --format before it to this file instead of standard output.", valueName: "file"))
    var output: [String] = []

    func validate() throws {
        guard !payloads.isEmpty else {
            throw ValidationError("Give at least one payload file, or '-' for standard input.")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a positive number.") }
        if maxErrors < 1 { throw ValidationError("--max-errors takes a positive number.") }
        if !dataGroup.isEmpty && !field.isEmpty {
            throw ValidationError("Select by --data-group or by --field, not both.")
        }
        if replace && original == nil {
            throw ValidationError("--replace says how to read an update: give the stored record with --original.")
        }
        try catalogue.check(schemas: schemas)
        _ = try ContextOption.parse(call.contexts)
        do {
            _ = try OutputTarget.pairs(formats: format, outputs: output, arguments: CommandLine.arguments)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The documents given with `--with`, read and parsed: a file that cannot be read, or is not well-formed JSON, is
    /// an error naming the file (and the line and column).
    private func relatedDocuments() throws -> [String: JSONDocument] {
        var documents: [String: JSONDocument] = [:]
        for (id, path) in try ContextOption.parse(related, option: "--with", example: "card-arts-response=arts.json") {
            let bytes = try PayloadFile.read(path)
            do {
                documents[id] = try JSONDocument(bytes: bytes)
            } catch {
                throw DiagnosticError(
                    "\(path):\(error.position.line):\(error.position.column): not well-formed JSON: \(error.message)")
            }
        }
        return documents
    }

    func run() throws {
        let context = try ContextOption.parse(call.contexts)
        let choice = try SchemaChoice(catalogue: catalogue, schemas: schemas, ids: [schema])
        let validator = choice.validator
        let prepared: PreparedSchema
        do {
            // Checks the call once (schema, contexts, tender type) so that every payload gets a report.
            let messages = try language.catalogue()
            let whole = try validator.prepare(schema, context: context, tenderType: call.tenderType, messages: messages)
            let step =
                !dataGroup.isEmpty
                ? try whole.restricted(to: .dataGroups(dataGroup))
                : !field.isEmpty ? try whole.restricted(to: .fields(field)) : whole
            let limited = try step.limitingErrors(to: maxErrors).relating(relatedDocuments())
            if let fingerprintKey {
                let key = try PayloadFile.read(fingerprintKey)
                do {
                    prepared = limited.fingerprinting(with: try HMACFingerprinter(key: Data(key)))
                } catch {
                    throw DiagnosticError("\(fingerprintKey): a fingerprint key needs at least 16 bytes")
                }
            } else {
                prepared = limited
            }
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        let targets: [OutputTarget]
        do {
            targets = try OutputTarget.pairs(formats: format, outputs: output, arguments: CommandLine.arguments)
                .map { try OutputTarget(format: $0.0, path: $0.1) }
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        var runner = BatchRunner(prepared: prepared, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        runner.attachMasked = attachMasked
        if let original {
            do {
                runner.original = try PayloadFile.read(original)
                runner.replacing = replace
            } catch {
                Diagnostics.error("\(error)")
                throw ExitStatus.failure
            }
        }
        let options = ReportOptions(
            timestamp: Self.timestamp(), maxErrors: maxErrors, messages: prepared.messages,
            catalogueVersion: choice.catalogueVersion)
        let summary = runner.run(PayloadInputs(arguments: payloads, ndjson: ndjson), targets: targets, options: options)
        if let failure = summary.writeFailure {
            Diagnostics.error(failure)
            throw ExitStatus.failure
        }
        if targets.contains(where: { $0.format == .github }) {
            try StepSummary.write(summary, schema: schema, options: options)
        }
        if summary.unreadable > 0 { throw ExitStatus.failure }
        throw summary.invalid == 0 ? ExitStatus.valid : ExitStatus.invalid
    }

    /// Now in UTC as `YYYY-MM-DDThh:mm:ss`, the form the JUnit XSD accepts. Formatted from the C library's broken-
    /// down time: a `DateFormatter` would load ICU's data, a millisecond of every run's start.
    static func timestamp(_ now: time_t = time(nil)) -> String {
        var seconds = now
        var utc = tm()
        gmtime_r(&seconds, &utc)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(utc.tm_year + 1900)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))T\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec))"
    }
}

extension ReportFormat: ExpressibleByArgument {}

/// Appends a Markdown summary to `$GITHUB_STEP_SUMMARY`, in the run's language: GitHub shows at most ten annotations
/// per step and drops the rest, so the step summary lists what the annotations may not.
enum StepSummary {
    static func write(_ summary: BatchRunner.Summary, schema: String, options: ReportOptions) throws {
        guard let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return }
        let messages = options.messages
        var text = "### dce-validate: \(schema)\n\n"
        text += messages.runCounts(
            schema: schema, catalogue: options.catalogueVersion, payloads: summary.payloads, invalid: summary.invalid,
            errors: summary.errors, omitted: summary.omittedErrors)
        text += "\n\n"
        if summary.firstErrors.count > 0 {
            let columns = ["payload", "line", "path", "rule", "message"].map { messages.phrase("step." + $0) }
            text += "| " + columns.joined(separator: " | ") + " |\n|---|---|---|---|---|\n"
            for (file, violations) in summary.firstErrors.lists {
                for violation in violations {
                    let cells = [
                        file, violation.line.map(String.init) ?? "", violation.path, violation.rule.rawValue,
                        violation.message,
                    ]
                    text +=
                        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ")
                        + " |\n"
                }
            }
            if summary.errors > summary.firstErrors.count {
                text += "\n" + messages.phrase("step.more", count: summary.errors - summary.firstErrors.count) + "\n"
            }
        }
        // Appended (O_APPEND): other steps write to the same file.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        let failure = descriptor < 0 ? errno : Descriptor.writeAll(descriptor, text + "\n")
        if descriptor >= 0 { close(descriptor) }
        if let failure {
            Diagnostics.error("cannot write the step summary to '\(path)': \(Descriptor.reason(failure))")
            throw ExitStatus.failure
        }
    }
}
