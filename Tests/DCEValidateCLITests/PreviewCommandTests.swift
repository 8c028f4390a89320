import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `dce-validate preview` from the outside: its first line, the page and its API on loopback, SIGTERM, and the
/// documented exit statuses. (The page in a real browser is scripts/check_preview.py's.)
@Suite(.serialized) struct PreviewCommandTests {
    /// A running preview: its address, and its standard error once it has stopped.
    final class Running {
        let process = Process()
        let errors: URL
        private(set) var url = ""

        init(_ arguments: [String]) throws {
            errors = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString).err")
            try Data().write(to: errors)
            let output = Pipe()
            process.executableURL = CLI.binary
            process.arguments = ["preview", "--port", "0"] + arguments
            process.currentDirectoryURL = CLI.repository
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8)
            {
                line += byte
            }
            url = String(decoding: line, as: UTF8.self)
        }

        /// SIGTERM, and the exit status.
        func stop() -> Int32 {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }

        var log: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
    }

    private func fetch(_ url: String, post body: String? = nil) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: url)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func itPrintsItsAddressFirstServesTheFormAndStopsOnSIGTERM() async throws {
        let preview = try Running(["--schema", "card-create"])
        #expect(preview.url.hasPrefix("preview: http://127.0.0.1:") && preview.url.hasSuffix("/"), "\(preview.url)")
        let base = String(preview.url.dropFirst("preview: ".count))
        let (status, page) = try await fetch(base + "?language=de&context.region=US")
        #expect(status == 200 && page.contains(#"<html lang="de">"#) && page.contains("Prüfen"))
        let (_, opened) = try await fetch(
            base + "api/session", post: #"{"schema": "card-create", "language": "en", "context": {"region": "US"}}"#)
        let session = try #require(
            (try JSONSerialization.jsonObject(with: Data(opened.utf8)) as? [String: Any])?["session"] as? String)
        let (edited, state) = try await fetch(
            base + "api/edit",
            post: #"{"session": "\#(session)", "edits": [{"op": "set", "path": "/cardPin", "value": "5813"}]}"#)
        #expect(edited == 200 && state.contains(#""rule":"forbidden""#) && !state.contains("5813"))
        let (refused, answer) = try await fetch(
            base + "api/edit",
            post: #"{"session": "\#(session)", "edits": [{"op": "set", "path": "/nope", "value": "5813"}]}"#)
        #expect(refused == 400 && answer.contains("no field at '/nope'") && !answer.contains("5813"))
        // A batch with a refused edit changes nothing: the external id set before the refused edit is not kept.
        let (batch, _) = try await fetch(
            base + "api/edit",
            post:
                #"{"session": "\#(session)", "edits": [{"op": "set", "path": "/externalId", "value": "ext-1"}, {"op": "set", "path": "/nope", "value": "x"}]}"#
        )
        let (_, after) = try await fetch(base + "api/state", post: #"{"session": "\#(session)"}"#)
        #expect(batch == 400)
        #expect(try Self.state(of: "/externalId", in: after) == "empty", "\(after)")
        let (gone, _) = try await fetch(base + "api/state", post: #"{"session": "0"}"#)
        #expect(gone == 410)
        #expect(preview.stop() == 0)
        #expect(preview.log.contains("POST /api/edit 200") && !preview.log.contains("5813"))
    }

    /// A field's state in an answer of the page's API.
    private static func state(of path: String, in answer: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any]
        let groups = (object?["state"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        let fields = groups.flatMap { $0["fields"] as? [[String: Any]] ?? [] }
        return fields.first { $0["path"] as? String == path }?["state"] as? String
    }

    @Test func anotherAddressThanLoopbackIsWarnedOf() throws {
        let preview = try Running(["--schema", "card-create", "--host", "0.0.0.0"])
        #expect(preview.url.hasPrefix("preview: http://0.0.0.0:"))
        #expect(preview.stop() == 0)
        #expect(preview.log.contains("warning: listening on 0.0.0.0"))
    }

    @Test(
        arguments: [
            (["--schema", "card-details-response"], "is not a request schema"),
            (["--schema", "card-create", "--port", "70000"], "--port takes 0 to 65535"),
            (["--schema", "card-create", "--watch"], "--watch watches the folder of --schemas DIR"),
            (["--schema", "card-create", "--language", "xx"], "--language takes one of"),
            (["--schema", "card-create", "--with", "programs.json"], "--with takes SCHEMA=FILE"),
            (
                ["--schema", "card-create", "--with", "card-programs-response=/no/such.json"],
                "cannot read '/no/such.json'"
            ),
            (["--schema", "card-create", "--schemas", "/no/such/folder"], "/no/such/folder"),
        ] as [([String], String)])
    func usageAndBadInputExitWithTwo(arguments: [String], message: String) throws {
        let result = try CLI.run(["preview"] + arguments, timeout: 120)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains(message), "\(result.err)")
        #expect(result.out.isEmpty)
    }
}
