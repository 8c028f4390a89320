#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes diagnostics to standard error, never to the report stream.
package enum Diagnostics {
    /// The environment variable through which a tool that runs another for the user (`dce-validate send` runs
    /// `dce-send`) names the command the user typed.
    package static let commandNameVariable = "DCE_COMMAND_NAME"

    /// The command the user typed, when another tool runs this one for it (``commandNameVariable``); else `nil`.
    package static var commandTyped: String? {
        guard let name = getenv(commandNameVariable).map({ String(cString: $0) }), !name.isEmpty else { return nil }
        return name
    }

    /// The program's name as diagnostics start with it: `dce-validate`, `dce-send`, or ``commandTyped``.
    package static var program: String {
        commandTyped ?? String(CommandLine.arguments.first?.split(separator: "/").last ?? "dce-validate")
    }

    package static func error(_ message: String) {
        let line = message.hasPrefix("/") || message.contains(": error: ") ? message : "\(program): error: \(message)"
        write(line + "\n")
    }

    /// A line that says what the run did about something it could not do as asked, such as taking cached schemas
    /// while the gateway is out of reach.
    package static func note(_ message: String) {
        write("\(program): note: \(message)\n")
    }

    /// A line that says what was refused, and why.
    package static func warning(_ message: String) {
        write("\(program): warning: \(message)\n")
    }

    /// Writes to standard error as it is; a failure to write there has nowhere to be reported, so it is ignored.
    package static func write(_ text: String) {
        _ = Descriptor.writeAll(STDERR_FILENO, text)
    }
}

/// An error whose message is printed as a diagnostic.
package struct DiagnosticError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Whole writes with write(2): Foundation's `FileHandle.write(_:)` ends the process with `try!` when a write
/// fails (a full disk, a closed pipe), so every output goes through here instead.
package enum Descriptor {
    /// Writes all of `bytes`, retrying after interruptions and partial writes; the `errno` of a failed write, or
    /// `nil`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return nil
    }

    /// Writes all of `text` as UTF-8; the `errno` of a failed write, or `nil`.
    package static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The C library's description of an error number (`No space left on device`).
    package static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Writes a command's output to standard output, ending the run with exit status 2 when it cannot be written.
package enum StandardOutput {
    package static func write(_ text: String) throws {
        guard let failure = Descriptor.writeAll(STDOUT_FILENO, text) else { return }
        Diagnostics.error("cannot write to standard output: \(Descriptor.reason(failure))")
        throw ExitStatus.failure
    }
}
