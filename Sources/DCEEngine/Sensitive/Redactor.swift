/// Takes sensitive values out of free text before it is logged: the value after any key of a sensitive field
/// (`cardPin=1234`, `"cardNumber": "4111…"`) becomes all `X`, and in every run of 13 to 19 digits with a valid
/// Luhn check digit (a card number, even under an unexpected name) all but the last four digits become `X`.
///
/// The swift-log handler in `DCELogging` uses it; it works on any string, for any logging system.
///
/// ```swift
/// let redactor = Redactor(validator: validator)
/// redactor.redact("retrying cardPin=8264 for 4111 1111 1111 1111")   // "retrying cardPin=XXXX for XXXX XXXX XXXX 1111"
/// ```
public struct Redactor: Sendable {
    /// The member names whose values are masked.
    public let sensitiveKeys: Set<String>

    /// A redactor for every field marked `pciEncryptionRequired`, `storageRestricted` or `maskingRequired` in the
    /// validator's schemas, and any further names.
    ///
    /// - Parameters:
    ///   - validator: The compiled schemas.
    ///   - extraKeys: More names to treat as sensitive (`cvv`, `pan`, …).
    public init(validator: Validator, extraKeys: Set<String> = []) {
        var keys = extraKeys
        func collect(_ field: CompiledField) {
            if !field.sensitivity.isEmpty, let key = field.key { keys.insert(key) }
            field.fields.forEach(collect)
            field.items.map(collect)
        }
        for id in validator.schemaIDs { validator.schema(id).map { collect($0.root) } }
        self.sensitiveKeys = keys
    }

    /// A redactor for these names.
    ///
    /// - Parameter sensitiveKeys: The member names whose values are masked.
    public init(sensitiveKeys: Set<String>) { self.sensitiveKeys = sensitiveKeys }

    /// Whether a metadata key names a sensitive field.
    ///
    /// - Parameter key: The key.
    /// - Returns: `true` for a sensitive field's name.
    public func isSensitive(key: String) -> Bool { sensitiveKeys.contains(key) }

    /// The text with every sensitive value masked.
    ///
    /// - Parameter text: Free text, such as a log message or a JSON body.
    /// - Returns: The text, masked.
    public func redact(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        maskKeyedValues(&scalars)
        maskCardNumbers(&scalars)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// `key` then optional quote, spaces, `:` or `=`, spaces, optional quote: the value up to its end is masked.
    private func maskKeyedValues(_ scalars: inout [Unicode.Scalar]) {
        for key in sensitiveKeys {
            let needle = Array(key.unicodeScalars)
            guard !needle.isEmpty else { continue }
            var index = 0
            while index + needle.count <= scalars.count {
                guard scalars[index..<index + needle.count].elementsEqual(needle),
                    index == 0 || !Self.isNameCharacter(scalars[index - 1])
                else {
                    index += 1
                    continue
                }
                var cursor = index + needle.count
                if cursor < scalars.count, scalars[cursor] == "\"" { cursor += 1 }
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                guard cursor < scalars.count, scalars[cursor] == ":" || scalars[cursor] == "=" else {
                    index += 1
                    continue
                }
                cursor += 1
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                let quoted = cursor < scalars.count && scalars[cursor] == "\""
                if quoted { cursor += 1 }
                let start = cursor
                while cursor < scalars.count, !Self.endsValue(scalars[cursor], quoted: quoted),
                    quoted || !Self.endsSentence(scalars, at: cursor)
                {
                    if quoted && scalars[cursor] == "\\" && cursor + 1 < scalars.count { cursor += 1 }
                    cursor += 1
                }
                for position in start..<cursor { scalars[position] = "X" }
                index = cursor
            }
        }
    }

    /// Whether a text holds what looks like a card number: 13 to 19 digits (single spaces or hyphens between
    /// groups allowed) with a valid Luhn check digit.
    ///
    /// - Parameter text: Any text.
    /// - Returns: `true` when such a run is found.
    public static func containsCardNumber(_ text: String) -> Bool {
        var scalars = Array(text.unicodeScalars)
        let before = scalars
        Redactor(sensitiveKeys: []).maskCardNumbers(&scalars)
        return scalars != before
    }

    /// Runs of 13–19 digits (single spaces or hyphens between groups allowed) that pass the Luhn check.
    private func maskCardNumbers(_ scalars: inout [Unicode.Scalar]) {
        var index = 0
        while index < scalars.count {
            guard Self.isDigit(scalars[index]), index == 0 || !Self.isDigit(scalars[index - 1]) else {
                index += 1
                continue
            }
            var digits: [Int] = []
            var positions: [Int] = []
            var cursor = index
            while cursor < scalars.count {
                if Self.isDigit(scalars[cursor]) {
                    digits.append(Int(scalars[cursor].value) - 48)
                    positions.append(cursor)
                    cursor += 1
                } else if scalars[cursor] == " " || scalars[cursor] == "-", cursor + 1 < scalars.count,
                    Self.isDigit(scalars[cursor + 1])
                {
                    cursor += 1
                } else {
                    break
                }
            }
            if (13...19).contains(digits.count) && Format.luhnChecksumHolds(digits) {
                for position in positions.dropLast(4) { scalars[position] = "X" }
            }
            index = max(cursor, index + 1)
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || isDigit(scalar) || scalar == "_"
    }

    /// A full stop followed by the end of the text or a space ends an unquoted value.
    private static func endsSentence(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        scalars[index] == "." && (index + 1 == scalars.count || scalars[index + 1] == " " || scalars[index + 1] == "\n")
    }

    private static func endsValue(_ scalar: Unicode.Scalar, quoted: Bool) -> Bool {
        if quoted { return scalar == "\"" }
        return scalar == "," || scalar == "}" || scalar == "]" || scalar == "&" || scalar == ";" || scalar == " "
            || scalar == "\n"
            || scalar == "\t" || scalar == "\""
    }
}
