/// Takes sensitive values out of free text before it is logged, by the one ``Masking`` policy: the value after any
/// key of a sensitive field (`cardPin=1234`, `"cardNumber": "4111…"`) is hidden whole, one `•` for each character
/// (``Masking/hide(_:)``), and every card number (``Masking/isCardNumber(_:brands:)``, even under an unexpected
/// name) shows its masked form (``Masking/maskCardNumber(_:brands:)``).
///
/// A card number is a run of digits with single spaces or dashes between them; when a whole run is not one (a
/// card number followed by a date, `4111 1111 1111 1111 2029-08-01`), each longest stretch of its groups that is
/// one is masked.
///
/// The swift-log handler in `DCELogging` uses it; it works on any string, for any logging system.
///
/// ```swift
/// let redactor = Redactor(validator: validator)
/// redactor.redact("retrying cardPin=8264 for 4111 1111 1111 1111")   // "retrying cardPin=•••• for •••• •••• •••• 1111"
/// ```
public struct Redactor: Sendable {
    /// The member names whose values are masked.
    public let sensitiveKeys: Set<String>
    /// The card brand data that says what a card number is and how it is grouped.
    private let cardBrands: CardBrands

    /// A redactor for every field marked `pciEncryptionRequired`, `storageRestricted` or `maskingRequired` in the
    /// validator's schemas, and any further names, judging card numbers by the validator's card brand data.
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
        var brands: CardBrands?
        for id in validator.schemaIDs {
            guard let schema = validator.schema(id) else { continue }
            collect(schema.root)
            brands = brands ?? schema.reference.cardBrands
        }
        self.sensitiveKeys = keys
        self.cardBrands = brands ?? .bundled
    }

    /// A redactor for these names.
    ///
    /// - Parameters:
    ///   - sensitiveKeys: The member names whose values are masked.
    ///   - cardBrands: The card brand data that says what a card number is; the bundled data by default.
    public init(sensitiveKeys: Set<String>, cardBrands: CardBrands = .bundled) {
        self.sensitiveKeys = sensitiveKeys
        self.cardBrands = cardBrands
    }

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
        var result = String.UnicodeScalarView()
        var cursor = 0
        for number in Self.cardNumbers(in: scalars, brands: cardBrands) {
            result.append(contentsOf: scalars[cursor..<number.lowerBound])
            let digits = String(String.UnicodeScalarView(scalars[number]))
            result.append(contentsOf: Masking.maskCardNumber(digits, brands: cardBrands).unicodeScalars)
            cursor = number.upperBound
        }
        result.append(contentsOf: scalars[cursor...])
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
                for position in start..<cursor { scalars[position] = Self.hiddenScalar }
                index = cursor
            }
        }
    }

    /// Whether a text holds a card number (``Masking/isCardNumber(_:brands:)``, by the bundled card brand data): a
    /// run of 12 to 19 digits, single spaces or dashes between them allowed, or such a stretch of a longer run.
    ///
    /// - Parameter text: Any text.
    /// - Returns: `true` when such a run is found.
    public static func containsCardNumber(_ text: String) -> Bool { containsCardNumber(text, brands: .bundled) }

    /// ``containsCardNumber(_:)`` by this card brand data.
    package static func containsCardNumber(_ text: String, brands: CardBrands) -> Bool {
        !cardNumbers(in: Array(text.unicodeScalars), brands: brands).isEmpty
    }

    /// Where the card numbers are, in order: each run of digits with single spaces or dashes between them that is a
    /// card number, and in a run that is not, each longest stretch of its groups that is one, from the left.
    static func cardNumbers(in scalars: [Unicode.Scalar], brands: CardBrands) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            guard isDigit(scalars[index]), index == 0 || !isDigit(scalars[index - 1]) else {
                index += 1
                continue
            }
            // The run's groups: digits, each group after the first following one space or dash.
            var groups: [Range<Int>] = []
            var start = index
            var cursor = index
            while cursor < scalars.count {
                if isDigit(scalars[cursor]) {
                    cursor += 1
                } else if scalars[cursor] == " " || scalars[cursor] == "-", cursor + 1 < scalars.count,
                    isDigit(scalars[cursor + 1])
                {
                    groups.append(start..<cursor)
                    cursor += 1
                    start = cursor
                } else {
                    break
                }
            }
            groups.append(start..<cursor)
            found += numbers(among: groups, in: scalars, brands: brands)
            index = cursor
        }
        return found
    }

    /// The card numbers in one run: the whole run when it is one, else the longest stretches of whole groups that are.
    private static func numbers(among groups: [Range<Int>], in scalars: [Unicode.Scalar], brands: CardBrands)
        -> [Range<Int>]
    {
        let lengths = CardBrands.unknownBrandLengths
        var found: [Range<Int>] = []
        var first = 0
        while first < groups.count {
            // Stretches of 12 to 19 digits starting at this group, the longest first.
            var last = first
            var digits = groups[first].count
            while last + 1 < groups.count, digits + groups[last + 1].count <= lengths.upperBound {
                last += 1
                digits += groups[last].count
            }
            var match: Int?
            while last >= first, digits >= lengths.lowerBound {
                let span = groups[first].lowerBound..<groups[last].upperBound
                if isCardNumber(scalars[span], brands: brands) {
                    match = last
                    break
                }
                digits -= groups[last].count
                last -= 1
            }
            if let match {
                found.append(groups[first].lowerBound..<groups[match].upperBound)
                first = match + 1
            } else {
                first += 1
            }
        }
        return found
    }

    /// The one card-number test on scalars that are digits, spaces and dashes.
    private static func isCardNumber(_ scalars: ArraySlice<Unicode.Scalar>, brands: CardBrands) -> Bool {
        let bytes = scalars.map { UInt8(truncatingIfNeeded: $0.value) }
        return bytes.withSpan { Masking.isCardNumber(utf8: $0, brands: brands) }
    }

    /// What stands for each character of a value after a sensitive key.
    private static let hiddenScalar = Masking.hiddenCharacter.unicodeScalars.first ?? "*"

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
