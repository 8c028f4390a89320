import ArgumentParser
import DCECommandLine
import DCEEngine
import Foundation

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe a schema's form: fields in order, grouped by dataGroup, with what a screen needs to show them.",
        discussion: """
            Example:
              dce-validate describe --schema payment-account --tender-type credit --format text
            """
    )

    @OptionGroup var target: SchemaCallOptions

    @Option(help: "The output format: json or text.")
    var format: TextOrJSON = .text

    func run() throws {
        let context = try target.context()
        let validator = try target.validator()
        guard let compiled = validator.schema(target.schema) else { throw ExitStatus.failure }
        let form: FormDescription
        do {
            form = try compiled.describeForm(context: context, tenderType: target.call.tenderType)
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
                lines.append("  \(field.label) (\(field.path)): " + notes.joined(separator: ", "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
