import ArgumentParser
import DCECommandLine
import DCEEngine
import DCEForms
import Foundation

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract:
            "Describe a schema's form: fields in order, grouped by dataGroup, with what a screen needs to show them.",
        discussion: """
            --given POINTER=VALUE says what another field already holds: overrides that read it apply or not, and \
            the members of an address follow its given country (which parts it has and requires, what it calls \
            them, example postal codes, the states to choose from).

            Examples:
              dce-validate describe --schema payment-account --tender-type credit --format text
              dce-validate describe --schema delivery-address --given /countryCode=DE
            """
    )

    @OptionGroup var target: SchemaCallOptions

    @Option(
        help: ArgumentHelp(
            "What another field already holds, such as /countryCode=DE, so that rules reading it apply; repeat for several.",
            valueName: "pointer=value"))
    var given: [String] = []

    @Option(help: "The output format: json or text.")
    var format: TextOrJSON = .text

    @OptionGroup var language: LanguageOption

    func run() throws {
        let context = try target.context()
        let others = try ContextOption.parse(given, option: "--given", example: "/countryCode=DE", quoting: false)
        let validator = try target.validator()
        guard let compiled = validator.schema(target.schema) else { throw ExitStatus.failure }
        let form: FormDescription
        let messages: MessageCatalogue
        do {
            messages = try language.catalogue()
            form = try compiled.describeForm(
                context: context, tenderType: target.call.tenderType, given: others, language: messages.language)
        } catch {
            Diagnostics.error("\(error)")
            throw ExitStatus.failure
        }
        let output: String
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            output = String(decoding: try encoder.encode(form), as: UTF8.self) + "\n"
        case .text:
            output = Self.text(form, messages: messages)
        }
        try StandardOutput.write(output)
    }

    /// The form for a person, in the catalogue's language: a line for the schema, then each data group and its fields.
    static func text(_ form: FormDescription, messages: MessageCatalogue) -> String {
        var lines = [
            "\(form.title ?? form.schema) (\(form.schema))"
                + (form.context.isEmpty
                    ? ""
                    : ", "
                        + form.context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                            separator: ", "))
                + (form.tenderType.map { ", " + messages.phrase("describe.tender-type", ["value": $0]) } ?? "")
        ]
        for group in form.groups {
            lines.append(group.dataGroup ?? messages.phrase("describe.no-group"))
            for field in group.fields {
                var notes: [String] = []
                if field.forbidden {
                    notes.append(messages.phrase("describe.hidden"))
                } else {
                    notes.append(
                        messages.phrase(
                            field.required
                                ? "describe.required"
                                : field.conditionallyRequired ? "describe.conditional" : "describe.optional"))
                }
                notes.append(messages.phrase("hint." + field.inputHint))
                switch (field.minLength, field.maxLength) {
                case (let min?, let max?) where min == max: notes.append(messages.phrase("describe.length", count: min))
                case (let min?, let max?):
                    notes.append(messages.phrase("describe.length-range", ["min": String(min), "max": String(max)]))
                case (nil, let max?): notes.append(messages.phrase("describe.at-most", count: max))
                case (let min?, nil): notes.append(messages.phrase("describe.at-least", count: min))
                default: break
                }
                if let options = field.options {
                    notes.append(messages.phrase("describe.one-of", ["options": options.joined(separator: ", ")]))
                }
                if field.masked { notes.append(messages.phrase("describe.masked")) }
                if field.storageRestricted { notes.append(messages.phrase("describe.never-stored")) }
                if field.pciEncryptionRequired { notes.append(messages.phrase("describe.encrypted")) }
                if field.updatesAllowed == false { notes.append(messages.phrase("describe.not-updatable")) }
                if field.reverificationRequired { notes.append(messages.phrase("describe.reverified")) }
                if let address = field.address { notes.append(Self.text(address, messages: messages)) }
                // The address's example is listed with its part already.
                if let text = field.placeholder, text != field.address?.examples?.first {
                    notes.append(messages.phrase("describe.placeholder", ["text": text]))
                }
                if let token = field.autofill { notes.append(messages.phrase("describe.autofill", ["token": token])) }
                lines.append("  \(field.label) (\(field.path)): " + notes.joined(separator: ", "))
                if let help = field.help { lines.append("    " + help) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An address member's note: `postal code of the country at /countryCode`, or what the given country says.
    private static func text(_ address: FormDescription.AddressPart, messages: MessageCatalogue) -> String {
        let part = messages.phrase("part." + address.part)
        guard let country = address.country else {
            return messages.phrase("describe.address.country-at", ["part": part, "path": address.countryPath])
        }
        guard address.used == true else { return messages.phrase("describe.address.unused", ["country": country]) }
        var text = messages.phrase("describe.address.part", ["country": country, "part": part])
        let name = address.name.map {
            messages.phrase((address.part == "state" ? "subdivision." : "postalCodeName.") + $0)
        }
        if let name, name != part { text += " (" + messages.phrase("describe.address.called", ["name": name]) + ")" }
        if let examples = address.examples, let first = examples.first {
            text += ", " + messages.phrase("describe.address.example", ["example": first])
        }
        if let subdivisions = address.subdivisions {
            let shown = subdivisions.prefix(5).map { entry in entry.name.map { "\(entry.key) (\($0))" } ?? entry.key }
            let list = shown.joined(separator: ", ") + (subdivisions.count > 5 ? ", …" : "")
            text +=
                ", " + messages.phrase("describe.address.choices", ["count": String(subdivisions.count), "list": list])
        }
        return text
    }
}
