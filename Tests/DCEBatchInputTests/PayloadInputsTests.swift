import DCEBatchInput
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory walks and globs: sorted order, link loops, files reached by several paths, and arguments that name
/// nothing.
@Suite struct PayloadInputsTests {
    /// A fresh folder with the given files (empty) and links (name to destination), removed by the caller.
    private func folder(files: [String], links: [(String, String)] = []) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dce-inputs-\(UUID().uuidString)")
        for file in files {
            let url = root.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        for (name, destination) in links {
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent(name).path, withDestinationPath: destination)
        }
        return root
    }

    private func relative(_ paths: [String], to root: URL) -> [String] {
        paths.map { String($0.dropFirst(root.path.count + 1)) }
    }

    @Test func aDirectoryListsItsJSONFilesInSortedPathOrder() throws {
        let root = try folder(files: [
            "b.json", "a/z.json", "a.json", "a.b/y.json", "c.txt", "A/x.json", "n/deep/er/w.json",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let files = try PayloadInputs.files(for: root.path, ndjson: false)
        #expect(
            relative(files, to: root) == ["A/x.json", "a.b/y.json", "a.json", "a/z.json", "b.json", "n/deep/er/w.json"])
        #expect(files == files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(try PayloadInputs.files(for: root.path + "/", ndjson: false) == files)
    }

    @Test func linksToTheFolderItselfOrItsParentEndTheWalk() throws {
        let root = try folder(
            files: ["l/a.json", "l/sub/b.json"],
            links: [("l/self", "."), ("l/again", "."), ("l/sub/up", ".."), ("l/sub/top", "../..")])
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = try PayloadInputs.files(for: root.appendingPathComponent("l").path, ndjson: false)
        #expect(relative(directory, to: root) == ["l/a.json", "l/sub/b.json"])
        let glob = try PayloadInputs.files(for: root.path + "/l/**/*.json", ndjson: false)
        #expect(relative(glob, to: root) == ["l/a.json", "l/sub/b.json"])
    }

    @Test func aFileReachedByTwoPathsIsListedOnceUnderTheFirst() throws {
        let root = try folder(
            files: ["d/real/p.json"],
            links: [("d/alias", "real"), ("d/link.json", "real/p.json"), ("d/0-first.json", "real/p.json")])
        defer { try? FileManager.default.removeItem(at: root) }
        link(root.appendingPathComponent("d/real/p.json").path, root.appendingPathComponent("d/hard.json").path)
        let files = try PayloadInputs.files(for: root.appendingPathComponent("d").path, ndjson: false)
        #expect(relative(files, to: root) == ["d/0-first.json"])
        let glob = try PayloadInputs.files(for: root.path + "/d/**/*.json", ndjson: false)
        #expect(relative(glob, to: root) == ["d/0-first.json"])
    }

    @Test func ndjsonDirectoriesTakeNDJSONAndJSONLFiles() throws {
        let root = try folder(files: ["a.ndjson", "b.jsonl", "c.json"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(relative(try PayloadInputs.files(for: root.path, ndjson: true), to: root) == ["a.ndjson", "b.jsonl"])
    }

    @Test func globsMatchNamesAndSkipHiddenFoldersUnderDoubleStars() throws {
        let root = try folder(files: ["x/a1.json", "x/a2.json", "x/b.json", "x/.hidden/a3.json", "x/y/a4.json"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            relative(try PayloadInputs.files(for: root.path + "/x/a?.json", ndjson: false), to: root) == [
                "x/a1.json", "x/a2.json",
            ])
        #expect(
            relative(try PayloadInputs.files(for: root.path + "/x/**/a*.json", ndjson: false), to: root) == [
                "x/a1.json", "x/a2.json", "x/y/a4.json",
            ])
    }

    @Test func argumentsThatNameNothing() throws {
        #expect(try PayloadInputs.files(for: "-", ndjson: false) == ["-"])
        #expect(try PayloadInputs.files(for: "/no/such/file.json", ndjson: false) == ["/no/such/file.json"])
        #expect(throws: PayloadReadError(path: "/no/such/*.json", reason: "no files match this pattern")) {
            try PayloadInputs.files(for: "/no/such/*.json", ndjson: false)
        }
    }

    @Test func nonRegularFilesAreRefusedWithTheirKind() throws {
        let root = try folder(files: [])
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: PayloadReadError(path: fifo, reason: "it is a FIFO")) { try PayloadFile.read(fifo) }
        #expect(throws: PayloadReadError(path: fifo, reason: "it is a FIFO")) { try NDJSONReader.open(fifo) }
        #expect(throws: PayloadReadError(path: root.path, reason: "it is a directory")) {
            try PayloadFile.read(root.path)
        }
        #expect(throws: PayloadReadError(path: "/no/such.json", reason: "no such file")) {
            try PayloadFile.read("/no/such.json")
        }
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            #expect(throws: PayloadReadError(path: "/dev/zero", reason: "it is a character device")) {
                try PayloadFile.read("/dev/zero")
            }
        }
        let file = root.appendingPathComponent("big.json")
        try Data(repeating: UInt8(ascii: " "), count: 100).write(to: file)
        #expect(try PayloadFile.read(file.path, limit: 10).count == 11)
        #expect(try PayloadFile.read(file.path, limit: 1_000).count == 100)
    }
}
