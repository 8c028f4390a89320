import ArgumentParser
import DCECommandLine
import DCEEngine
import Foundation

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe a schema's form: fields in order, grouped by dataGroup, with what a screen needs to show them.",
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

    @Option(help: ArgumentHelp(
        "What another field already holds, such as /countryCode=DE, so that rules reading it apply; repeat for several.",
        valueName: "pointer=value"))
    var given: [String] = []

    @Option(help: "The output format: json or text.")
    var format: TextOrJSON = .text

    func run() throws {
        let context = try target.context()
        let others = try ContextOption.parse(given, option: "--given", example: "/countryCode=DE", quoting: false)
        let validator = try target.validator()
        guard let compiled = validator.schema(target.schema) else { throw ExitStatus.failure }
        let form: FormDescription
        do {
            form = try compiled.describeForm(context: context, tenderType: target.call.tenderType, given: others)
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
            output = Self.text(form)
        }
        try StandardOutput.write(output)
    }

    static func text(_ form: FormDescription) -> String {
        var lines = ["\(form.title ?? form.schema) (\(form.schema))"
            + (form.context.isEmpty ? "" : ", " + form.context.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
            + (form.tenderType.map { ", tender type \($0)" } ?? "")]
        for group in form.groups {
            lines.append(group.dataGroup ?? "(no data group)")
            for field in group.fields {
                var notes: [String] = []
                if field.forbidden {
                    notes.append("hidden (must not be sent)")
                } else {
                    notes.append(field.required ? "required" : field.conditionallyRequired ? "required depending on other fields" : "optional")
                }
                notes.append(field.inputHint)
                switch (field.minLength, field.maxLength) {
                case (let min?, let max?) where min == max: notes.append("\(min) character\(min == 1 ? "" : "s")")
                case (let min?, let max?): notes.append("\(min)-\(max) characters")
                case (nil, let max?): notes.append("at most \(max) character\(max == 1 ? "" : "s")")
                case (let min?, nil): notes.append("at least \(min) character\(min == 1 ? "" : "s")")
                default: break
                }
                if let options = field.options { notes.append("one of " + options.joined(separator: ", ")) }
                if field.masked { notes.append("masked") }
                if field.storageRestricted { notes.append("never stored") }
                if field.pciEncryptionRequired { notes.append("encrypted") }
                if field.updatesAllowed == false { notes.append("cannot be updated") }
                if field.reverificationRequired { notes.append("reverified when changed") }
                if let address = field.address { notes.append(Self.text(address)) }
                lines.append("  \(field.label) (\(field.path)): " + notes.joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An address member's note: `postal code of the country at /countryCode`, or what the given country says.
    private static func text(_ address: FormDescription.AddressPart) -> String {
        let part = address.part.replacing(/([A-Z])/) { " " + $0.output.1.lowercased() }
        guard let country = address.country else { return "\(part) of the country at \(address.countryPath)" }
        guard address.used == true else { return "not used in \(country)" }
        var text = "\(country) \(part)"
        if let name = address.name, !part.hasPrefix(name) { text += " (called \(name))" }
        if let examples = address.examples, let first = examples.first { text += ", such as \(first)" }
        if let subdivisions = address.subdivisions {
            let shown = subdivisions.prefix(5).map { entry in entry.name.map { "\(entry.key) (\($0))" } ?? entry.key }
            text += ", one of \(subdivisions.count): " + shown.joined(separator: ", ") + (subdivisions.count > 5 ? ", …" : "")
        }
        return text
    }
}
