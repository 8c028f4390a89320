public import DCEEngine
public import Foundation

/// One value of a field marked `pciEncryptionRequired`, sealed to the gateway's public key.
///
/// The package's own sealer (`DCECrypto.HPKEFieldSealer`) fills it; the engine only carries it. Every member is
/// public data: the algorithm and key id name how to open it, the rest is ciphertext.
public struct EncryptedField: Sendable, Hashable, Codable {
    /// Where the value belongs in the payload.
    public var pointer: String
    /// The scheme, such as `HPKE-Base-X25519-SHA256-ChaChaPoly`.
    public var algorithm: String
    /// Which of the gateway's keys the value is sealed to.
    public var keyID: String
    /// The HPKE encapsulated key, base64.
    public var encapsulatedKey: String
    /// The sealed value, base64.
    public var ciphertext: String

    /// Creates a sealed value.
    ///
    /// - Parameters:
    ///   - pointer: Where the value belongs.
    ///   - algorithm: The scheme.
    ///   - keyID: The recipient key's id.
    ///   - encapsulatedKey: The encapsulated key, base64.
    ///   - ciphertext: The ciphertext, base64.
    public init(pointer: String, algorithm: String, keyID: String, encapsulatedKey: String, ciphertext: String) {
        self.pointer = pointer
        self.algorithm = algorithm
        self.keyID = keyID
        self.encapsulatedKey = encapsulatedKey
        self.ciphertext = ciphertext
    }
}

/// Seals the values of `pciEncryptionRequired` fields; implemented outside the engine (`DCECrypto`), so that the
/// engine depends on Foundation and PCRE2 alone.
public protocol FieldSealing: Sendable {
    /// Seals one value.
    ///
    /// - Parameters:
    ///   - field: The value.
    ///   - associatedData: What the ciphertext is bound to (request, schema, context, clear values, pointer): opening
    ///     it with anything else fails.
    /// - Returns: The sealed value.
    /// - Throws: When sealing fails.
    func seal(_ field: SensitiveField, associatedData: [UInt8]) throws -> EncryptedField
}

/// Opens sealed values with the gateway's private key (the server side of ``FieldSealing``).
public protocol FieldOpening: Sendable {
    /// Opens one value.
    ///
    /// - Parameters:
    ///   - field: The sealed value.
    ///   - associatedData: The same binding the sender used.
    /// - Returns: The value.
    /// - Throws: When the value was tampered with, moved, or sealed to another key.
    func open(_ field: EncryptedField, associatedData: [UInt8]) throws -> SensitiveField
}

/// Who sent what: the envelope's members other than the values.
public struct EnvelopeHeader: Sendable, Hashable {
    /// The caller's id for this request; also the idempotency key of retries.
    public var requestID: String
    /// The schema the values were validated against.
    public var schema: String
    /// That schema's version.
    public var schemaVersion: String
    /// The context the values were validated in (supplied and derived).
    public var context: [String: String]
    /// The tender type, if any.
    public var tenderType: String?
    /// When the envelope was built. It is part of what every sealed value is bound to, so it cannot be changed
    /// without the seal failing: a gateway refuses envelopes older than its replay window.
    public var createdAt: Date? {
        get { createdAtText.flatMap(RFC3339.date(from:)) }
        set { createdAtText = newValue.map(RFC3339.string(from:)) }
    }
    /// The creation time as it travels: kept as received, so that the seal's binding is rebuilt byte for byte.
    private var createdAtText: String?

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - requestID: The request id.
    ///   - schema: The schema id.
    ///   - schemaVersion: The schema version.
    ///   - context: The context.
    ///   - tenderType: The tender type.
    ///   - createdAt: When the envelope was built (RFC 3339, milliseconds, UTC on the wire).
    public init(
        requestID: String, schema: String, schemaVersion: String, context: [String: String], tenderType: String?,
        createdAt: Date? = nil
    ) {
        self.requestID = requestID
        self.schema = schema
        self.schemaVersion = schemaVersion
        self.context = context
        self.tenderType = tenderType
        self.createdAtText = createdAt.map(RFC3339.string(from:))
    }

