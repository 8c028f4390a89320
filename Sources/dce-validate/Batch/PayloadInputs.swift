import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One unit of work: a payload file, one record of an NDJSON stream, or an input that could not be read.
enum WorkItem: Sendable {
    case file(String)
    case record(file: String, line: Int, bytes: [UInt8])
    /// Complete lines of an NDJSON stream, the first being line `firstLine` of the file.
    case block(file: String, firstLine: Int, bytes: ArraySlice<UInt8>)
    case unreadable(String)

    /// Roughly how many payloads the item holds, to size the chunks handed to the workers.
    var weight: Int {
        if case .block(_, _, let bytes) = self { return max(1, bytes.count / 200) }
        return 1
    }
}

/// Expands the `PAYLOAD` arguments into work items, lazily: directories (recursively), globs, files, `-`, and
/// with `--ndjson` one item per non-blank line of each stream, read in blocks so memory stays flat.
struct PayloadInputs: Sequence {
    let arguments: [String]
    let ndjson: Bool

    func makeIterator() -> Iterator { Iterator(arguments: arguments[...], ndjson: ndjson) }

    struct Iterator: IteratorProtocol {
        var arguments: ArraySlice<String>
        let ndjson: Bool
        var pendingFiles: [String] = []
        var stream: NDJSONReader?

        init(arguments: ArraySlice<String>, ndjson: Bool) {
            self.arguments = arguments
            self.ndjson = ndjson
        }

        mutating func next() -> WorkItem? {
            while true {
                if stream != nil {
                    // Mutated in place: a copy would share, then copy, the reader's megabyte buffer.
                    if let item = stream!.next() { return item }
                    stream = nil
                }
                if !pendingFiles.isEmpty {
                    let file = pendingFiles.removeFirst()
                    guard ndjson else { return .file(file) }
                    switch NDJSONReader.open(file) {
                    case .success(let reader): stream = reader
                    case .failure(let error): return .unreadable(error.message)
                    }
                    continue
                }
                guard let argument = arguments.popFirst() else { return nil }
                switch Self.expand(argument, ndjson: ndjson) {
                case .success(let files): pendingFiles = files
                case .failure(let error): return .unreadable(error.message)
                }
            }
        }

        /// The files an argument names, sorted; a message when it names none.
        static func expand(_ argument: String, ndjson: Bool) -> Result<[String], ExpansionError> {
            if argument == "-" { return .success(["-"]) }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { return .success([argument]) }
                let suffixes = ndjson ? [".ndjson", ".jsonl"] : [".json"]
                let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
                let enumerator = FileManager.default.enumerator(atPath: base)
                var files: [String] = []
                while let relative = enumerator?.nextObject() as? String {
                    guard suffixes.contains(where: relative.hasSuffix) else { continue }
                    var isDir: ObjCBool = false
                    let path = base + "/" + relative
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { files.append(path) }
                }
                return .success(files.sorted())
            }
            if argument.contains(where: { "*?[".contains($0) }) {
                let matches = Glob.expand(argument)
                return matches.isEmpty ? .failure(ExpansionError("\(argument): no files match this pattern")) : .success(matches)
            }
            return .failure(ExpansionError("\(argument): cannot read the payload: no such file"))
        }
    }

    struct ExpansionError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

/// Shell-style globs for quoted patterns: `*`, `?` and `[...]` within a path component (fnmatch), and `**` for any
/// number of directories.
enum Glob {
    static func expand(_ pattern: String) -> [String] {
        let absolute = pattern.hasPrefix("/")
        let components = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var results: [String] = []
        walk(directory: absolute ? "/" : ".", display: absolute ? "/" : "", components: components[...], into: &results)
        return results.sorted()
    }

    private static func walk(directory: String, display: String, components: ArraySlice<String>, into results: inout [String]) {
        guard let component = components.first else { return }
        let rest = components.dropFirst()
        let fileManager = FileManager.default
        func join(_ base: String, _ name: String) -> String { base.isEmpty ? name : (base.hasSuffix("/") ? base + name : base + "/" + name) }
        if component == "**" {
            walk(directory: directory, display: display, components: rest, into: &results)
            for name in ((try? fileManager.contentsOfDirectory(atPath: directory)) ?? []).sorted() where !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let path = join(directory, name)
                if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    walk(directory: path, display: join(display, name), components: components, into: &results)
                }
            }
            return
        }
        let names: [String]
        if component.contains(where: { "*?[".contains($0) }) {
            names = ((try? fileManager.contentsOfDirectory(atPath: directory)) ?? []).sorted().filter {
                fnmatch(component, $0, FNM_PERIOD) == 0
            }
        } else {
            names = [component]
        }
        for name in names {
            let path = join(directory, name)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if rest.isEmpty {
                if !isDirectory.boolValue { results.append(join(display, name)) }
            } else if isDirectory.boolValue {
                walk(directory: path, display: join(display, name), components: rest, into: &results)
            }
        }
    }
}
