import ArgumentParser
import DCEBatchInput
import DCECommandLine
import DCEEngine
import DCEForms
import Foundation

/// `dce-validate check-input`: one field's partial input judged as a form judges it on every keystroke, from a
/// terminal or a script. The value never appears in the output, and `-` reads it from standard input so that a card
/// number need not appear in the process list.
struct CheckInputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-input",
        abstract:
            "Judge one field's partial input: valid, incomplete (more characters can still make it valid) or invalid.",
        discussion: """
            The value is never printed. Give - to read it from standard input (one trailing line break is dropped), \
            so that a card number does not appear in the process list.

            For a card number (format card-number) the output names its brand as soon as the digits typed decide it, \
            with its security code's name and length, and (in JSON) the number masked in the brand's groups with at \
            most the last four digits shown. Spaces and dashes in a card number are formatting, not errors.

            --given POINTER=VALUE says what another field already holds, so that the rules reading it apply: in an \
            address, the postal code follows the pattern of the given country (and the prefix of the given state), \
            and the state the country's subdivisions. A given value is never printed either, but it is in the \
            process list: give no sensitive field's value this way.

            --draft FILE gives what the form holds so far, as a JSON payload (- reads it from standard input, \
            then the value must be given as an argument): the value typed replaces the draft's value at --field (a \
            new item for -), and the draft is validated whole, so that every rule validation applies at the field \
            applies while it is typed: overrides reading other fields, contexts derived from the payload, what \
            fields above bind, ignoreForProvisioning and the address rules. The verdict is valid exactly when \
            validating the draft finds no error of the field's own there; errors elsewhere (fields not filled in \
            yet) do not count. --draft and --given cannot be used together: put the given values in the draft.

            Exit status: 0 valid, 1 incomplete or invalid, 2 usage (unknown schema, field, context or tender type).

            Examples:
              printf '4111' | dce-validate check-input --schema payment-account --tender-type credit --field /cardNumber -
              dce-validate check-input --schema delivery-address --field /postalCode --given /countryCode=BG 100
              dce-validate check-input --schema customer-profile --field /paymentAccounts/0/cardNumber \
                --draft draft.json 6035
            """
    )

    @OptionGroup var target: SchemaCallOptions

    @Option(
        help: ArgumentHelp(
            "The field's JSON Pointer (/billingAddress/zipCode; an item of a list by index or -).", valueName: "pointer"
        ))
    var field: String

    @Option(
        help: ArgumentHelp(
            "What another field already holds, such as /countryCode=BG, so that rules reading it apply; repeat for several.",
            valueName: "pointer=value"))
    var given: [String] = []

    @Option(
        help: ArgumentHelp(
            "What the form holds so far, as a JSON payload file (- for standard input), validated whole with the value in place.",
            valueName: "file"))
    var draft: String?

    @Option(help: "The output format: json or text.")
    var format: TextOrJSON = .text

    @OptionGroup var language: LanguageOption

    @Argument(
        help: ArgumentHelp("What has been typed so far, or - to read it from standard input.", valueName: "value"))
    var value: String

    func run() throws {
        let prepared = try target.prepared(language: language)
        let messages = prepared.messages
        let others = try ContextOption.parse(given, option: "--given", example: "/countryCode=BG", quoting: false)
        if draft != nil && !given.isEmpty {
            Diagnostics.error("--draft and --given cannot be used together: put the given values in the draft")
            throw ExitStatus.failure
        }
        if draft == "-" && value == "-" {
            Diagnostics.error(
                "--draft - and the value - cannot both read standard input: give the value as an argument")
            throw ExitStatus.failure
        }
        let text = try typed()
        let draftDocument = try draft.map(Self.readDraft)
        let feedback: InputFeedback
        do {
            if let draftDocument {
                feedback = try prepared.inputFeedback(text, at: field, draft: draftDocument)
            } else {
                feedback = try prepared.inputFeedback(text, at: field, given: others)
            }
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        let (state, rule): (String, ViolationCode?) =
            switch feedback.verdict {
            case .valid: ("valid", nil)
            case .incomplete: ("incomplete", nil)
            case .invalid(let rule): ("invalid", rule)
            }
        let brand = feedback.cardBrand
        switch format {
        case .json:
            var members = [#""field":\#(Self.quoted(field))"#, #""state":"\#(state)""#]
            if let rule { members.append(#""rule":"\#(rule.rawValue)""#) }
            if let brand {
                members.append(#""brand":\#(Self.quoted(brand.id))"#)
                members.append(
                    #""securityCode":{"name":\#(Self.quoted(brand.securityCodeName)),"length":\#(brand.securityCodeLength)}"#
                )
            }
            if let candidates = feedback.cardBrands {
                members.append(#""brands":["# + candidates.map { Self.quoted($0.id) }.joined(separator: ",") + "]")
            }
            if let masked = feedback.masked { members.append(#""masked":\#(Self.quoted(masked))"#) }
            try StandardOutput.write("{" + members.joined(separator: ",") + "}\n")
        case .text:
            let brandText =
                brand.map {
                    " ("
                        + messages.phrase(
                            "input.brand",
                            ["brand": $0.name, "code": $0.securityCodeName, "count": String($0.securityCodeLength)])
                        + ")"
                } ?? ""
            try StandardOutput.write(
                "\(field): \(messages.phrase("input." + state))\(rule.map { " [\($0.rawValue)]" } ?? "")\(brandText)\n")
        }
        throw feedback.verdict == .valid ? ExitStatus.valid : ExitStatus.invalid
    }

    /// The value as given, or standard input without one trailing line break; text that is not UTF-8 is a usage
    /// error whose message says so and nothing of the bytes.
    private func typed() throws -> String {
        guard value == "-" else { return value }
        var bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            Diagnostics.error("standard input is not UTF-8 text")
            throw ExitStatus.failure
        }
        return text
    }

    /// The draft file as a document; a file that cannot be read, or is not JSON, is a usage error naming the file
    /// (and the line and column where the JSON breaks), never its content.
    private static func readDraft(_ path: String) throws -> JSONDocument {
        let bytes: [UInt8]
        do {
            bytes = try PayloadFile.read(path)
        } catch {
            Diagnostics.error("--draft: \(error)")
            throw ExitStatus.failure
        }
        do {
            return try JSONDocument(bytes: bytes)
        } catch {
            Diagnostics.error(
                "\(path):\(error.position.line):\(error.position.column): the draft is not well-formed JSON: \(error.message)"
            )
            throw ExitStatus.failure
        }
    }

    /// A JSON string of a pointer, a brand's names or a masked number (never a value as typed).
    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
