import ArgumentParser
package import DCEEngine
import DCEEnvelope
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The schemas of a command: the gateway's catalogue with `--catalogue`, else `--schemas DIR` or the bundled ones.
package struct SchemaChoice {
    /// The validator with the schemas asked for compiled.
    package var validator: Validator
    /// The catalogue's version with `--catalogue`, for the reports; `nil` otherwise.
    package var catalogueVersion: String?

    /// Builds the validator, or ends the run: exit status 2 for a schema problem, 3 when no catalogue can be had.
    package init(catalogue: CatalogueOptions, schemas: String?, ids: [String]?) throws {
        guard catalogue.catalogue != nil else {
            validator = try SchemaOption.validator(directory: schemas, ids: ids)
            return
        }
        let served = try ServedCatalogue.fetch(catalogue)
        validator = try SchemaOption.validator(source: .documents(served.documents), ids: ids)
        catalogueVersion = served.version.description
    }
}

/// `--catalogue`: `dce-send catalogue`, from beside this executable, refreshes the gateway's catalogue as an app does
/// (signature, expiry, no rollback, the last good one cached) and writes the verified body to a pipe read here. Its
/// notes and errors go straight to standard error. `dce-validate` itself thus links neither networking nor crypto,
/// and reads no file that anyone could have written unchecked.
enum ServedCatalogue {
    /// The verified catalogue, or the run ends with `dce-send`'s exit status (after its diagnostic).
    static func fetch(_ options: CatalogueOptions) throws -> CatalogueBody {
        let executable = try Companion.send.executable()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            Diagnostics.error("cannot open a pipe for dce-send: \(Descriptor.reason(errno))")
            throw ExitStatus.failure
        }
        let (reading, writing) = (ends[0], ends[1])
        _ = fcntl(reading, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writing, F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            defer { close(writing) }
            pid = try spawn(executable, arguments: ["catalogue"] + options.arguments, output: writing)
        } catch {
            close(reading)
            throw error
        }
        let limit = JSONLimits.default.maxDocumentBytes
        let body = readAll(reading, limit: limit + 1)
        close(reading)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        // dce-send maps its failures onto the same documented statuses (2, 3), and has said why on standard error.
        guard exited else {
            Diagnostics.error("dce-send catalogue ended by signal \(status & 0x7F)")
            throw ExitStatus.failure
        }
        guard code == 0 else { throw ExitCode(code) }
        do {
            return try CatalogueBody(json: body)
        } catch {
            Diagnostics.error("dce-send catalogue printed no catalogue: \(error.message)")
            throw ExitStatus.failure
        }
    }

    /// Starts `executable` (as `dce-validate`, so that its diagnostics name the command the user ran) with standard
    /// input from /dev/null, standard output into `output`, standard error shared, and no signal blocked.
    private static func spawn(_ executable: String, arguments: [String], output: Int32) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["dce-validate"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard failure == 0 else { throw Companion.send.cannotRun(executable, failure) }
        return pid
    }

    /// Everything the descriptor gives until its end, or until `limit` bytes.
    private static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes {
                read(descriptor, $0.baseAddress, min($0.count, limit - bytes.count))
            }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return bytes
    }
}
