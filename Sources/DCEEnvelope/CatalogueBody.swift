import DCEEngine
package import Foundation

/// A schema catalogue as the gateway signs it and a client reads it: `{"version": …, "expires": …, "schemas": {…}}`.
///
/// The gateway's signature covers these exact bytes, so the version and the expiry a client checks are the ones the
/// gateway signed. `expires` is ``UTCTimestamp`` text (`2026-12-23T00:00:00Z`); schemas are written by sorted id.
package struct CatalogueBody: Sendable, Hashable {
    /// The catalogue's version.
    package var version: CatalogueVersion
    /// When clients stop using it, in whole seconds.
    package var expires: Date
    /// Schema documents by id.
    package var documents: [String: [UInt8]]

    /// Creates a catalogue.
    ///
    /// - Parameters:
    ///   - version: The version.
    ///   - expires: When clients stop using it; fractions of a second are dropped.
    ///   - documents: Schema documents by id.
    package init(version: CatalogueVersion, expires: Date, documents: [String: [UInt8]]) {
        self.version = version
        self.expires = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
        self.documents = documents
    }

    /// The body to sign.
    ///
    /// - Returns: The JSON bytes.
    /// - Throws: ``CatalogueError``: `invalidExpiry` outside the years 0001 to 9999, `malformed` when a document
    ///   is not JSON.
    package func json() throws(CatalogueError) -> [UInt8] {
        guard let expires = UTCTimestamp.string(from: expires) else {
            throw CatalogueError(
                code: .invalidExpiry, message: "the catalogue's expiry is outside the years 0001 to 9999")
        }
        var schemas: [SchemaValue.Member] = []
        for id in documents.keys.sorted() {
            let document: JSONDocument
            do {
                document = try JSONDocument(bytes: documents[id] ?? [])
            } catch {
                throw CatalogueError(code: .malformed, message: "schema '\(id)' is not JSON: \(error.message)")
            }
            schemas.append(.init(key: id, value: SchemaValue(document: document, at: document.root)))
        }
        return Array(
            SchemaValue.object([
                .init(key: "version", value: .string(version.description)),
                .init(key: "expires", value: .string(expires)),
                .init(key: "schemas", value: .object(schemas)),
            ]).description.utf8)
    }

    /// Reads a body.
    ///
    /// - Parameter json: The body's bytes.
    /// - Throws: ``CatalogueError``: `malformed` when it is not `{"version": "…", "expires": "…", "schemas": {…}}`
    ///   with each member once, `invalidVersion` or `invalidExpiry` when those members are not of their form.
    package init(json: [UInt8]) throws(CatalogueError) {
        guard let document = try? JSONDocument(bytes: json),
            case .object(let members) = SchemaValue(document: document, at: document.root)
        else {
            throw CatalogueError(code: .malformed, message: "the catalogue is not a JSON object")
        }
        func member(_ key: String) throws(CatalogueError) -> SchemaValue {
            let found = members.filter { $0.key == key }
            guard found.count == 1 else {
                throw CatalogueError(
                    code: key == "expires" && found.isEmpty ? .invalidExpiry : .malformed,
                    message: found.isEmpty
                        ? "the catalogue has no \"\(key)\"" : "the catalogue has \"\(key)\" more than once")
            }
            return found[0].value
        }
        guard case .string(let version) = try member("version") else {
            throw CatalogueError(code: .invalidVersion, message: "the catalogue's \"version\" is not a string")
        }
        guard case .string(let expiresText) = try member("expires"), let expires = UTCTimestamp.date(from: expiresText)
        else {
            throw CatalogueError(
                code: .invalidExpiry,
                message: "the catalogue's \"expires\" is not a UTC time such as 2026-12-23T00:00:00Z")
        }
        guard case .object(let schemas) = try member("schemas") else {
            throw CatalogueError(code: .malformed, message: "the catalogue's \"schemas\" is not an object")
        }
        var documents: [String: [UInt8]] = [:]
        for schema in schemas {
            guard documents.updateValue(Array(schema.value.description.utf8), forKey: schema.key) == nil else {
                throw CatalogueError(
                    code: .malformed, message: "the catalogue has schema '\(schema.key)' more than once")
            }
        }
        self.init(version: try CatalogueVersion(version), expires: expires, documents: documents)
    }
}
