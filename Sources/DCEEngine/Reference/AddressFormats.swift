internal import DCEPattern
import Foundation

/// How each country writes an address (`Schemas/reference/addresses.json`, generated from Google's address
/// metadata): which parts it uses and requires, the pattern of its postal codes with examples, and its
/// subdivisions (states, provinces, prefectures) with their names and the postal-code prefixes that belong to them.
///
/// A schema's `postalAddress` attribute names the members of an address object; evaluation then checks them against
/// the country the address names. Lookups by country read a table over every pair of capital letters; postal-code
/// patterns are compiled by PCRE2 the first time an address of their country is checked, once per process.
public final class AddressFormats: Sendable {
    /// A part of an address that the data describes and a schema can name.
    public enum Part: String, CaseIterable, Sendable {
        /// The street, house number and further lines (`address1`, `address2`, …).
        case streetAddress
        /// The city or town (`locality` in Google's data).
        case city
        /// A district of the city (`dependent_locality`), such as a Korean *gu*.
        case cityArea
        /// The country's first-level subdivision: state, province, prefecture, …
        case state
        /// The postal code, under the country's name for it.
        case postalCode
        /// The sorting code, as France's CEDEX.
        case sortingCode

        /// The part's place in ``allCases`` (written out: searching `allCases` cost a tenth of the address check).
        var index: Int {
            switch self {
            case .streetAddress: 0
            case .city: 1
            case .cityArea: 2
            case .state: 3
            case .postalCode: 4
            case .sortingCode: 5
            }
        }
        var bit: UInt8 { 1 << UInt8(index) }
    }

    /// One country's address format (a class: evaluation reads it in place for every address, without copying it).
    public final class Country: Sendable {
        /// ISO 3166-1 alpha-2 code (or a code of the data's own, such as `XK`).
        public let code: String
        /// What the country calls its postal code (`postal`, `zip`, `pin`, `eircode`), as the data names it.
        public let postalCodeName: String
        /// What the country calls its subdivisions (`state`, `province`, `prefecture`, …), as the data names them.
        public let subdivisionName: String
        /// The pattern a whole postal code matches (PCRE2), when the country has postal codes.
        public let postalCodePattern: String?
        /// Whether postal codes are compared in capitals (`sw1a 1aa` is `SW1A 1AA`).
        public let postalCodeInCapitals: Bool
        /// Postal codes of the country, for messages.
        public let examples: [String]
        /// The country's first-level subdivisions, when the data lists them (empty otherwise).
        public let subdivisions: [Subdivision]
        let parts: UInt8
        let required: UInt8
        let postalCode: LazyPattern?

        /// Whether the country's addresses have a part.
        public func uses(_ part: Part) -> Bool { parts & part.bit != 0 }
        /// Whether the country's addresses must have a part.
        public func requires(_ part: Part) -> Bool { required & part.bit != 0 }

        /// Each subdivision's key and names, trimmed and in lower case, to its place (the first that has it): made
        /// the first time a state of the country is looked up.
        private let subdivisionsByName = OnceCell<NameTable>()

        /// The subdivision a value names: by its key or any of its names, ignoring case and surrounding spaces.
        public func subdivision(named value: String) -> Int? {
            value.withUTF8Span { subdivision(named: $0) }
        }

        /// The subdivision UTF-8 text names (evaluation's call, straight from the payload's bytes).
        func subdivision(named bytes: Span<UInt8>) -> Int? {
            subdivisionsByName.withValue(made: { NameTable(subdivisions) }) { $0.places[Self.folded(bytes)] } ?? nil
        }

        /// Whether a subdivision's key or one of its names starts with the text, ignoring case and surrounding
        /// spaces: a state that typing can still complete.
        func mayName(startingWith text: String) -> Bool {
            let folded = text.withUTF8Span { Self.folded($0) }
            return subdivisionsByName.withValue(made: { NameTable(subdivisions) }) {
                $0.places.keys.contains { $0.hasPrefix(folded) }
            } ?? false
        }

