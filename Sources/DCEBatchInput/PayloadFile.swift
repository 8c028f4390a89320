public import DCEEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an input could not be read: its path as given and the reason, never a byte of its content.
public struct PayloadReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path (or pattern) as given; `-` for standard input.
    public let path: String
    /// For a stream that failed partway, the line at which reading stopped.
    public let line: Int?
    /// What went wrong, such as `no such file` or `it is a FIFO`.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The path as given.
    ///   - line: The line at which a stream stopped, if any.
    ///   - reason: What went wrong.
    public init(path: String, line: Int? = nil, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// `path: cannot read the payload: reason`, as a diagnostic.
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): cannot read the payload: \(reason)" }

    /// The error for an error number (by default `errno`): the wording of earlier releases for a missing or
    /// forbidden file, the C library's text for the rest.
    static func fromErrno(_ path: String, line: Int? = nil, _ code: Int32 = errno) -> PayloadReadError {
        let reason =
            switch code {
            case ENOENT: "no such file"
            case EACCES: "permission denied"
            default: String(cString: strerror(code))
            }
        return PayloadReadError(path: path, line: line, reason: reason)
    }
}

/// Reads payload files and standard input, refusing what is not a regular file.
///
/// Opening a FIFO that has no writer blocks, and a device such as `/dev/zero` never ends, so a payload path must
/// name a regular file: the kind is checked before opening, and again on the open descriptor (opened
/// non-blocking, so that a file swapped for a FIFO in between cannot make the open wait). Standard input (`-`)
/// may be anything, a pipe being the usual case.
public enum PayloadFile {
    /// The bytes of a payload; `-` is standard input. At most `limit + 1` bytes are read, which is enough for the
    /// JSON reader to reject a larger payload with its own error without holding it in memory.
    ///
    /// - Parameters:
    ///   - path: The file's path, or `-`.
    ///   - limit: The largest payload the caller accepts.
    /// - Returns: The bytes read.
    /// - Throws: ``PayloadReadError`` when the path is not a readable regular file, or reading fails.
    public static func read(_ path: String, limit: Int = JSONLimits.default.maxDocumentBytes)
        throws(PayloadReadError) -> [UInt8]
    {
        let (descriptor, size) = path == "-" ? (STDIN_FILENO, 0) : try openRegularFile(path)
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        // Room for the whole file at once (its size plus the byte that shows the end); more as a stream goes on.
        // Each read lands in uninitialised storage: filling the room with zeros first and trimming it afterwards
        // cost an unoptimised build (the tests', the sanitizers') 70 ms per small file.
        var room = min(size > 0 ? size + 1 : 1 << 16, limit + 1)
        while bytes.count <= limit {
            let wanted = min(room, limit + 1 - bytes.count)
            var failure: Int32 = 0
            let piece = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
                let result = readRetrying(descriptor, buffer.baseAddress!, wanted)
                if result < 0 { failure = Int32(-result) } else { count = result }
            }
            if failure != 0 { throw .fromErrno(path, failure) }
            if piece.isEmpty { break }
            if bytes.isEmpty { bytes = piece } else { bytes.append(contentsOf: piece) }
            room = max(room, bytes.count)
        }
        return bytes
    }

    /// Opens a regular file for reading: a blocking descriptor the caller closes, and the file's size.
    static func openRegularFile(_ path: String) throws(PayloadReadError) -> (descriptor: Int32, size: Int) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .fromErrno(path) }
        if let kind = kindIfNotRegular(status.st_mode) { throw PayloadReadError(path: path, reason: kind) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fromErrno(path) }
        guard fstat(descriptor, &status) == 0 else {
            let error = PayloadReadError.fromErrno(path)
            close(descriptor)
            throw error
        }
        if let kind = kindIfNotRegular(status.st_mode) {
            close(descriptor)
            throw PayloadReadError(path: path, reason: kind)
        }
        // Regular files never block; the flag goes so that reads behave as everywhere else.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, Int(status.st_size))
    }

    /// What a file is when it is not a regular file (`it is a FIFO`), as a reason; `nil` for a regular file.
    static func kindIfNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory"
        case S_IFIFO: "it is a FIFO"
        case S_IFCHR: "it is a character device"
        case S_IFBLK: "it is a block device"
        case S_IFSOCK: "it is a socket"
        default: "it is not a regular file"
        }
    }
}

/// `read(2)`, retried when interrupted: the count read, 0 at the end, or `-errno`.
func readRetrying(_ descriptor: Int32, _ target: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let result = read(descriptor, target, count)
        if result >= 0 { return result }
        if errno != EINTR { return -Int(errno) }
    }
}
