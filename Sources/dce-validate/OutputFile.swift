import DCECommandLine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a report or export is written to, complete or not at all.
///
/// A regular file (or a path that does not exist yet) is written to a temporary file in the same folder (created
/// exclusively, with the mode of the file it replaces), flushed to disk and renamed over the path once complete:
/// a failed or killed run leaves the previous file as it was, and no reader ever sees half a report. A symbolic
/// link stays a link: the file it points to is the one replaced. Devices, pipes and `/dev/stdout` are written in
/// place (renaming over `/dev/null` as root would replace the device), as is standard output.
final class OutputFile {
    /// How messages name the file: its path as given.
    let path: String
    private var descriptor: Int32
    /// The temporary file and the path it is renamed onto, when not written in place.
    private var replacing: (temporary: String, slot: TemporaryFiles.Slot, target: String)?

    private init(path: String, descriptor: Int32, replacing: (String, TemporaryFiles.Slot, String)?) {
        self.path = path
        self.descriptor = descriptor
        self.replacing = replacing
    }

    deinit { discard() }

    /// Opens a file for writing; the reason (`Permission denied`) when it cannot be written.
    static func create(_ path: String) -> Result<OutputFile, DiagnosticError> {
        let target = resolvingLinks(path)
        var status = stat()
        let exists = stat(target, &status) == 0
        guard exists || errno == ENOENT else { return .failure(DiagnosticError(Descriptor.reason(errno))) }
        if exists && status.st_mode & S_IFMT == S_IFDIR { return .failure(DiagnosticError(Descriptor.reason(EISDIR))) }
        let isDevice = ["/dev/", "/proc/"].contains { path.hasPrefix($0) || target.hasPrefix($0) }
        if isDevice || (exists && status.st_mode & S_IFMT != S_IFREG) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { return .failure(DiagnosticError(Descriptor.reason(errno))) }
            return .success(OutputFile(path: path, descriptor: descriptor, replacing: nil))
        }
        return createTemporary(next: target, replacing: exists ? status : nil).map { temporary, slot, descriptor in
            OutputFile(path: path, descriptor: descriptor, replacing: (temporary, slot, target))
        }
    }

    /// Writes bytes whole; the `errno` of a failed write.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32? {
        Descriptor.writeAll(descriptor, bytes)
    }

    /// Flushes a temporary file to disk and closes it; the `errno` when that fails. Nothing is renamed yet.
    func finishWriting() -> Int32? {
        defer {
            close(descriptor)
            descriptor = -1
        }
        if replacing != nil && fsync(descriptor) != 0 { return errno }
        return nil
    }

    /// Renames the finished temporary file over the path; the `errno` when that fails (the temporary file is then
    /// removed).
    func install() -> Int32? {
        guard let (temporary, slot, target) = replacing else { return nil }
        guard rename(temporary, target) == 0 else {
            let failure = errno
            discard()
            return failure
        }
        // Renamed first, forgotten second: a signal in between unlinks a name that no longer exists.
        TemporaryFiles.unregister(slot)
        replacing = nil
        Self.syncFolder(of: target)
        return nil
    }

    /// Removes the temporary file, leaving whatever the path held before.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        guard let (temporary, slot, _) = replacing else { return }
        unlink(temporary)
        TemporaryFiles.unregister(slot)
        replacing = nil
    }

    /// The file a chain of symbolic links ends at (the path itself when it is not a link). A loop ends after 40
    /// links, at a path whose use then fails with `ELOOP`.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for _ in 0..<40 {
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : folder(of: current) + destination
        }
        return current
    }

    /// The folder part of a path, with its trailing `/` (empty for a bare name).
    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// Creates `.<name>.<random>.tmp` next to `target`, exclusively, registered for removal on a signal; with the
    /// mode (and, where allowed, the owner) of the file it will replace.
    private static func createTemporary(
        next target: String, replacing existing: stat?
    ) -> Result<(String, TemporaryFiles.Slot, Int32), DiagnosticError> {
        let folder = folder(of: target)
        let name = String(target[target.index(target.startIndex, offsetBy: folder.count)...].prefix(100))
        for _ in 0..<16 {
            let temporary = "\(folder).\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            guard let slot = TemporaryFiles.register(temporary) else {
                return .failure(DiagnosticError("the path is too long for a temporary file next to it"))
            }
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 {
                let failure = errno
                TemporaryFiles.unregister(slot)
                if failure == EEXIST { continue }
                return .failure(DiagnosticError(Descriptor.reason(failure)))
            }
            if let existing {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                _ = fchmod(descriptor, existing.st_mode & 0o7777)
            }
            return .success((temporary, slot, descriptor))
        }
        return .failure(DiagnosticError(Descriptor.reason(EEXIST)))
    }

    /// Flushes a folder's entries, so that a rename survives a crash of the machine; best effort.
    private static func syncFolder(of path: String) {
        let folder = folder(of: path)
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
