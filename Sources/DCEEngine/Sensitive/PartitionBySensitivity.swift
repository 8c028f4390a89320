extension CompiledSchema {
    /// A payload without the values of fields carrying any of `flags` (those values are returned apart, by
    /// pointer, as compact JSON); members the schema does not define are kept or dropped.
    package func partition(_ document: JSONDocument, removing flags: Sensitivity, keepUnknown: Bool) -> (
        SchemaValue, [(pointer: String, json: [UInt8])]
    ) {
        var removed: [(pointer: String, json: [UInt8])] = []
        func walk(_ index: JSONDocument.Index, of field: CompiledField, pointer: String) -> SchemaValue {
            switch (document.kind(of: index), field.dataType) {
            case (.object, .object):
                var members: [SchemaValue.Member] = []
                for member in document.members(of: index, describedBy: field) {
                    let (key, valueIndex) = (member.key, member.value)
                    let childPointer = JSONPointer.appending(key, to: pointer)
                    guard let child = member.field else {
                        if keepUnknown {
                            members.append(.init(key: key, value: SchemaValue(document: document, at: valueIndex)))
                        }
                        continue
                    }
                    if !child.sensitivity.isDisjoint(with: flags) && document.kind(of: valueIndex) != .null {
                        removed.append((childPointer, Array(SchemaValue(document: document, at: valueIndex).json.utf8)))
                    } else {
                        members.append(.init(key: key, value: walk(valueIndex, of: child, pointer: childPointer)))
                    }
                }
                return .object(members)
            case (.array, .array):
                guard let items = field.items else { return SchemaValue(document: document, at: index) }
                return .array(
                    document.elements(of: index).enumerated().map {
                        walk($0.element, of: items, pointer: "\(pointer)/\($0.offset)")
                    })
            default:
                return SchemaValue(document: document, at: index)
            }
        }
        return (walk(document.root, of: root, pointer: ""), removed)
    }

    /// Whether `pointer` names a field marked `pciEncryptionRequired`: the only places a sealed value may go back to.
    package func isSentEncrypted(at pointer: String) -> Bool {
        field(at: pointer)?.sensitivity.contains(.pciEncryptionRequired) == true
    }
}

extension CompiledSchema {
    /// The card numbers of a payload, digits only: the values of `pciEncryptionRequired` fields whose format (under
    /// any override) is a card number (`card-number`, `card-number-with-separators` or `luhn`). What a gateway counts
    /// to notice card testing; the values never leave the caller's memory.
    package func cardNumbers(in document: JSONDocument) -> [[UInt8]] {
        guard holdsCardNumbers else { return [] }
        let (_, sealed) = partition(document, removing: .pciEncryptionRequired, keepUnknown: false)
        return sealed.compactMap { place in
            guard field(at: place.pointer)?.isCardNumber == true,
                let value = try? JSONDocument(bytes: place.json), value.kind(of: value.root) == .string
            else { return nil }
            let digits = value.string(at: value.root).utf8.filter { $0 &- 0x30 < 10 }
            return digits.isEmpty ? nil : Array(digits)
        }
    }
}

extension CompiledField {
    /// Whether the field's format, under any override, is a card number (`card-number`,
    /// `card-number-with-separators` or `luhn`).
    var isCardNumber: Bool {
        ([base] + overrides.map(\.patch)).contains { $0.formatList.contains { $0.isCardNumber || $0 == .luhn } }
    }
}
