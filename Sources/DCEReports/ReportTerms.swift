package import DCEEngine
import Foundation

extension TermBook {
    /// The report formats' words: the summary line's (`summary.*`) and the notes on what a report leaves out
    /// (`report.*`), from `Terms/` of this target's resources.
    package static let reports = TermBook(folder: Bundle.module.url(forResource: "Terms", withExtension: nil))
}

extension MessageCatalogue {
    /// A run's counts in this language, as the text report's last line and the GitHub step summary give them:
    /// `3 payloads checked against card-create, 2 valid, 1 invalid, 1 error` (then how many more were not shown); with
    /// the version of the gateway's catalogue the schema came from, `card-create (catalogue 2026.11.10)`.
    package func runCounts(
        schema: String, catalogue: String? = nil, payloads: Int, invalid: Int, errors: Int, omitted: Int
    ) -> String {
        let checked = catalogue.map { phrase("summary.catalogue", ["schema": schema, "version": $0]) } ?? schema
        var parts = [
            phrase("summary.checked", count: payloads, ["schema": checked]),
            phrase("summary.verdicts", ["valid": String(payloads - invalid), "invalid": String(invalid)]),
            phrase("summary.errors", count: errors),
        ]
        if omitted > 0 { parts.append(phrase("summary.omitted", count: omitted)) }
        return parts.joined(separator: ", ")
    }

}
