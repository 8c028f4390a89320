import ArgumentParser
import DCECommandLine
import DCEEngine
import DCEForms
import Foundation
import Hummingbird
import Logging

/// `dce-preview` (and `dce-validate preview`, which runs it): serves a schema's form on the loopback interface, a
/// `FormModel` per page (the model an app's screen binds to), so that a schema author, a reviewer or QA can look at the form a schema makes and type
/// into it. An executable of its own, so that `dce-validate` links no HTTP server.
@main
struct DCEPreview: AsyncParsableCommand {
    /// Named as the user typed it: `dce-validate preview` runs this tool with ``Diagnostics/commandTyped`` set.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Diagnostics.commandTyped ?? "dce-preview",
            abstract: "Serve a schema's form on 127.0.0.1, live as a person types into it.",
            discussion: """
                Prints 'preview: http://HOST:PORT/' as the first line of standard output once it listens, then serves \
                until Ctrl-C or SIGTERM (exit 0). The page offers every request schema, each language, context, \
                tender type and operation; the URL holds those choices, never a value typed. Values travel only in \
                POST bodies to this server, which keeps them in memory for the page and never logs them.

                Exit status: 2 usage, a schema that does not compile (with lint's problems), a document for --with \
                that cannot be read, or an address that cannot be had; 3 --catalogue: no catalogue.
                """,
            version: DCEVersion.current)
    }

    static func main() async {
        await runMappingExitStatuses()
    }

    @Option(help: ArgumentHelp("The request schema the page shows first.", valueName: "id"))
    var schema: String

    @Option(help: ArgumentHelp("Take the schemas from this folder instead of the bundled ones.", valueName: "dir"))
    var schemas: String?

    @OptionGroup var catalogue: CatalogueOptions

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port: Int = 8787

    @Option(
        help: ArgumentHelp(
            "The address to listen on. Anything but the loopback interface lets others on the network see the form.",
            valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(help: ArgumentHelp("The page's language: en, de, fr, es or bg.", valueName: "language"))
    var language: String = "en"

    @Flag(
        help:
            "Reload the page when a schema file of --schemas changes; a schema that no longer compiles shows lint's problems."
    )
    var watch = false

    @Option(
        name: .customLong("with"),
        help: ArgumentHelp(
            "Another document a schema's existsIn refers to, by its schema id (card-programs-response=programs.json): its values become choices.",
            valueName: "schema=file"))
    var related: [String] = []

    func validate() throws {
        try catalogue.check(schemas: schemas)
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard MessageCatalogue.bundledLanguages.contains(language) else {
            throw ValidationError(
                "--language takes one of \(MessageCatalogue.bundledLanguages.joined(separator: ", ")).")
        }
        if watch && schemas == nil {
            throw ValidationError("--watch watches the folder of --schemas DIR: give it.")
        }
        for entry in related where !entry.contains("=") {
            throw ValidationError("--with takes SCHEMA=FILE, such as card-programs-response=programs.json.")
        }
    }

    func run() async throws {
        let documents = try relatedDocuments()
        let loader = SchemaLoading(catalogue: catalogue, schemas: schemas)
        let state = PreviewState(
            loading: loader, initial: try loader.load(), first: schema, language: language, related: documents)
        guard await state.requestSchemaIDs.contains(schema) else {
            Diagnostics.error(
                "'\(schema)' is not a request schema here (request schemas: \(await state.requestSchemaIDs.joined(separator: ", ")))"
            )
            throw ExitStatus.failure
        }
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            Diagnostics.warning(
                "listening on \(host): others who can reach it can see and fill in the form (and what is typed into it)"
            )
        }
        let page = try Page.load()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var logger = Logger(label: "dce-preview")
        logger.logLevel = .notice
        let router = Router()
        router.add(middleware: AccessLog())
        PreviewRoutes(state: state, page: page, watching: watch).register(on: router)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "dce-preview"),
            services: watch ? [SchemaWatcher(state: state, directory: schemas ?? "")] : [],
            onServerRunning: { channel in
                let line = "preview: http://\(shownHost):\(channel.localAddress?.port ?? port)/\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            Diagnostics.error("cannot serve on \(shownHost):\(port): \(error)")
            throw ExitStatus.failure
        }
    }

    /// The documents of `--with`, read once, by schema id.
    private func relatedDocuments() throws -> [String: JSONDocument] {
        var documents: [String: JSONDocument] = [:]
        for entry in related {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let (id, path) = (parts[0], parts.count > 1 ? parts[1] : "")
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                documents[id] = try JSONDocument(bytes: [UInt8](data))
            } catch let error as JSONReadError {
                Diagnostics.error("\(path):\(error.position.line):\(error.position.column): \(error.message)")
                throw ExitStatus.failure
            } catch {
                Diagnostics.error("cannot read '\(path)' (--with \(id)): \(error.localizedDescription)")
                throw ExitStatus.failure
            }
        }
        return documents
    }
}

/// One line on standard error per request: method, path and status. Never a query's values (the URL holds only the
/// page's choices) and never a body.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: started)
            return response
        } catch let error as HTTPError {
            log(request, status: error.status.code, since: started)
            throw error
        } catch {
            log(request, status: 500, since: started)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        Diagnostics.write(
            "dce-preview: \(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds)) ms\n")
    }
}
