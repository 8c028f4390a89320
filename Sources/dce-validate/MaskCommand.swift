import ArgumentParser
import DCEBatchInput
import DCECommandLine
import DCEEngine

struct MaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mask",
        abstract:
            "Print a copy of a payload that is safe to show: sensitive values masked or withheld as the schema marks them.",
        discussion: """
            A value of a field marked pciEncryptionRequired or storageRestricted becomes "\(PreparedSchema.withheldMarker)"; a \
            maskingRequired one is masked for display: a card number in its brand's groups with only its last four \
            digits shown (•••• •••• •••• 1111), other text with its last four characters shown only when it has 12 or \
            more; a card number in any other field is masked the same way, and a member the schema does not know is \
            withheld. Everything else is printed as it came, \
            byte for byte. The payload need not be valid, but it must be well-formed JSON: otherwise nothing is \
            printed, the error gives line and column, and the exit status is 2.

            Examples:
              dce-validate mask payment.json --schema payment-account
              cat request.json | dce-validate mask - --schema card-create
            """
    )

    @OptionGroup var target: SchemaCallOptions

    @Argument(help: ArgumentHelp("The payload file, or - for standard input.", valueName: "file"))
    var file: String

    func run() throws {
        let prepared = try target.prepared()
        let bytes: [UInt8]
        do {
            bytes = try PayloadFile.read(file)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        let copy: [UInt8]
        do {
            copy = try prepared.masked(json: bytes)
        } catch {
            Diagnostics.error(
                "\(file):\(error.position.line):\(error.position.column): not well-formed JSON, nothing printed: \(error.message)"
            )
            throw ExitStatus.failure
        }
        try StandardOutput.write(String(decoding: copy, as: UTF8.self))
    }
}
