package import Foundation

/// The words of a layer above the engine, in each language it ships: a report's summary line, a command's labels, a
/// form's group titles. They are not the engine's: an app that only validates does not carry them in its catalogues.
///
/// A book is a folder of a target's resources with one file per language, `<language>.json`, holding `language` and
/// `terms` (key to text, with `{placeholders}` and `key.one` for the singular as in a ``MessageCatalogue``).
package struct TermBook: Sendable {
    /// The terms by language.
    let languages: [String: [String: String]]

    /// Reads every `<language>.json` of a folder; a file that is not a book fails the read, naming the file.
    ///
    /// - Parameter folder: The folder, as `Bundle.module` gives it.
    /// - Throws: ``ValidatorError`` (`invalidCatalogue`) for a file that is not `language` and `terms` of strings.
    package init(folder: URL) throws(ValidatorError) {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
        } catch {
            throw ValidatorError(
                code: .invalidCatalogue, message: "cannot read the terms in '\(folder.path)'", cause: error)
        }
        var languages: [String: [String: String]] = [:]
        for file in files {
            func notABook(_ cause: (any Error)?) -> ValidatorError {
                ValidatorError(
                    code: .invalidCatalogue,
                    message: "'\(file.lastPathComponent)' is not a book of terms ('language' and 'terms' of strings)",
                    cause: cause)
            }
            let bytes: [UInt8]
            do {
                bytes = Array(try Data(contentsOf: file))
            } catch {
                throw notABook(error)
            }
            let read = try MessageCatalogue.sections(of: bytes, "terms", or: notABook)
            guard let language = read.language, let terms = read.sections["terms"] else { throw notABook(nil) }
            languages[language] = terms
        }
        self.languages = languages
    }

    /// A target's book, in the folder `Terms` of its resources: empty when the folder cannot be read (each book's
    /// test reads it whole), so that a phrase then shows its key rather than stopping a program.
    ///
    /// - Parameter folder: `Bundle.module.url(forResource: "Terms", withExtension: nil)`.
    /// - Returns: The book.
    package static func bundled(_ folder: URL?) -> TermBook {
        folder.flatMap { try? TermBook(folder: $0) } ?? TermBook(languages: [:])
    }

    private init(languages: [String: [String: String]]) { self.languages = languages }

    /// The languages the book has, and the keys of each.
    package var keysByLanguage: [String: Set<String>] { languages.mapValues { Set($0.keys) } }

    /// A term as ``MessageCatalogue/adding(_:)`` would give it, without making the catalogue: the catalogue's own,
    /// else the book's in the catalogue's language, else in English; `nil` when none has it.
    package func term(_ key: String, in catalogue: MessageCatalogue) -> String? {
        catalogue.terms[key] ?? languages[catalogue.language]?[key] ?? languages["en"]?[key]
    }
}

extension MessageCatalogue {
    /// This catalogue with a layer's terms: in the catalogue's language where the book has it, else in English. A
    /// term the catalogue has already stays (an app's or a user's own catalogue may word a tool's phrases too), and
    /// a phrase and its singular (`key.one`) come from the same language.
    ///
    /// - Parameter book: The layer's terms.
    /// - Returns: The catalogue, its messages unchanged.
    package func adding(_ book: TermBook) -> MessageCatalogue {
        let own = book.languages[language] ?? [:]
        let english = book.languages["en"] ?? [:]
        var terms = self.terms
        func base(_ key: String) -> String { key.hasSuffix(".one") ? String(key.dropLast(4)) : key }
        for (key, text) in own where terms[key] == nil { terms[key] = text }
        for (key, text) in english where terms[key] == nil {
            let stem = base(key)
            if self.terms[stem] != nil || own[stem] != nil { continue }
            terms[key] = text
        }
        return MessageCatalogue(language: language, templates: templates, terms: terms)
    }
}