        /// Text without surrounding white space, in lower case. ASCII text (most states: `CA`, `Ontario`) is folded
        /// byte by byte, as Foundation would fold it; other text by Foundation.
        static func folded(_ bytes: Span<UInt8>) -> String {
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                return bytes.decoded.trimmingCharacters(in: .whitespacesAndNewlines)
                    .lowercased()
            }
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }  // space, tab, LF, VT, FF, CR
            var start = 0
            var end = bytes.count
            while start < end && isSpace(bytes[start]) { start += 1 }
            while end > start && isSpace(bytes[end - 1]) { end -= 1 }
            var folded = ""  // a state's name or key is short: a small string, no allocation
            for offset in start..<end {
                folded.unicodeScalars.append(
                    Unicode.Scalar(bytes[offset] &- 65 < 26 ? bytes[offset] | 0x20 : bytes[offset]))
            }
            return folded
        }

        init(
            code: String, parts: [Part], required: [Part], postalCodeName: String, subdivisionName: String,
            postalCodePattern: String?,
            postalCodeInCapitals: Bool, examples: [String], subdivisions: [Subdivision]
        ) {
            self.code = code
            self.parts = parts.reduce(0) { $0 | $1.bit }
            self.required = required.reduce(0) { $0 | $1.bit }
            self.postalCodeName = postalCodeName
            self.subdivisionName = subdivisionName
            self.postalCodePattern = postalCodePattern
            self.postalCodeInCapitals = postalCodeInCapitals
            self.examples = examples
            self.subdivisions = subdivisions
            postalCode = postalCodePattern.map { LazyPattern(whole: $0, capitals: postalCodeInCapitals) }
        }
    }

    /// Subdivisions by their folded key and names.
    final class NameTable: Sendable {
        let places: [String: Int]

        init(_ subdivisions: [Subdivision]) {
            var places: [String: Int] = [:]
            for (index, subdivision) in subdivisions.enumerated() {
                for name in [subdivision.key] + subdivision.names {
                    let folded = name.withUTF8Span { Country.folded($0) }
                    places[folded] = places[folded] ?? index
                }
            }
            self.places = places
        }
    }

    /// A state, province or other subdivision of a country.
    public struct Subdivision: Sendable {
        /// How the post writes it (`CA`, `北海道`).
        public let key: String
        /// Its other names (`California`; `Hokkaido`), in every language the data has.
        public let names: [String]
        /// The pattern a postal code of the subdivision starts with (PCRE2), when the data has one.
        public let postalCodePrefix: String?
        /// Postal codes of the subdivision, for messages.
        public let examples: [String]
        let prefix: LazyPattern?

        init(key: String, names: [String], postalCodePrefix: String?, examples: [String], capitals: Bool) {
            self.key = key
            self.names = names
            self.postalCodePrefix = postalCodePrefix
            self.examples = examples
            prefix = postalCodePrefix.map { LazyPattern(prefix: $0, capitals: capitals) }
        }
    }

    /// Where the data comes from.
    public let source: String
    /// When the data was published (`YYYY-MM-DD`).
    public let published: String
    /// The countries' codes, sorted.
    public let codes: [String]
    /// The format of a country the data does not list.
    public let defaultFormat: Country
    /// Each pair of capital letters (base 26) to its place in ``codes``, or -1.
    private let table: [Int16]
    /// Each country's format, made the first time it is asked for (``country(at:)``).
    private let formats: [OnceCell<Country>]
    /// Makes the format of the country at a place in ``codes``.
    private let make: @Sendable (Int) -> Country

    /// Data read whole: each country's format is made already.
    convenience init(source: String, published: String, countries: [Country], defaultFormat: Country) {
        let sorted = countries.sorted { $0.code < $1.code }
        self.init(source: source, published: published, codes: sorted.map(\.code), defaultFormat: defaultFormat) {
            sorted[$0]
        }
    }

    /// Data whose countries are read as they are asked for: `make` makes the format of the country at a place in
    /// `codes` (sorted). The package's own data is read so (250 countries and 1,400 subdivisions took about 1 ms of
    /// every command-line run), its every country checked by its tests instead.
    init(
        source: String, published: String, codes: [String], defaultFormat: Country,
        make: @escaping @Sendable (Int) -> Country
    ) {
        self.source = source
        self.published = published
        self.codes = codes
        self.defaultFormat = defaultFormat
        self.make = make
        formats = codes.map { _ in OnceCell<Country>() }
        var table = [Int16](repeating: -1, count: 26 * 26)
        for (index, code) in codes.enumerated() {
            let letters = Array(code.utf8)
            table[Int(letters[0] - 65) * 26 + Int(letters[1] - 65)] = Int16(index)
        }
        self.table = table
    }

    /// Every country's format, sorted by code (each made now, if it was not yet).
    public var countries: [Country] { codes.indices.map { country(at: $0) } }

    /// The format of the country at a place in ``codes``.
    func country(at index: Int) -> Country {
        // `make` always gives a format, so the cell always holds one.
        formats[index].withValue(made: { make(index) }) { $0 } ?? make(index)
    }

    /// The format of a country by its code; `nil` for a code the data does not list.
    public func country(_ code: String) -> Country? {
        let index = code.withUTF8Span { self.index(of: $0) }
        return index.map { country(at: $0) }
    }

    /// The place in ``codes`` of a code given as UTF-8 bytes (two capital letters).
    func index(of bytes: Span<UInt8>) -> Int? {
        guard bytes.count == 2, bytes[0] &- 65 < 26, bytes[1] &- 65 < 26 else { return nil }
        let index = Int(table[Int(bytes[0] - 65) * 26 + Int(bytes[1] - 65)])
        return index >= 0 ? index : nil
    }
}