    /// A header read from the wire, its creation time as sent.
    init(
        requestID: String, schema: String, schemaVersion: String, context: [String: String], tenderType: String?,
        createdAtText: String?
    ) {
        self.init(
            requestID: requestID, schema: schema, schemaVersion: schemaVersion, context: context, tenderType: tenderType
        )
        self.createdAtText = createdAtText
    }

    /// What the sealed values of an envelope are bound to: this header and the clear values; written once per
    /// envelope, then completed with each value's place by ``associatedData(binding:pointer:)``.
    func binding(values: SchemaValue) -> String { wire(values: values, encryptedFields: []).json }

    /// What one sealed value is bound to: the envelope's ``binding(values:)`` and the value's place.
    static func associatedData(binding: String, pointer: String) -> [UInt8] {
        Array("dce-validate/v1\n\(pointer)\n\(binding)".utf8)
    }

    /// The envelope's JSON members, in a fixed order.
    func wire(values: SchemaValue, encryptedFields: [EncryptedField]) -> SchemaValue {
        .object([
            .init(key: "requestId", value: .string(requestID)),
            .init(key: "createdAt", value: createdAtText.map { .string($0) } ?? .null),
            .init(key: "schema", value: .string(schema)),
            .init(key: "schemaVersion", value: .string(schemaVersion)),
            .init(
                key: "context",
                value: .object(context.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })),
            .init(key: "tenderType", value: tenderType.map { .string($0) } ?? .null),
            .init(key: "values", value: values),
            .init(
                key: "encryptedFields",
                value: .array(
                    encryptedFields.map { field in
                        .object([
                            .init(key: "pointer", value: .string(field.pointer)),
                            .init(key: "algorithm", value: .string(field.algorithm)),
                            .init(key: "keyId", value: .string(field.keyID)),
                            .init(key: "encapsulatedKey", value: .string(field.encapsulatedKey)),
                            .init(key: "ciphertext", value: .string(field.ciphertext)),
                        ])
                    })),
        ])
    }
}

/// The envelope of every call to the gateway (`PDRequest`, seed 004): built only from a request that passed
/// validation, so an invalid request cannot be sent.
///
/// ```swift
/// switch try prepared.makeRequest(json: payload, requestID: UUID().uuidString, sealer: sealer) {
/// case .valid(let request): send(request.json)
/// case .invalid(let report): show(report.errors)
/// }
/// ```
///
/// It carries the request id, the schema id and version, the context, the tender type, the values after
/// defaults, and each `pciEncryptionRequired` value sealed on its own; those values are never in ``values``.
public struct PDRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The request id, schema, version, context and tender type.
    public let header: EnvelopeHeader
    /// The values after defaults, without the encrypted ones.
    public let values: SchemaValue
    /// The `pciEncryptionRequired` values, sealed.
    public let encryptedFields: [EncryptedField]
    /// The report of the validation the values passed.
    public let report: ValidationReport

    /// The envelope as JSON, members in a fixed order.
    public var json: [UInt8] { Array(header.wire(values: values, encryptedFields: encryptedFields).json.utf8) }

    /// The ids, and how many values are sealed; never a value.
    public var description: String {
        "PDRequest(\(header.requestID), \(header.schema) \(header.schemaVersion), \(encryptedFields.count) encrypted field\(encryptedFields.count == 1 ? "" : "s"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The header and the sealed values, not the clear values (a `storageRestricted` value need not be sealed).
    public var customMirror: Mirror {
        Mirror(self, children: ["header": header, "encryptedFields": encryptedFields], displayStyle: .struct)
    }
}

