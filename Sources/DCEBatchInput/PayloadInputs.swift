/// One unit of work: a payload file, a record or block of lines of an NDJSON stream, or an input that could not
/// be read.
public enum WorkItem: Sendable {
    /// A payload file, read by whoever validates it (see ``PayloadFile/read(_:limit:)``).
    case file(String)
    /// One line of an NDJSON stream, the `line`th of the file; an oversized line's first bytes.
    case record(file: String, line: Int, bytes: [UInt8])
    /// Complete lines of an NDJSON stream, the first being line `firstLine` of the file (see
    /// ``NDJSONReader/forEachRecord(in:firstLine:_:)``).
    case block(file: String, firstLine: Int, bytes: ArraySlice<UInt8>)
    /// An input that could not be read, or a pattern that matches nothing.
    case unreadable(PayloadReadError)
}

/// Expands `PAYLOAD` arguments into work items, lazily: directories (recursively), globs, files, `-`, and with
/// `ndjson` the pieces of each stream, read in blocks so memory stays flat.
///
/// Directories and `**` follow symbolic links but visit each folder once and list each file once (by device and
/// inode), so a link loop ends and a file reached by two paths is read once, under the first path in sorted order.
public struct PayloadInputs: Sequence, Sendable {
    /// The arguments as given.
    public let arguments: [String]
    /// Whether each file is an NDJSON stream.
    public let ndjson: Bool

    /// Creates the inputs of a run.
    ///
    /// - Parameters:
    ///   - arguments: Files, directories, quoted globs, or `-` for standard input.
    ///   - ndjson: Whether each file holds one payload per line.
    public init(arguments: [String], ndjson: Bool) {
        self.arguments = arguments
        self.ndjson = ndjson
    }

    /// An iterator over the work items.
    public func makeIterator() -> Iterator { Iterator(arguments: arguments[...], ndjson: ndjson) }

    /// Hands out the work items of each argument in turn.
    public struct Iterator: IteratorProtocol {
        private var arguments: ArraySlice<String>
        private let ndjson: Bool
        private var pendingFiles: ArraySlice<String> = []
        private var stream: NDJSONReader?

        init(arguments: ArraySlice<String>, ndjson: Bool) {
            self.arguments = arguments
            self.ndjson = ndjson
        }

        /// The next work item; `nil` when every argument is done.
        public mutating func next() -> WorkItem? { next(whenWaiting: {}) }

        /// The next work item; `nil` when every argument is done.
        ///
        /// - Parameter whenWaiting: Called before a read that would wait for a writer (see
        ///   ``NDJSONReader/next(whenWaiting:)``).
        /// - Returns: The next work item.
        public mutating func next(whenWaiting: () -> Void) -> WorkItem? {
            while true {
                if stream != nil {
                    // Mutated in place: a copy would share, then copy, the reader's megabyte buffer.
                    if let item = stream!.next(whenWaiting: whenWaiting) { return item }
                    stream = nil
                }
                if let file = pendingFiles.popFirst() {
                    guard ndjson else { return .file(file) }
                    do {
                        stream = try NDJSONReader.open(file)
                    } catch {
                        return .unreadable(error)
                    }
                    continue
                }
                guard let argument = arguments.popFirst() else { return nil }
                do {
                    pendingFiles = try PayloadInputs.files(for: argument, ndjson: ndjson)[...]
                } catch {
                    return .unreadable(error)
                }
            }
        }
    }

    /// The files an argument names, in sorted order: the argument itself for a file or `-`, every `*.json`
    /// (with `ndjson`, `*.ndjson` and `*.jsonl`) below a directory, or a glob's matches.
    ///
    /// - Parameters:
    ///   - argument: A path, `-` or a glob.
    ///   - ndjson: Whether directories contribute NDJSON files.
    /// - Returns: The paths.
    /// - Throws: ``PayloadReadError`` when the argument names no file, or a glob matches none.
    public static func files(for argument: String, ndjson: Bool) throws(PayloadReadError) -> [String] {
        if argument == "-" { return ["-"] }
        if let entry = DirectoryWalk.Entry(path: argument) {
            guard entry.isDirectory else { return [argument] }
            let base = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            return DirectoryWalk.files(under: base, root: entry, suffixes: ndjson ? [".ndjson", ".jsonl"] : [".json"])
        }
        if argument.contains(where: { "*?[".contains($0) }) {
            let matches = Glob.expand(argument)
            guard !matches.isEmpty else {
                throw PayloadReadError(path: argument, reason: "no files match this pattern")
            }
            return matches
        }
        // A file that is not there (or a dangling link): reading it says why.
        return [argument]
    }
}
