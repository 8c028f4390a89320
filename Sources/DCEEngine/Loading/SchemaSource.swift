public import Foundation

/// Where schema files come from: a directory of `<id>.json` files, the schemas bundled with the package, or
/// documents held in memory (fetched from a gateway, or built by a test).
public enum SchemaSource: Sendable {
    /// `<id>.json` files in a directory; files ending in `.schema.json` (the published meta-schema) are not schemas.
    case directory(URL)
    /// The schemas shipped inside the package (the repository's `Schemas/` folder).
    case bundled
    /// Schema documents by id, as UTF-8 JSON.
    case documents([String: [UInt8]])

    /// The bundled schemas' directory, looked up once: on Linux each lookup lists the bundle's directories, which
    /// cost milliseconds per schema read at start-up.
    static let bundledDirectory: URL? = Bundle.module.url(forResource: "Schemas", withExtension: nil)

    /// Where a message says schemas were looked for: `in '<directory>'`, `among the bundled schemas`.
    var whereSchemasAre: String {
        switch self {
        case .directory(let url):
            FileManager.default.fileExists(atPath: url.path)
                ? "in '\(url.path)'" : "in '\(url.path)', which does not exist"
        case .bundled: "among the bundled schemas"
        case .documents: "among the schemas given"
        }
    }

    /// The ids of every schema the source holds, sorted.
    ///
    /// - Throws: ``SchemaError`` when the directory cannot be listed.
    public func schemaIDs() throws(SchemaError) -> [String] {
        switch self {
        case .documents(let documents): return documents.keys.filter { !$0.hasPrefix(Self.referencePrefix) }.sorted()
        case .bundled, .directory:
            let directory = try self.directory()
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            } catch {
                throw SchemaError(problems: [
                    FileFailure.problem("cannot list the schema directory '\(directory.path)'", path: "", error: error)
                ])
            }
            return names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
                .map { String($0.dropLast(5)) }.sorted()
        }
    }

    /// Every schema document of the source by id, and its reference data files as `reference/<id>` (to serve a
    /// catalogue, or to lay overrides on top of it).
    ///
    /// - Returns: The documents' bytes by id.
    /// - Throws: ``SchemaError`` when a file cannot be read.
    public func documents() throws(SchemaError) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for id in try schemaIDs() {
            if let (bytes, _) = try read(id) { result[id] = bytes }
        }
        for (id, document) in try referenceDocuments() { result[Self.referencePrefix + id] = document.bytes }
        return result
    }

    /// The bytes of one schema and the file name to report problems against; `nil` if there is no such schema.
    func read(_ id: String) throws(SchemaError) -> (bytes: [UInt8], file: String)? {
        switch self {
        case .documents(let documents):
            return documents[id].map { ($0, "<\(id)>") }
        case .bundled, .directory:
            guard Self.isPlausibleID(id) else { return nil }
            let url = try directory().appendingPathComponent(id + ".json")
            // A link to nothing is a schema the directory lists that cannot be read, not a schema it lacks.
            guard FileManager.default.fileExists(atPath: url.path) || Self.isSymbolicLink(url.path) else { return nil }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw SchemaError(problems: [
                    FileFailure.problem("cannot read the schema file", path: url.path, error: error)
                ])
            }
            return ([UInt8](data), url.path)
        }
    }

    /// The directory of the reference data files: `reference/` in the schema directory.
    func referenceDirectory() throws(SchemaError) -> URL { try directory().appendingPathComponent("reference") }

    private func directory() throws(SchemaError) -> URL {
        switch self {
        case .directory(let url): return url
        case .bundled:
            guard let url = Self.bundledDirectory else {
                throw SchemaError(problems: [
                    SchemaProblem(
                        code: .unreadable, message: "the bundled schemas are missing from the package's resources",
                        location: SchemaLocation(file: "Schemas", pointer: "", position: nil))
                ])
            }
            return url
        case .documents: preconditionFailure("in-memory sources have no directory")
        }
    }

    /// Whether the path is a symbolic link, whether or not its target exists.
    static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Schema ids are file names: letters, digits, `-`, `_` and `.`, so an id can never reach outside the directory.
    static func isPlausibleID(_ id: String) -> Bool {
        !id.isEmpty && !id.hasPrefix(".")
            && id.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
            }
    }
}