/// An envelope as a gateway receives it: read, not trusted. ``DCEEngine/Validator/accept(_:opener:maxErrors:)``
/// opens its sealed values and validates the whole request again.
public struct IncomingRequest: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The request id, schema, version, context and tender type, as the sender claims them.
    public let header: EnvelopeHeader
    /// The clear values.
    public let values: SchemaValue
    /// The sealed values.
    public let encryptedFields: [EncryptedField]

    /// Reads an envelope.
    ///
    /// - Parameter json: The request body.
    /// - Throws: ``EnvelopeError`` with code `encoding`, naming what is wrong, when it is not an envelope.
    public init(json: [UInt8]) throws(EnvelopeError) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: json)
        } catch {
            throw EnvelopeError(code: .encoding, message: "the envelope is not well-formed JSON: \(error.message)")
        }
        guard case .object(let members) = SchemaValue(document: document, at: document.root) else {
            throw EnvelopeError(code: .encoding, message: "the envelope is not a JSON object")
        }
        func member(_ key: String, in members: [SchemaValue.Member] = members) -> SchemaValue? {
            members.first { $0.key == key }?.value
        }
        func string(_ key: String, in members: [SchemaValue.Member] = members) throws(EnvelopeError) -> String {
            guard case .string(let text) = member(key, in: members) else {
                throw EnvelopeError(code: .encoding, message: "the envelope needs a string '\(key)'")
            }
            return text
        }
        let requestID = try string("requestId")
        let schema = try string("schema")
        let schemaVersion = try string("schemaVersion")
        var context: [String: String] = [:]
        if case .object(let entries) = member("context") {
            for entry in entries {
                guard case .string(let value) = entry.value else {
                    throw EnvelopeError(code: .encoding, message: "context '\(entry.key)' must be a string")
                }
                context[entry.key] = value
            }
        }
        var tenderType: String?
        if case .string(let value) = member("tenderType") { tenderType = value }
        var createdAt: String?
        switch member("createdAt") {
        case .string(let text)?:
            guard RFC3339.date(from: text) != nil else {
                throw EnvelopeError(code: .encoding, message: "the envelope's 'createdAt' is not an RFC 3339 date-time")
            }
            createdAt = text
        case nil, .null?: break
        default: throw EnvelopeError(code: .encoding, message: "the envelope's 'createdAt' must be a string")
        }
        header = EnvelopeHeader(
            requestID: requestID, schema: schema, schemaVersion: schemaVersion, context: context,
            tenderType: tenderType, createdAtText: createdAt)
        guard let values = member("values") else {
            throw EnvelopeError(code: .encoding, message: "the envelope has no 'values'")
        }
        self.values = values
        var fields: [EncryptedField] = []
        if case .array(let entries) = member("encryptedFields") {
            for entry in entries {
                guard case .object(let entry) = entry else {
                    throw EnvelopeError(code: .encoding, message: "each of 'encryptedFields' must be an object")
                }
                fields.append(
                    EncryptedField(
                        pointer: try string("pointer", in: entry), algorithm: try string("algorithm", in: entry),
                        keyID: try string("keyId", in: entry),
                        encapsulatedKey: try string("encapsulatedKey", in: entry),
                        ciphertext: try string("ciphertext", in: entry)))
            }
        } else if member("encryptedFields") != nil {
            throw EnvelopeError(code: .encoding, message: "'encryptedFields' must be an array")
        }
        encryptedFields = fields
    }

    /// The ids; never a value.
    public var description: String { "IncomingRequest(\(header.requestID), \(header.schema) \(header.schemaVersion))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The header and the sealed values, not the clear values.
    public var customMirror: Mirror {
        Mirror(self, children: ["header": header, "encryptedFields": encryptedFields], displayStyle: .struct)
    }
}

/// What building an envelope gives: the envelope of a valid request, or the report of an invalid one.
public enum BuiltRequest: Sendable, Hashable {
    /// The request passed validation; its envelope.
    case valid(PDRequest)
    /// The request failed validation; nothing was sealed.
    case invalid(ValidationReport)
}

/// The app's side: a validated request made into an envelope.
extension PreparedSchema {
    /// Builds the envelope of a request: applies defaults, validates, and only when the request is valid seals
    /// every `pciEncryptionRequired` value and returns the envelope; otherwise the report.
    ///
    /// - Parameters:
    ///   - json: The request as the app built it.
    ///   - requestID: The request's id (and idempotency key).
    ///   - sealer: Seals the sensitive values to the gateway's key.
    ///   - createdAt: The envelope's creation time (now by default), bound into every seal: a gateway refuses an
    ///     envelope older than its replay window, so build the envelope when the request is sent.
    /// - Returns: The envelope, or the report of an invalid request.
    /// - Throws: What the sealer throws.
    public func makeRequest(json: [UInt8], requestID: String, sealer: some FieldSealing, createdAt: Date = Date())
        throws -> BuiltRequest
    {
        let resolved = resolve(json: json)
        guard let payload = resolved.payload, resolved.report.valid else { return .invalid(resolved.report) }
        let (clear, sensitive) = try separatingEncryptedFields(json: payload)
        let document = try JSONDocument(bytes: clear)
        let values = SchemaValue(document: document, at: document.root)
        let report = resolved.report
        let header = EnvelopeHeader(
            requestID: requestID, schema: report.schema, schemaVersion: report.schemaVersion, context: report.context,
            tenderType: report.tenderType, createdAt: createdAt)
        let binding = header.binding(values: values)
        let sealed = try sensitive.map {
            try sealer.seal($0, associatedData: EnvelopeHeader.associatedData(binding: binding, pointer: $0.pointer))
        }
        return .valid(PDRequest(header: header, values: values, encryptedFields: sealed, report: report))
    }
}

