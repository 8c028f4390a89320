extension PreparedSchema {
    /// What a masked copy writes instead of a value that is withheld (of a field marked `pciEncryptionRequired` or
    /// `storageRestricted`, or of a member the schema does not know): the same for every value, so that not even its
    /// length shows.
    public static let withheldMarker = "[withheld]"

    /// A copy of a payload that is safe to show or log — an app displaying a submitted request, a support tool, a CI
    /// report of a failing case — driven by the schema's metadata and the one ``Masking`` policy:
    ///
    /// - a string of a field marked `maskingRequired` (under any tender type) is masked for display, even when the
    ///   field is also encrypted or not to be stored (``Masking/mask(_:brands:)``): a card number
    ///   (``Masking/isCardNumber(_:brands:)``) in its brand's groups with only the last four digits shown
    ///   (`•••• •••• •••• 1111`), any other text with `•` for every character but the last four, shown only when it
    ///   has at least 12 characters (`••••••••••••5678`, `••••••••`);
    /// - any other value of a field marked `pciEncryptionRequired`, `storageRestricted` or `maskingRequired` becomes
    ///   ``withheldMarker``, whatever it was (a security code, a PIN, a number where text belongs);
    /// - a member the schema does not know keeps its key, and its value becomes ``withheldMarker``: the schema
    ///   cannot say what it holds;
    /// - a card number in any other field (in a string or a number) is masked as ``Redactor`` masks it, in its
    ///   brand's groups;
    /// - everything else stays as it came, byte for byte: order, spacing and escapes. `null` stays `null`.
    ///
    /// ```swift
    /// let copy = try prepared.masked(json: Array(body.utf8))
    /// print(String(decoding: copy, as: UTF8.self))   // {"cardNumber": "•••• •••• •••• 1111", "securityCode": "[withheld]", ...}
    /// ```
    ///
    /// - Parameters:
    ///   - json: The payload.
    ///   - limits: The JSON reader's limits.
    /// - Returns: The masked copy, UTF-8.
    /// - Throws: ``JSONReadError`` with line and column when the payload is not well-formed JSON: without its
    ///   structure nothing in it can be told apart, so no copy is made.
    public func masked(json: [UInt8], limits: JSONLimits = .default) throws(JSONReadError) -> [UInt8] {
        let document = try JSONDocument(bytes: json, limits: limits)
        var replacements: [(range: Range<Int>, text: String)] = []
        let freeText = Redactor(sensitiveKeys: [], cardBrands: schema.reference.cardBrands)
        CompiledField.visit(schema.root, in: document, at: document.root) { field, index, _, _, item in
            let kind = document.kind(of: index)
            if field == nil && !item {
                // The schema cannot say what a member it does not know holds: its key stays, its value does not.
                if kind != .null {
                    replacements.append((document.byteRange(of: index), SchemaValue.quote(Self.withheldMarker)))
                }
                return false
            }
            if let field, let text = mask(document, at: index, of: field) {
                replacements.append((document.byteRange(of: index), text))
                return false
            }
            if kind == .string || kind == .number {
                // A card number where no field marks one (in a free-text field, say) is masked too.
                let text = kind == .string ? document.string(at: index) : document.numberLexeme(at: index)
                let redacted = freeText.redact(text)
                if redacted != text {
                    replacements.append((document.byteRange(of: index), SchemaValue.quote(redacted)))
                }
            }
            return true
        }
        var output: [UInt8] = []
        output.reserveCapacity(json.count)
        var cursor = 0
        for replacement in replacements {  // in document order, none inside another
            output.append(contentsOf: json[cursor..<replacement.range.lowerBound])
            output.append(contentsOf: replacement.text.utf8)
            cursor = replacement.range.upperBound
        }
        output.append(contentsOf: json[cursor...])
        return output
    }

    /// The JSON text that replaces a sensitive field's value, or `nil` for a field that is not sensitive (or a `null`).
    private func mask(_ document: JSONDocument, at index: JSONDocument.Index, of field: CompiledField) -> String? {
        let exposure = field.sensitivity.exposure
        guard exposure != .value, document.kind(of: index) != .null else { return nil }
        guard exposure == .maskedForm, document.kind(of: index) == .string else {
            return SchemaValue.quote(Self.withheldMarker)
        }
        return SchemaValue.quote(Masking.mask(document.string(at: index), brands: schema.reference.cardBrands))
    }
}

extension JSONDocument {
    /// The bytes a value takes in the text: a string with its quotes, a container up to its closing bracket.
    func byteRange(of index: Index) -> Range<Int> {
        let node = nodes[index]
        let start = Int(node.start)
        switch node.kind {
        case .string: return (start - 1)..<(textRange(of: index).upperBound + 1)
        case .null, .boolean, .number: return textRange(of: index)
        case .object, .array:
            // The text is well-formed: count brackets outside strings until this one closes.
            var depth = 0
            var inString = false
            var offset = start
            while offset < bytes.count {
                let byte = bytes[offset]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        offset += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return start..<(offset + 1) }
                }
                offset += 1
            }
            return start..<bytes.count
        }
    }
}
