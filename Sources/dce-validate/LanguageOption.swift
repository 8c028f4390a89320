import ArgumentParser
import DCEBatchInput
import DCECommandLine
import DCEEngine
import DCEForms
import DCEReports
import Foundation

/// `--language`: the language of what a command prints for people (messages, labels, the summary line, a form's
/// notes), shared by validate, describe and check-input.
struct LanguageOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The language of what is printed: \(MessageCatalogue.bundledLanguages.joined(separator: ", ")) (default en), also as a BCP 47 tag such as de-AT, or a catalogue file (.json).",
            valueName: "language"))
    var language = "en"

    /// The catalogue asked for: a shipped one, or a catalogue file (whose gaps read English), with the words of the
    /// reports, the commands and forms in its language.
    func catalogue() throws -> MessageCatalogue {
        let catalogue =
            language.hasSuffix(".json")
            ? try MessageCatalogue(json: Data(PayloadFile.read(language)))
            : try MessageCatalogue.bundled(language: language)
        return catalogue.adding(.reports).adding(.commandLine).adding(.forms)
    }
}
