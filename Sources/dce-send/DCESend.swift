import ArgumentParser
import DCEBatchInput
import DCEClient
import DCECommandLine
import DCECrypto
import DCEEngine
import DCEEnvelope
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `dce-send` (and `dce-validate send`, which runs it): validates one payload, seals its PCI fields and sends the
/// envelope to a gateway. An executable of its own, so that `dce-validate` links neither networking nor crypto.
@main
struct DCESend: AsyncParsableCommand {
    /// Named as the user typed it: `dce-validate send` runs this tool with ``Diagnostics/commandTyped`` set.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Diagnostics.commandTyped ?? "dce-send",
            abstract: "Validate a payload, seal its PCI fields to the gateway's key, and send the envelope.",
            discussion: """
                Nothing is sent unless the payload is valid. The gateway's X25519 public key is read from \
                <keys>/encryption.pub (as written by dce-gateway). Exit status: 0 accepted, 1 invalid here or rejected \
                by the gateway (errors listed), 2 usage or unreadable input, 3 the gateway could not be reached or \
                answered something invalid.

                'dce-send catalogue --help': print the gateway's verified schema catalogue (what dce-validate --catalogue runs).
                """,
            version: DCEVersion.current)
    }

    @Argument(help: ArgumentHelp("The payload file, or '-' for standard input.", valueName: "payload"))
    var payload: String

    @Option(help: ArgumentHelp("The schema id.", valueName: "id"))
    var schema: String

    @Option(help: ArgumentHelp("The gateway's base URL.", valueName: "url"))
    var gateway = "http://127.0.0.1:8080"

    @Option(help: ArgumentHelp("The directory holding the gateway's encryption.pub.", valueName: "dir"))
    var gatewayKeys = ".gateway-keys"

    @Option(help: ArgumentHelp("The gateway key's id.", valueName: "id"))
    var keyID = "gw-1"

    @OptionGroup var call: CallOptions

    @Option(help: "Seconds to wait for the gateway per attempt.")
    var timeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "A file holding the credential presented to the gateway (an API key from 'dce-gateway keys create'; default: $DCE_GATEWAY_CREDENTIAL). It is never printed.",
            valueName: "file"))
    var credentialFile: String?

    /// The credential to present: the file's first line, else `$DCE_GATEWAY_CREDENTIAL`, else none.
    private func readCredential() throws -> String? {
        guard let credentialFile else {
            let variable = ProcessInfo.processInfo.environment["DCE_GATEWAY_CREDENTIAL"] ?? ""
            return variable.isEmpty ? nil : variable
        }
        guard let data = FileManager.default.contents(atPath: credentialFile) else {
            let reason = access(credentialFile, R_OK) == 0 ? "it cannot be read" : Descriptor.reason(errno)
            throw DiagnosticError("cannot read the credential file '\(credentialFile)': \(reason)")
        }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let credential = line.trimmingCharacters(in: .whitespaces)
        guard !credential.isEmpty else {
            throw DiagnosticError("the credential file '\(credentialFile)' is empty")
        }
        return credential
    }

    func run() async throws {
        let validator = try SchemaOption.validator(directory: nil, ids: [schema])
        let built: BuiltRequest
        let url: URL
        var credential: String?
        do {
            guard let parsed = URL(string: gateway), parsed.scheme == "http" || parsed.scheme == "https" else {
                throw DiagnosticError("--gateway must be an http or https URL")
            }
            url = parsed
            let keyFile = URL(fileURLWithPath: gatewayKeys).appendingPathComponent("encryption.pub").path
            guard let key = FileManager.default.contents(atPath: keyFile) else {
                let reason = access(keyFile, R_OK) == 0 ? "it cannot be read" : Descriptor.reason(errno)
                throw DiagnosticError(
                    "cannot read the gateway's public key '\(keyFile)': \(reason) (--gateway-keys names the folder "
                        + "that dce-gateway --keys writes)")
            }
            credential = try readCredential()
            let sealer = try HPKEFieldSealer(gatewayPublicKey: key, keyID: keyID)
            let prepared = try validator.prepare(
                schema, context: try ContextOption.parse(call.contexts), tenderType: call.tenderType)
            built = try prepared.makeRequest(
                json: try PayloadFile.read(payload), requestID: UUID().uuidString, sealer: sealer)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        switch built {
        case .invalid(let report):
            for error in report.errors { print("\(payload): error: \(error.path): \(error.message) [\(error.rule)]") }
            print(
                "not sent: the payload is invalid (\(report.errors.count) error\(report.errors.count == 1 ? "" : "s"))")
            throw ExitStatus.invalid
        case .valid(let request):
            let client = GatewayClient(
                baseURL: url, validator: validator, configuration: .init(timeout: timeout),
                credential: { [credential] in credential })
            do {
                let response = try await client.send(request)
                print(String(decoding: response.json, as: UTF8.self))
            } catch {
                switch error {
                case .rejected(let response):
                    for error in response.errors {
                        print("gateway: error: \(error.path): \(error.message) [\(error.rule)]")
                    }
                    print(
                        "rejected by the gateway (\(response.errors.count) error\(response.errors.count == 1 ? "" : "s"))"
                    )
                    throw ExitStatus.invalid
                case .transport(let failure):
                    Diagnostics.error("the gateway at \(url) could not be used: \(failure); --gateway names another")
                    throw ExitStatus.unavailable
                case .invalidResponse(let reason, _):
                    Diagnostics.error("the gateway at \(url) answered something invalid: \(reason)")
                    throw ExitStatus.unavailable
                }
            }
        }
    }

    /// Runs `dce-send catalogue …` when that is the first word (as `dce-validate` does with `send`), else the send.
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.count > 1 && arguments[1] == "catalogue" {
            await CatalogueCommand.runMappingExitStatuses(arguments: Array(arguments.dropFirst(2)))
        }
        await runMappingExitStatuses()
    }
}
