import ArgumentParser
import DCECommandLine

/// `dce-validate preview`: the process becomes `dce-preview`, installed beside `dce-validate`, so that validating
/// never links an HTTP server.
struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a schema's form on 127.0.0.1, live as a person types into it (runs dce-preview).",
        discussion: """
            Every argument goes to dce-preview, installed beside dce-validate: 'dce-validate preview --help' lists \
            its options. It prints 'preview: http://127.0.0.1:PORT/' first and serves until Ctrl-C or SIGTERM \
            (exit 0). Exit status 2: usage, a schema that does not compile, or a port that cannot be had.
            """)

    @Argument(parsing: .captureForPassthrough, help: "The arguments of dce-preview.")
    var arguments: [String] = []

    func run() throws {
        try Companion.preview.handOver(arguments, as: "dce-validate preview")
    }
}
