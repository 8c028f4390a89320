import DCETestSupport
import Foundation
import Testing

/// Every documented error case of the command-line tools gives a message a person can act on the first time: it
/// starts with the command's name and `error:`, names what the user gave, says what to do where there is something
/// to do, and shows no build path, Swift type or enum case.
struct ErrorMessageTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        /// Parts of what the message says (its first line starts with the command's name and `error: `).
        var says: [String]
        var testDescription: String { "dce-validate " + arguments.joined(separator: " ") }
    }

    static let valid = "Examples/card-create/valid-eu-virtual.json"

    static let cases: [Case] = [
        Case(
            arguments: [valid, "--schema", "card-creat"], status: 2,
            says: ["no schema with id 'card-creat' among the bundled schemas (did you mean 'card-create'?)"]),
        Case(
            arguments: [valid, "--schema", "card-create", "--schemas", "Tests/no-such-folder"], status: 2,
            says: ["no schema with id 'card-create' in '", "no-such-folder', which does not exist"]),
        Case(
            arguments: [valid], status: 2, says: ["Missing expected argument '--schema <id>'", "Usage: dce-validate"]),
        Case(
            arguments: [valid, "--schema", "card-create", "--format", "xml"], status: 2,
            says: ["'xml'", "'text', 'json', 'junit', 'sarif' or 'github'"]),
        Case(
            arguments: [valid, "--schema", "card-create", "--context", "region"], status: 2,
            says: ["--context takes KEY=VALUE, such as region=US; got 'region'"]),
        Case(arguments: [valid, "--schema", "card-create", "--bogus"], status: 2, says: ["Unknown option '--bogus'"]),
        Case(
            arguments: [valid, "--schema", "card-create", "--format", "junit", "--output", "/no-such-folder/r.xml"],
            status: 2, says: ["cannot write the junit report to '/no-such-folder/r.xml': No such file or directory"]),
        Case(
            arguments: ["check-input", "--schema", "payment-account", "--field", "cardNumber", "4111"], status: 2,
            says: ["schema 'payment-account' has no field at 'cardNumber' (did you mean '/cardNumber'?)"]),
        Case(
            arguments: ["check-input", "--schema", "payment-account", "--field", "/billingAddress/zipCod", "4"],
            status: 2, says: ["has no field at '/billingAddress/zipCod' (did you mean '/billingAddress/zipCode'?)"]),
        Case(
            arguments: [
                "check-input", "--schema", "card-create", "--field", "/cardNumber", "--draft", "no-draft.json",
                "4111",
            ],
            status: 2, says: ["no-draft.json"]),
        Case(arguments: ["describe", "--schema", "card-creat"], status: 2, says: ["did you mean 'card-create'?"]),
        Case(
            arguments: ["export", "--schema", "card-create", "--to", "yaml"], status: 2, says: ["'yaml'"]),
        Case(
            arguments: ["lint", "no-such-folder"], status: 2,
            says: ["cannot list the schema directory", "no-such-folder"]),
        Case(
            arguments: ["mask", "no-such-payload.json", "--schema", "card-create"], status: 2,
            says: ["no-such-payload.json"]),
        Case(
            arguments: ["send", valid, "--schema", "card-create", "--gateway-keys", "no-such-keys"], status: 2,
            says: [
                "no-such-keys/encryption.pub': No such file or directory",
                "--gateway-keys",
            ]),
    ]

    @Test(arguments: cases)
    func saysWhatWentWrongAsAPersonReadsIt(_ error: Case) throws {
        let result = try CLI.run(error.arguments)
        #expect(result.status == error.status, "\(result.err)")
        let first = result.err.split(separator: "\n").first.map(String.init) ?? ""
        let command = error.arguments.first == "send" ? "dce-validate send" : "dce-validate"
        #expect(first.hasPrefix("\(command): error: "), "\(result.err)")
        for part in error.says { #expect(result.err.contains(part), "\(result.err)") }
        Self.expectNothingInternal(result.err)
    }

    @Test func anUnreachableGatewayIsNamedWithoutSwiftsEnumText() throws {
        let scratch = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gateway = try GatewayProcess(in: scratch)
        let keys = gateway.keys
        gateway.stop()
        let result = try CLI.run([
            "send", Self.valid, "--schema", "card-create", "--gateway", "http://127.0.0.1:9", "--gateway-keys",
            keys.path, "--timeout", "2",
        ])
        #expect(result.status == 3)
        #expect(result.err.hasPrefix("dce-validate send: error: the gateway at http://127.0.0.1:9 could not be used: "))
        #expect(result.err.contains("it could not be reached ("))
        Self.expectNothingInternal(result.err)
    }

    @Test func helpNamesTheCommandAsTyped() throws {
        let send = try CLI.run(["send", "--help"])
        #expect(send.out.contains("USAGE: dce-validate send <payload>"), "\(send.out)")
        let gateway = try CLI.run(
            ["--help"], executable: GatewayProcess.executable("dce-gateway").path)
        let threads = gateway.out.components(separatedBy: "--validation-threads").dropFirst().first ?? ""
        let option = threads.components(separatedBy: "\n  --").first ?? ""
        #expect(option.components(separatedBy: "default:").count == 2, "one default shown: \(option)")
        let usage = try CLI.run(["--help"])
        #expect(usage.out.contains("text|json|junit|sarif|github"), "\(usage.out)")
    }

    /// No build path, Foundation error dump, Swift type or enum case.
    static func expectNothingInternal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for fragment in ["/.build", "Error Domain=", "NSCocoaErrorDomain", "UserInfo=", "Optional(", "Swift.", "(\""] {
            #expect(!text.contains(fragment), "\(fragment) in: \(text)", sourceLocation: sourceLocation)
        }
    }
}
