public import DCEEngine
public import Foundation

/// A store for partly filled forms, so a person can resume later, that never writes a restricted value.
///
/// Only the fields the schema defines are written, and of those never one marked `storageRestricted` or
/// `pciEncryptionRequired` (seed 004: "prohibited from being cached or otherwise stored in the app's private data
/// directory"); nor a text that looks like a card number in any other field (a PAN typed into the wrong box).
/// ``Draft/omitted`` lists their places so the form asks for them again. Files are written atomically, readable
/// by the owner only (0600), with complete data protection where the platform has it (iOS and the like: unreadable
/// while the device is locked).
///
/// ```swift
/// let store = try DraftStore(directory: appSupport.appendingPathComponent("drafts"))
/// let saved = try store.save(json: formJSON, as: "new-card", schema: prepared)   // saved.omitted == ["/cardPin"]
/// let draft = try store.load("new-card")                                         // values without the PIN
/// ```
public struct DraftStore: Sendable {
    /// The directory the drafts are written to.
    public let directory: URL

    /// A stored draft.
    public struct Draft: Sendable, Hashable {
        /// The schema the draft is for.
        public var schema: String
        /// That schema's version when saved.
        public var schemaVersion: String
        /// The values that were stored, as JSON.
        public var values: [UInt8]
        /// The places of values that were not stored (restricted), to ask for again.
        public var omitted: [String]
    }

    /// Opens a store, creating the directory (owner-only) if needed.
    ///
    /// - Parameter directory: Where drafts are kept.
    /// - Throws: When the directory cannot be created.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.directory = directory
    }

    /// Saves a draft without its restricted values.
    ///
    /// - Parameters:
    ///   - json: The form's values so far (need not be valid yet, but must be JSON).
    ///   - name: The draft's name: letters, digits, `.`, `_`, `-`.
    ///   - schema: The schema the form is for.
    /// - Returns: What was written.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`encoding`) for a payload that is not JSON or a bad name; file errors.
    @discardableResult
    public func save(json: [UInt8], as name: String, schema: PreparedSchema) throws -> Draft {
        let url = try file(name)
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: json)
        } catch {
            throw ValidatorError(code: .encoding, message: "a draft must be well-formed JSON", cause: error)
        }
        let (restricted, removed) = schema.schema.partition(
            document, removing: [.storageRestricted, .pciEncryptionRequired], keepUnknown: false)
        var omitted = removed.map(\.pointer)
        let kept = Self.withoutCardNumbers(
            restricted, pointer: "", brands: schema.schema.reference.cardBrands, omitted: &omitted)
        let draft = Draft(
            schema: schema.schema.id, schemaVersion: schema.schema.version, values: Array(kept.json.utf8),
            omitted: omitted)
        let file: SchemaValue = .object([
            .init(key: "schema", value: .string(draft.schema)),
            .init(key: "schemaVersion", value: .string(draft.schemaVersion)),
            .init(key: "values", value: kept),
            .init(key: "omitted", value: .array(draft.omitted.map { .string($0) })),
        ])
        // Complete data protection where the platform has it (iOS and the like): unreadable while the device is locked.
        try Data(file.json.utf8).write(to: url, options: [.atomic, .completeFileProtection])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return draft
    }

    /// Reads a draft.
    ///
    /// - Parameter name: The draft's name.
    /// - Returns: The draft, or `nil` when there is none.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`encoding`) for a file that is not a draft; file errors.
    public func load(_ name: String) throws -> Draft? {
        let url = try file(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let bytes = try [UInt8](Data(contentsOf: url))
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes)
        } catch {
            throw ValidatorError(code: .encoding, message: "\(url.path) is not a draft", cause: error)
        }
        guard case .object(let members) = SchemaValue(document: document, at: document.root),
            case .string(let schema)? = members.first(where: { $0.key == "schema" })?.value,
            case .string(let version)? = members.first(where: { $0.key == "schemaVersion" })?.value,
            let values = members.first(where: { $0.key == "values" })?.value,
            case .array(let omitted)? = members.first(where: { $0.key == "omitted" })?.value
        else {
            throw ValidatorError(code: .encoding, message: "\(url.path) is not a draft")
        }
        return Draft(
            schema: schema, schemaVersion: version, values: Array(values.json.utf8),
            omitted: omitted.compactMap { if case .string(let pointer) = $0 { pointer } else { nil } })
    }

    /// Deletes a draft (nothing happens when there is none).
    ///
    /// - Parameter name: The draft's name.
    /// - Throws: File errors other than a missing file.
    public func delete(_ name: String) throws {
        let url = try file(name)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// The value without any string that looks like a card number, whose places are added to `omitted`.
    static func withoutCardNumbers(
        _ value: SchemaValue, pointer: String, brands: CardBrands, omitted: inout [String]
    ) -> SchemaValue {
        switch value {
        case .object(let members):
            var kept: [SchemaValue.Member] = []
            for member in members {
                let place = JSONPointer.appending(member.key, to: pointer)
                if case .string(let text) = member.value, Redactor.containsCardNumber(text, brands: brands) {
                    omitted.append(place)
                } else {
                    kept.append(
                        .init(
                            key: member.key,
                            value: withoutCardNumbers(member.value, pointer: place, brands: brands, omitted: &omitted))
                    )
                }
            }
            return .object(kept)
        case .array(let elements):
            return .array(
                elements.enumerated().map {
                    withoutCardNumbers(
                        $0.element, pointer: "\(pointer)/\($0.offset)", brands: brands, omitted: &omitted)
                })
        default:
            return value
        }
    }

    private func file(_ name: String) throws(ValidatorError) -> URL {
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
        }
        guard !name.isEmpty, allowed, !name.hasPrefix(".") else {
            throw ValidatorError(
                code: .encoding,
                message: "a draft name uses letters, digits, '.', '_' and '-' and does not start with '.'")
        }
        return directory.appendingPathComponent(name + ".draft.json")
    }
}
