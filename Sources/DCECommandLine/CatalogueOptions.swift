package import ArgumentParser

/// `--catalogue URL --catalogue-key FILE [--catalogue-cache DIR]`: the schemas a gateway serves, its signed catalogue,
/// instead of `--schemas DIR` or the bundled schemas. `dce-validate` takes them and hands them to `dce-send catalogue`,
/// which fetches and checks the catalogue (networking and crypto stay out of `dce-validate`).
package struct CatalogueOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Take the schemas from the signed catalogue the gateway at this URL serves, as apps get them (needs --catalogue-key).",
            valueName: "url"))
    package var catalogue: String?

    @Option(
        help: ArgumentHelp(
            "The gateway's signing.pub (32 raw bytes, as dce-gateway --keys writes it): the catalogue's signature must verify against it.",
            valueName: "file"))
    package var catalogueKey: String?

    @Option(
        help: ArgumentHelp(
            "Where the last good catalogue is kept for offline runs (default: $XDG_CACHE_HOME/dce-validate/HOST, else ~/.cache/dce-validate/HOST).",
            valueName: "dir"))
    package var catalogueCache: String?

    package init() {}

    /// Checks that the options go together: `--catalogue` with its key and without `--schemas` (the command's schema
    /// directory, if it has one), the other two only with `--catalogue`.
    package func check(schemas: String? = nil) throws {
        guard catalogue != nil else {
            if catalogueKey != nil || catalogueCache != nil {
                throw ValidationError("--catalogue-key and --catalogue-cache go with --catalogue URL.")
            }
            return
        }
        if catalogueKey == nil {
            throw ValidationError(
                "--catalogue needs --catalogue-key FILE: the gateway's signing.pub, which the catalogue's signature must verify against."
            )
        }
        if schemas != nil { throw ValidationError("Take the schemas from --schemas or from --catalogue, not both.") }
    }

    /// The options as given, for `dce-send catalogue`.
    package var arguments: [String] {
        [("--catalogue", catalogue), ("--catalogue-key", catalogueKey), ("--catalogue-cache", catalogueCache)]
            .flatMap { name, value in value.map { [name, $0] } ?? [] }
    }
}
