/// The one masking policy: what every output that shows a sensitive value shows of it — the masked copy
/// (``PreparedSchema/masked(json:limits:)``, `dce-validate mask`, `--attach-masked`), the as-you-type feedback
/// (DCEForms' `InputFeedback.masked`), the log ``Redactor`` and the typed models' masked properties.
///
/// - **A card number** (``isCardNumber(_:brands:)``: 12 to 19 digits, single spaces or dashes between them allowed,
///   that its brand accepts, or that pass the Luhn check when no brand claims them) shows every digit but the last
///   four as `•`, in its brand's groups (``maskCardNumber(_:brands:)``): `•••• •••• •••• 1111`,
///   `•••• •••••• •0005`. That is at most the last four digits, stricter than PCI DSS 3.4.1 (first six and last four).
/// - **Any other value to be masked** (``mask(_:brands:)``) shows `•` for every character but the last four, and
///   those four only when it has at least 12 characters: `••••••••••••WXYZ`, `••••••••`.
/// - **A value to be hidden** (after a sensitive key in a log line, a sensitive value in log metadata) shows nothing
///   of itself but its length (``hide(_:)``): `••••`.
///
/// What a card number is comes from the card brand reference data: a compiled schema's, or else the data bundled
/// with the package (read once per process).
public enum Masking {
    /// What stands for each hidden character: `•`.
    public static let hiddenCharacter: Character = "•"

    /// Whether text is a card number, the one test every output applies: 12 to 19 digits, with single spaces or
    /// dashes between digits allowed, that the card brand data says is a complete number (a brand's length, and its
    /// Luhn check digit when the brand uses one) or, for digits no brand claims, that pass the Luhn check.
    ///
    /// - Parameters:
    ///   - text: Any text: `4111 1111 1111 1111` is one, `4111111111111112` (a Visa number failing its check digit)
    ///     and `12345678901` (11 digits) are not.
    ///   - brands: The card brand data; the bundled data by default.
    /// - Returns: `true` for a card number.
    public static func isCardNumber(_ text: String, brands: CardBrands = .bundled) -> Bool {
        text.withUTF8Span { isCardNumber(utf8: $0, brands: brands) }
    }

    /// ``isCardNumber(_:brands:)`` on UTF-8 bytes.
    static func isCardNumber(utf8 bytes: Span<UInt8>, brands: CardBrands) -> Bool {
        var digits = 0
        for index in bytes.indices where bytes[index] &- 0x30 < 10 { digits += 1 }
        return CardBrands.unknownBrandLengths.contains(digits)
            && brands.accepts(number: bytes, separators: true, unknownBrands: true)
    }

    /// The masked form of a card number, the one every output shows: every digit but the last four replaced by `•`,
    /// in the groups its brand's card shows (4-4-4-4-3 for a number of no known brand), separated by single spaces.
    /// While fewer than 12 digits are typed every digit is hidden.
    ///
    /// - Parameters:
    ///   - number: The number, with or without spaces and dashes.
    ///   - brands: The card brand data; the bundled data by default.
    /// - Returns: `•••• •••• •••• 1111` for a Visa number, `•••• •••••• •0005` for an American Express one,
    ///   `•••• ••••••` for the first ten digits of one.
    public static func maskCardNumber(_ number: String, brands: CardBrands = .bundled) -> String {
        let digits = CardBrands.withoutSeparators(number)
        let shown = digits.count >= 12 ? 4 : 0
        let masked = Array(repeating: hiddenCharacter, count: digits.count - shown) + digits.suffix(shown)
        return CardBrands.join(masked, groups: brands.groups(ofDigits: digits))
    }

    /// The masked form of a value to be masked for display (`maskingRequired`): a card number
    /// (``isCardNumber(_:brands:)``) as ``maskCardNumber(_:brands:)`` shows it; any other value with `•` for every
    /// character but the last four, which are shown only when it has at least 12 characters (a PIN, a security
    /// code or an expiry is hidden whole, since its last four would be most or all of it).
    ///
    /// - Parameters:
    ///   - value: The sensitive value.
    ///   - brands: The card brand data; the bundled data by default.
    /// - Returns: `•••• •••• •••• 4215` for a card number, `••••••••••••WXYZ` for other text, `••••` for a PIN.
    public static func mask(_ value: String, brands: CardBrands = .bundled) -> String {
        if isCardNumber(value, brands: brands) { return maskCardNumber(value, brands: brands) }
        let characters = Array(value)
        let shown = characters.count >= 12 ? 4 : 0
        return String(repeating: hiddenCharacter, count: characters.count - shown) + String(characters.suffix(shown))
    }

    /// A value hidden whole: one `•` for each character, nothing of the value itself.
    ///
    /// - Parameter value: The sensitive value.
    /// - Returns: `••••` for `8264`.
    public static func hide(_ value: String) -> String { String(repeating: hiddenCharacter, count: value.count) }
}

extension CardBrands {
    /// The card brand data bundled with the package, read once per process: what ``Masking`` and ``Redactor`` judge
    /// card numbers by where no compiled schema is at hand.
    @usableFromInline static var bundled: CardBrands { ReferenceData.bundled.cardBrands }

    /// The masked form of a card number for display, in its brand's groups: ``Masking/maskCardNumber(_:brands:)``
    /// with this data. Every digit but the last four is replaced by `•` (PCI DSS 3.4.1 allows at most the first six
    /// and last four; this shows only the last four); a number of fewer than 12 digits is masked entirely.
    ///
    /// - Parameter number: The number, with or without spaces and dashes.
    /// - Returns: `•••• •••• •••• 1111` for a Visa number, `•••• •••••• •1005` for an American Express one.
    public func masked(_ number: String) -> String { Masking.maskCardNumber(number, brands: self) }
}
