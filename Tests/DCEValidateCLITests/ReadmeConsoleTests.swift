import Foundation
import Testing

/// Every command the README and the Markdown files under `docs/` show with its output (their `console` blocks) is
/// run, and prints what the page says.
///
/// A block's lines after `$ command` are the command's expected output (standard output and error, as a terminal
/// interleaves them). A line that is only `…` (indented or not) stands for any number of lines, and a line ending in `…` for any line that starts with what precedes it. A
/// `$ cat FILE` of a file that does not exist yet shows what the reader is to put in it: the test writes it. Each
/// block runs in a folder of its own where `Examples/` is the repository's, with `dce-validate` on `PATH`.
@Suite struct ReadmeConsoleTests {
    struct Command: Sendable {
        var line: Int
        var command: String
        var expected: [String]
    }

    /// A `console` block: its commands run in order, in one folder.
    struct Block: CustomTestStringConvertible, Sendable {
        /// The page, relative to the repository: `README.md`, `docs/forms.md`.
        var file: String
        var line: Int
        var commands: [Command]
        var testDescription: String { "\(file):\(line)" }
    }

    /// The pages whose `console` blocks run: the README, then every Markdown file in `docs/`, in sorted order.
    static let pages: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(
                atPath: CLI.repository.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static let blocks: [Block] = pages.flatMap { page -> [Block] in
        guard
            let text = try? String(
                contentsOf: CLI.repository.appendingPathComponent(page), encoding: .utf8)
        else { return [] }
        var blocks: [Block] = []
        var inBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```console"
                if inBlock { blocks.append(Block(file: page, line: index + 1, commands: [])) }
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                blocks[blocks.count - 1].commands.append(
                    Command(line: index + 1, command: String(line.dropFirst(2)), expected: []))
            } else if !blocks[blocks.count - 1].commands.isEmpty {
                let last = blocks[blocks.count - 1].commands.count - 1
                blocks[blocks.count - 1].commands[last].expected.append(String(line))
            }
        }
        // A blank line between two commands separates them; it is not output.
        for block in blocks.indices {
            for command in blocks[block].commands.indices {
                while blocks[block].commands[command].expected.last == "" {
                    blocks[block].commands[command].expected.removeLast()
                }
            }
        }
        return blocks
    }

    @Test func theReadmeShowsCommandsWithTheirOutput() {
        let commands = Self.blocks.flatMap(\.commands)
        #expect(
            Self.blocks.count >= 7 && commands.count >= 15, "\(Self.blocks.count) blocks, \(commands.count) commands")
        // The README and the pages moved out of it into docs/ are all read.
        #expect(Self.blocks.contains { $0.file == "README.md" } && Self.blocks.contains { $0.file.hasPrefix("docs/") })
    }

    @Test(arguments: blocks)
    func printsWhatTheReadmeShows(_ block: Block) throws {
        let folder = try CLI.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for shared in ["Examples", "Schemas"] {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(shared),
                withDestinationURL: CLI.repository.appendingPathComponent(shared))
        }
        for command in block.commands {
            if command.command.hasPrefix("cat "), !command.command.contains(" | ") {
                let file = folder.appendingPathComponent(String(command.command.dropFirst(4)))
                if !FileManager.default.fileExists(atPath: file.path) {
                    try Data((command.expected.joined(separator: "\n") + "\n").utf8).write(to: file)
                }
            }
            // Standard output and error in one stream, in the order they were written, as a terminal shows them.
            let result = try CLI.run(
                ["-c", "{ \(command.command); } 2>&1"], in: folder,
                environment: ["PATH": CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                executable: "/bin/bash", timeout: 120)
            let printed = result.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let lines = printed.last == "" ? Array(printed.dropLast()) : printed
            #expect(
                Self.matches(lines[...], command.expected[...]),
                """
                \(block.file):\(command.line) shows:
                \(command.expected.joined(separator: "\n"))
                but \(command.command) printed:
                \(lines.joined(separator: "\n"))
                """)
        }
    }

    @Test func theMatchingTakesEllipsesAsTheReadmeMeansThem() {
        #expect(Self.matches(["a", "b", "c"], ["a", "…"]))
        #expect(Self.matches(["a", "b", "c"], ["…", "c"]))
        #expect(Self.matches(["abc"], ["ab…"]))
        #expect(!Self.matches(["a", "b"], ["a"]))
        #expect(!Self.matches(["a"], ["a", "b"]))
        #expect(!Self.matches(["xbc"], ["ab…"]))
    }

    /// Whether printed lines match the expected ones, `…` standing for any lines and `x…` for a line starting `x`.
    static func matches(_ printed: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return printed.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "…" {
            return printed.indices.map { printed[$0...] }.contains { matches($0, expected.dropFirst()) }
                || matches(printed[printed.endIndex...], expected.dropFirst())
        }
        guard let line = printed.first else { return false }
        let fits = first.hasSuffix("…") ? line.hasPrefix(first.dropLast()) : line == first
        return fits && matches(printed.dropFirst(), expected.dropFirst())
    }
}
