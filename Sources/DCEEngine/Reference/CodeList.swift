import Foundation

/// A list of codes from a reference data file (`Schemas/reference/iso4217.json`, `iso3166-1.json`): the codes in
/// force, the codes withdrawn recently with the day each stopped being in force, and named groups of codes, with
/// the file's source and publication date.
///
/// Lookups read bitsets over every possible code of capital letters (26² or 26³ bits), built once when the list
/// is loaded, so checking a value costs a few loads and no `String`.
public struct CodeList: Sendable {
    /// One code with what the list says of it.
    public struct Entry: Sendable, Hashable {
        /// The code (`EUR`, `BG`).
        public let code: String
        /// The English name, as the source writes it.
        public let name: String
        /// The ISO numeric code, when the list has one.
        public let numeric: String?
        /// For a withdrawn code: the day it stopped being in force (`YYYY-MM-DD`).
        public let withdrawn: String?
        /// For a withdrawn code: the code that replaced it, when one did.
        public let replacedBy: String?
    }

    /// The list's identifier (`iso4217`, `iso3166-1`).
    public let id: String
    /// Who publishes the list, and where.
    public let source: String
    /// The day of the publication the file follows (`YYYY-MM-DD`).
    public let published: String
    /// The codes in force, sorted.
    public let codes: [Entry]
    /// The codes withdrawn recently, oldest first.
    public let withdrawnCodes: [Entry]
    /// Named groups of codes in force (`EU`, `EEA`), each sorted.
    public let groups: [String: [String]]
    /// The number of letters of every code.
    let width: Int
    /// Bit *n* set when the code whose letters make the base-26 number *n* is in force; `withdrawnBits` likewise.
    private let currentBits: [UInt64]
    private let withdrawnBits: [UInt64]

    init(
        id: String, source: String, published: String, width: Int, codes: [Entry], withdrawn: [Entry],
        groups: [String: [String]]
    ) {
        self.id = id
        self.source = source
        self.published = published
        self.width = width
        self.codes = codes.sorted { $0.code < $1.code }
        self.withdrawnCodes = withdrawn
        self.groups = groups.mapValues { $0.sorted() }
        currentBits = Self.bits(codes.map(\.code), width: width)
        withdrawnBits = Self.bits(withdrawn.map(\.code), width: width)
    }

    /// What a language calls a code's country or currency: the English name of the list in English, else the name
    /// the locale data Foundation ships gives (`BG` → Bulgarien in German), else the English name, else the code.
    ///
    /// - Parameters:
    ///   - code: A code of this list (`BG`, `EUR`).
    ///   - language: A language code (`de`).
    /// - Returns: The name.
    public func name(of code: String, in language: String) -> String {
        let english = codes.first { $0.code == code }?.name ?? withdrawnCodes.first { $0.code == code }?.name
        guard language != "en" else { return english ?? code }
        let locale = Locale(identifier: language)
        let localized =
            width == 2 ? locale.localizedString(forRegionCode: code) : locale.localizedString(forCurrencyCode: code)
        return localized ?? english ?? code
    }

    /// Whether a string is a code in force, or (with `includingWithdrawn`) one withdrawn recently.
    public func contains(_ code: String, includingWithdrawn: Bool = false) -> Bool {
        code.withUTF8Span { contains($0, includingWithdrawn: includingWithdrawn) }
    }

    /// Whether UTF-8 bytes are a code in force, or (with `includingWithdrawn`) one withdrawn recently.
    func contains(_ bytes: Span<UInt8>, includingWithdrawn: Bool) -> Bool {
        guard let index = Self.index(bytes, width: width) else { return false }
        let word = index >> 6
        let bit = UInt64(1) << UInt64(index & 63)
        return currentBits[word] & bit != 0 || (includingWithdrawn && withdrawnBits[word] & bit != 0)
    }

    /// The codes a value must be one of: those in force, and the withdrawn ones when asked, sorted.
    func allowed(includingWithdrawn: Bool) -> [String] {
        (codes.map(\.code) + (includingWithdrawn ? withdrawnCodes.map(\.code) : [])).sorted()
    }

    /// A code's place among all codes of `width` capital letters, or `nil` when the bytes are not such a code.
    private static func index(_ bytes: Span<UInt8>, width: Int) -> Int? {
        guard bytes.count == width else { return nil }
        var index = 0
        for place in bytes.indices {
            let byte = bytes[place]
            guard byte &- 65 < 26 else { return nil }
            index = index * 26 + Int(byte - 65)
        }
        return index
    }

    private static func bits(_ codes: [String], width: Int) -> [UInt64] {
        var size = 1
        for _ in 0..<width { size *= 26 }
        var bits = [UInt64](repeating: 0, count: (size + 63) / 64)
        for code in codes {
            guard let index = code.withUTF8Span({ Self.index($0, width: width) }) else { continue }
            bits[index >> 6] |= 1 << UInt64(index & 63)
        }
        return bits
    }
}