/// A PCRE2 pattern compiled the first time it is matched, then shared by every thread (see ``OnceCell``).
final class LazyPattern: Sendable {
    /// The PCRE2 source: anchored, and made caseless for codes compared in capitals.
    let source: String
    private let compiledPattern = OnceCell<CompiledPattern>()

    init(whole pattern: String, capitals: Bool) {
        source = (capitals ? "(?i)" : "") + "^(?:" + pattern + ")$"
    }

    init(prefix pattern: String, capitals: Bool) {
        source = (capitals ? "(?i)" : "") + "^(?:" + pattern + ")"
    }

    /// Compiles the pattern on its own, without publishing it (for `lint`).
    func compiled() -> Result<CompiledPattern, PatternError> {
        Result { () throws(PatternError) in try CompiledPattern(source) }
    }

    /// What the pattern says of text still being typed: valid when it matches, incomplete when more characters can
    /// make it match, invalid (format) when none can; `nil` when the pattern does not compile or a limit is hit.
    func judge(partial text: String) -> InputVerdict? {
        switch compiledPattern.withValue(made: { try? CompiledPattern(source) }, { $0.matchPrefix(text) }) {
        case .match?: .valid
        case .partial?: .incomplete
        case .noMatch?: .invalid(.format)
        default: nil
        }
    }

    /// Whether UTF-8 text matches; `nil` when the pattern does not compile or the match hit a limit (the data is
    /// checked by `lint`, so neither should happen: the value is then not judged by this pattern).
    func matches(_ bytes: Span<UInt8>, scratch: MatchScratch) -> Bool? {
        let outcome = compiledPattern.withValue(made: { try? CompiledPattern(source) }) {
            $0.match(bytes, knownValidUTF8: true, scratch: scratch)
        }
        switch outcome {
        case .match?: return true
        case .noMatch?: return false
        default: return nil
        }
    }
}
