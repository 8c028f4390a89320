import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the files reports and exports are written to the way a shell's `>` does: created, or truncated in place.
/// Foundation's `createFile` writes a new file and renames it over the path, which would replace a symbolic link
/// with a file, and `/dev/null` itself when run as root.
enum OutputFile {
    /// A handle that closes with it, or the reason the file cannot be written.
    static func create(_ path: String) -> Result<FileHandle, DiagnosticError> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return .failure(DiagnosticError(String(cString: strerror(errno)))) }
        return .success(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }
}
