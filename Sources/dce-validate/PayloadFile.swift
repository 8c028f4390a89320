import DCEEngine
import Foundation

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
