package import Foundation

/// The words of a layer above the engine, in each language it ships: a report's summary line, a command's labels, a
/// form's group titles. They are not the engine's: an app that only validates does not carry them in its catalogues.
///
/// A book is a folder of a target's resources with one file per language, `<language>.json`, holding `language` and
/// `terms` (key to text, with `{placeholders}` and `key.one` for the singular as in a ``MessageCatalogue``). A
/// language's file is read when a catalogue of that language asks for it (``MessageCatalogue/adding(_:)``), with
/// English's: a run in one language reads two small files of each book, not every language's.
package struct TermBook: Sendable {
    /// The folder; `nil` when the target's resources have none (every phrase then shows its key).
    let folder: URL?

    /// The book in a folder, as `Bundle.module.url(forResource: "Terms", withExtension: nil)` gives it.
    package init(folder: URL?) { self.folder = folder }

    /// The languages the book has: its files' names.
    ///
    /// - Throws: ``ValidatorError`` (`invalidCatalogue`) when the folder cannot be read.
    package func languages() throws(ValidatorError) -> [String] {
        guard let folder else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        } catch {
            throw ValidatorError(
                code: .invalidCatalogue, message: "cannot read the terms in '\(folder.path)'", cause: error)
        }
    }

    /// The terms in one language; `nil` when the book has no file for it.
    ///
    /// - Throws: ``ValidatorError`` (`invalidCatalogue`) for a file that is not `language` (this one) and `terms` of
    ///   strings.
    package func terms(in language: String) throws(ValidatorError) -> [String: String]? {
        guard let folder, !language.contains("/"), !language.hasPrefix(".") else { return nil }
        let file = folder.appendingPathComponent(language + ".json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
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
        guard read.language == language, let terms = read.sections["terms"] else { throw notABook(nil) }
        return terms
    }
}

extension MessageCatalogue {
    /// This catalogue with a layer's terms: in the catalogue's language where the book has it, else in English. A
    /// term the catalogue has already stays (an app's or a user's own catalogue may word a tool's phrases too), and
    /// a phrase and its singular (`key.one`) come from the same language. A book that cannot be read adds nothing
    /// (its test reads each book whole), so that a phrase then shows its key rather than stopping a program.
    ///
    /// - Parameter book: The layer's terms.
    /// - Returns: The catalogue, its messages unchanged.
    package func adding(_ book: TermBook) -> MessageCatalogue {
        let own = (try? book.terms(in: language)).flatMap { $0 } ?? [:]
        let english = language == "en" ? [:] : (try? book.terms(in: "en")).flatMap { $0 } ?? [:]
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
