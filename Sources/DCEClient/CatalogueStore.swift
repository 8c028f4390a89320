import DCEEngine
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last catalogue a ``SchemaCatalogue`` took, kept in one file of a directory the app gives it.
///
/// The file holds the body's exact bytes with the signature and ETag the gateway sent, so that at the next start the
/// signature can be checked again against the pinned key:
///
/// ```
/// dce-schema-catalogue 1
/// signature <base64 Ed25519 signature of the body>
/// etag <the gateway's ETag, or nothing>
/// length <bytes in the body>
///
/// <the body>
/// ```
///
/// It is written to a new file in the same directory, flushed to disk (`fsync`) and renamed over the old one, so a
/// crash leaves either the old file or the new one, never part of one. On iOS, tvOS, watchOS and visionOS the file has
/// complete data protection (class A: unreadable while the device is locked); other platforms have no such class.
struct CatalogueStore: Sendable {
    /// What the file holds.
    struct Record: Sendable, Hashable {
        var body: [UInt8]
        var signature: Data
        var etag: String?
    }

    /// Why the file could not be read or written.
    struct Problem: Error, Sendable {
        var reason: String
    }

    static let fileName = "schema-catalogue"
    private static let firstLine = "dce-schema-catalogue 1"

    let directory: URL

    var file: URL { directory.appendingPathComponent(Self.fileName) }

    /// The stored record, or `nil` when nothing was stored yet.
    func load() throws(Problem) -> Record? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            // A catalogue is at most one JSON document's size; a larger file is not one of ours.
            bytes = try handle.read(upToCount: JSONLimits.default.maxDocumentBytes + 4_096) ?? Data()
        } catch {
            throw Problem(reason: "the stored catalogue cannot be read: \(error.localizedDescription)")
        }
        return try Self.record(from: [UInt8](bytes))
    }

    /// Replaces the stored record.
    func save(_ record: Record) throws(Problem) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Problem(reason: "the catalogue cannot be stored: \(error.localizedDescription)")
        }
        let bytes = Self.bytes(of: record)
        let temporary = directory.appendingPathComponent(".\(Self.fileName).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(errno, "cannot create \(temporary.lastPathComponent)") }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // Class A, NSFileProtectionComplete, set before a byte is written; the rename keeps it.
            _ = fcntl(descriptor, F_SETPROTECTIONCLASS, 1)
        #endif
        var failed: Problem?
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        if !written {
            failed = Self.failure(errno, "cannot write \(temporary.lastPathComponent)")
        } else if fsync(descriptor) != 0 {
            failed = Self.failure(errno, "cannot flush \(temporary.lastPathComponent) to disk")
        }
        if close(descriptor) != 0, failed == nil {
            failed = Self.failure(errno, "cannot close \(temporary.lastPathComponent)")
        }
        if failed == nil, rename(temporary.path, file.path) != 0 {
            failed = Self.failure(errno, "cannot rename \(temporary.lastPathComponent) to \(Self.fileName)")
        }
        if let failed {
            unlink(temporary.path)
            throw failed
        }
        // The rename lasts once the directory is flushed too; file systems that cannot flush a directory refuse
        // quietly, and the file itself is complete either way.
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            _ = close(directoryDescriptor)
        }
    }

    static func bytes(of record: Record) -> [UInt8] {
        let etag = record.etag.flatMap { $0.contains(where: \.isNewline) ? nil : $0 } ?? ""
        let header =
            "\(firstLine)\nsignature \(record.signature.base64EncodedString())\netag \(etag)\nlength \(record.body.count)\n\n"
        return Array(header.utf8) + record.body
    }

    static func record(from bytes: [UInt8]) throws(Problem) -> Record {
        let separator = Array("\n\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Problem(reason: "the stored catalogue is not a catalogue file (no header)")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == firstLine, lines[1].hasPrefix("signature "), lines[2].hasPrefix("etag "),
            lines[3].hasPrefix("length "), let length = Int(lines[3].dropFirst("length ".count)), length >= 0
        else {
            throw Problem(reason: "the stored catalogue is not a catalogue file (unknown header)")
        }
        let body = bytes[(end + separator.count)...]
        guard body.count == length else {
            throw Problem(
                reason: body.count < length
                    ? "the stored catalogue is truncated: \(body.count) of \(length) bytes"
                    : "the stored catalogue has bytes after its end")
        }
        let etag = String(lines[2].dropFirst("etag ".count))
        return Record(
            body: Array(body), signature: Data(base64Encoded: String(lines[1].dropFirst("signature ".count))) ?? Data(),
            etag: etag.isEmpty ? nil : etag)
    }

    /// The problem of a system call that failed, told by its `errno` (taken before anything else can change it).
    private static func failure(_ code: Int32, _ what: String) -> Problem {
        Problem(reason: "the catalogue cannot be stored: \(what): \(String(cString: strerror(code)))")
    }
}