/// An opener returned a value for another place than the sealed value names.
private struct FieldMismatch: Error {}

/// The gateway's side: an envelope opened and validated again.
extension Validator {
    /// The gateway's side: opens an envelope's sealed values and validates the whole request again, trusting
    /// nothing the sender checked.
    ///
    /// - Parameters:
    ///   - request: The envelope as received.
    ///   - opener: Opens sealed values with the gateway's private key.
    ///   - maxErrors: The most violations the report keeps; the rest are counted in
    ///     ``/DCEEngine/ValidationReport/omittedErrors`` (see ``/DCEEngine/PreparedSchema/limitingErrors(to:)``).
    /// - Returns: The report and, when valid, the whole payload (clear and opened values).
    /// - Throws: ``EnvelopeError`` for an unknown schema, context or tender type, a schema that is not a request
    ///   (`notARequest`), a schema version the gateway does not have, a `pciEncryptionRequired` value in clear
    ///   (`notEncrypted`; the error names its place, never the value), or a sealed value that does not open
    ///   (tampered, moved, or sealed to another key).
    public func accept(
        _ request: IncomingRequest, opener: some FieldOpening, maxErrors: Int = PreparedSchema.defaultMaxErrors
    ) throws(EnvelopeError) -> (report: ValidationReport, payload: [UInt8]?) {
        let header = request.header
        guard let compiled = schema(header.schema) else {
            throw EnvelopeError(code: .unknownSchema, message: "no schema with id '\(header.schema)'")
        }
        guard compiled.kind == .request else {
            throw EnvelopeError(
                code: .notARequest,
                message: "'\(header.schema)' is a \(compiled.kind.rawValue) schema, not a request: it cannot be posted")
        }
        guard compiled.version == header.schemaVersion else {
            throw EnvelopeError(
                code: .versionMismatch,
                message:
                    "the request was validated against \(header.schema) \(header.schemaVersion); this gateway has \(compiled.version)"
            )
        }
        let prepared: PreparedSchema
        do {
            prepared = try prepare(header.schema, context: header.context, tenderType: header.tenderType)
                .limitingErrors(to: maxErrors)
        } catch {
            throw EnvelopeError(error)
        }
        // A PCI value must arrive sealed: one in clear has already crossed the wire unprotected, and is refused
        // without being checked, echoed or kept.
        let clear = Array(request.values.json.utf8)
        if let document = try? JSONDocument(bytes: clear) {
            let (_, exposed) = compiled.partition(document, removing: .pciEncryptionRequired, keepUnknown: false)
            if let first = exposed.first {
                throw EnvelopeError(
                    code: .notEncrypted,
                    message:
                        "'\(first.pointer)' is marked pciEncryptionRequired and arrived in clear: it must be sealed to the gateway's key"
                )
            }
        }
        var opened: [SensitiveField] = []
        let binding = request.encryptedFields.isEmpty ? "" : header.binding(values: request.values)
        for field in request.encryptedFields {
            do {
                let value = try opener.open(
                    field, associatedData: EnvelopeHeader.associatedData(binding: binding, pointer: field.pointer))
                guard value.pointer == field.pointer else { throw FieldMismatch() }
                opened.append(value)
            } catch {
                throw EnvelopeError(
                    code: .tampered,
                    message:
                        "the encrypted value at '\(field.pointer)' does not open: it was changed, moved, or sealed to another key"
                )
            }
        }
        let payload: [UInt8]
        do {
            payload = try prepared.mergingEncryptedFields(clear: clear, fields: opened)
        } catch {
            throw EnvelopeError(error)
        }
        let report = prepared.validate(json: payload)
        return (report, report.valid ? payload : nil)
    }
}
