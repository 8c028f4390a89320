public import DCEEngine

/// The value of a field marked `pciEncryptionRequired`, taken out of a payload so that it can be encrypted on
/// its own. It prints as `<redacted>`; only an encryptor should read ``json``.
public struct SensitiveField: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// Where the value was, as a JSON Pointer (`/cardPin`, `/owners/0/ssn`).
    public let pointer: String
    /// The value as compact JSON text (a string value keeps its quotes).
    public let json: [UInt8]

    /// Wraps a value.
    ///
    /// - Parameters:
    ///   - pointer: Where it belongs.
    ///   - json: The value as JSON text.
    public init(pointer: String, json: [UInt8]) {
        self.pointer = pointer
        self.json = json
    }

    /// The pointer and `<redacted>`.
    public var description: String { "\(pointer): <redacted>" }
    /// The pointer and `<redacted>`.
    public var debugDescription: String { "SensitiveField(\(pointer): <redacted>)" }
    /// The pointer only, so `dump` shows nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: ["pointer": pointer], displayStyle: .struct) }
}

/// Sensitive values taken out of a payload to be sealed, and put back once opened.
extension PreparedSchema {
    /// Splits a payload into what may travel in clear and the values of the fields marked `pciEncryptionRequired`,
    /// which are left out of the clear part (for an encryptor to seal one by one).
    ///
    /// - Parameter json: The payload, normally ``/DCEEngine/ResolvedRequest/payload``.
    /// - Returns: The clear payload and the sensitive values, in document order.
    /// - Throws: ``/DCEEngine/ValidatorError`` with code `encoding` when the payload is not JSON.
    public func separatingEncryptedFields(json: [UInt8]) throws(ValidatorError) -> (
        clear: [UInt8], fields: [SensitiveField]
    ) {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: json)
        } catch {
            throw ValidatorError(code: .encoding, message: "the payload to split is not well-formed JSON", cause: error)
        }
        let (clear, fields) = schema.partition(document, removing: .pciEncryptionRequired, keepUnknown: true)
        return (Array(clear.json.utf8), fields.map { SensitiveField(pointer: $0.pointer, json: $0.json) })
    }

    /// Puts decrypted values back into a clear payload: the inverse of ``separatingEncryptedFields(json:)``.
    ///
    /// Each pointer must name a field marked `pciEncryptionRequired` whose place is empty in the clear payload, so
    /// a tampered envelope cannot overwrite a clear value or smuggle a value into another field.
    ///
    /// - Parameters:
    ///   - clear: The clear payload.
    ///   - fields: The decrypted values.
    /// - Returns: The whole payload, to validate.
    /// - Throws: ``/DCEEngine/ValidatorError`` (`unknownField`) for a pointer that is not an empty encrypted field's
    ///   place.
    public func mergingEncryptedFields(clear: [UInt8], fields: [SensitiveField]) throws(ValidatorError) -> [UInt8] {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: clear)
        } catch {
            throw ValidatorError(code: .encoding, message: "the clear payload is not well-formed JSON", cause: error)
        }
        var root = SchemaValue(document: document, at: document.root)
        for field in fields {
            guard let tokens = JSONPointer.tokens(of: field.pointer), !tokens.isEmpty,
                schema.isSentEncrypted(at: field.pointer),
                let value = try? JSONDocument(bytes: field.json)
            else {
                throw ValidatorError(
                    code: .unknownField, message: "'\(field.pointer)' is not a field that is sent encrypted")
            }
            guard
                root.inserting(SchemaValue(document: value, at: value.root), at: tokens[...]).map({ root = $0 }) != nil
            else {
                throw ValidatorError(
                    code: .unknownField, message: "'\(field.pointer)' has no empty place in the clear payload")
            }
        }
        return Array(root.json.utf8)
    }
}

extension SchemaValue {
    /// This value with `value` added where `tokens` lead; `nil` when the parent does not exist or the place is taken.
    fileprivate func inserting(_ value: SchemaValue, at tokens: ArraySlice<String>) -> SchemaValue? {
        guard let token = tokens.first else { return nil }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var members):
            let existing = members.firstIndex { $0.key == token }
            if rest.isEmpty {
                guard existing == nil else { return nil }
                members.append(.init(key: token, value: value))
            } else {
                guard let existing, let changed = members[existing].value.inserting(value, at: rest) else { return nil }
                members[existing].value = changed
            }
            return .object(members)
        case .array(var elements):
            guard !rest.isEmpty, let index = Int(token), elements.indices.contains(index),
                let changed = elements[index].inserting(value, at: rest)
            else { return nil }
            elements[index] = changed
            return .array(elements)
        default:
            return nil
        }
    }
}
