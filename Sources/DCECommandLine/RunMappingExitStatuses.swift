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
            Diagnostics.write(fullMessage(for: error) + "\n")
            Foundation.exit(ExitStatus.failure.rawValue)
        }
    }
}
