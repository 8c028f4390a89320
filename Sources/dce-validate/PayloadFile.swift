import DCEEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads payload files and standard input, refusing what is not a readable regular file.
enum PayloadFile {
    /// The bytes of a payload; `-` is standard input. Files over the JSON reader's size limit are not read into
    /// memory: the first limit-plus-one bytes are enough for the reader to reject them with its own error.
    static func read(_ path: String) throws -> [UInt8] {
        let limit = JSONReader.Limits.default.maxDocumentBytes
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readData(ofLength: limit + 1))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DiagnosticError("\(path): cannot read the payload: no such file")
        }
        guard !isDirectory.boolValue else {
            throw DiagnosticError("\(path): cannot read the payload: it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DiagnosticError("\(path): cannot read the payload: permission denied")
        }
        defer { try? handle.close() }
        return [UInt8](handle.readData(ofLength: limit + 1))
    }
}

/// Writes diagnostics to standard error, never to the report stream.
enum Diagnostics {
    static func error(_ message: String) {
        let line = message.hasPrefix("/") || message.contains(": error: ") ? message : "dce-validate: error: \(message)"
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

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
