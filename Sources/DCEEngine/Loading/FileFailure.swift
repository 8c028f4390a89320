import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a file or directory of a schema source could not be read or listed, in the system's words.
enum FileFailure {
    /// The C library's description of the `errno` behind the error (`Permission denied`, `No such file or
    /// directory`, `Is a directory`), which Foundation keeps as the underlying `POSIXError` of its `CocoaError`; the
    /// error's localized description when there is none. Never the file's contents: a read error does not hold them.
    ///
    /// - Parameter error: What reading or listing threw.
    /// - Returns: The reason.
    static func reason(_ error: any Error) -> String {
        if let number = errorNumber(of: error) { return systemErrorDescription(number) }
        return (error as NSError).localizedDescription
    }

    /// The `errno` behind an error: its own code when it is a POSIX error, else that of the error under it.
    static func errorNumber(of error: any Error) -> Int32? {
        var next: (any Error)? = error
        // Underlying errors are a short chain; the bound keeps a chain that loops from running forever.
        for _ in 0..<8 {
            guard let error = next else { return nil }
            if let posix = error as? POSIXError { return posix.code.rawValue }
            let object = error as NSError
            if object.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: object.code) }
            next = object.userInfo[NSUnderlyingErrorKey] as? any Error
        }
        return nil
    }

    /// The problem of a file or directory that cannot be read or listed: `what: reason`, at its path, with the
    /// error as its cause.
    ///
    /// - Parameters:
    ///   - what: What could not be done, such as `cannot read the schema file`.
    ///   - path: The file's or directory's path.
    ///   - error: What reading or listing threw.
    /// - Returns: The problem, with code `unreadable`.
    static func problem(_ what: String, path: String, error: any Error) -> SchemaProblem {
        SchemaProblem(
            code: .unreadable, message: "\(what): \(reason(error))",
            location: SchemaLocation(file: path, pointer: "", position: nil), cause: error)
    }
}
