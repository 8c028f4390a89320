package import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Parses the process's arguments (or `arguments`, for a command reached by a word before them) and runs the
    /// command, mapping ArgumentParser's own exit statuses (64 for usage errors, 1 for uncaught errors) onto the
    /// documented ones (``ExitStatus``).
    package static func runMappingExitStatuses(arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            // ArgumentParser starts a usage error with `Error: `; every diagnostic of these tools starts with the
            // tool's name instead, as the rest of their errors do.
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message = "\(Diagnostics.program): error: " + message.dropFirst(7) }
            Diagnostics.write(message + "\n")
            Foundation.exit(ExitStatus.failure.rawValue)
        }
    }
}
