internal import DCEPattern

// Conditions (`when` of an override, `derive` of a context, a tender type's overrides), in one place: what a test
// means for a context value (`CompiledTest.Kind.holds(forContext:isAmong:matches:)`), how `all`, `any` and `not` combine
// (`RuleProgram.Tables.truth(of:reading:)` in Compiling/RuleProgram.swift, for evaluation and forms alike), and the
// compiled shapes export reads.

/// A condition ready to evaluate: contexts by slot, patterns compiled. Export reads this tree; evaluation and forms
/// run the same conditions laid out flat in a ``RuleProgram``.
package indirect enum CompiledCondition: Sendable {
    case all([CompiledCondition])
    case any([CompiledCondition])
    case not(CompiledCondition)
    case context(slot: Int, test: CompiledTest)
    case tenderType(CompiledTest)
    case field(up: Int?, tokens: [PointerToken], test: CompiledTest)
}

/// One token of a condition's JSON Pointer: matched against member names as bytes, or used as an array index.
package struct PointerToken: Sendable {
    package let text: String
    let table: KeyTable
    let index: Int?

    init(_ text: String) {
        self.text = text
        self.table = KeyTable(keys: [text])
        self.index = text.allSatisfy(\.isASCII) ? Int(text) : nil
    }
}

/// A test on a condition's subject, compiled once and shared by evaluation, forms and export.
///
package final class CompiledTest: Sendable {
    package enum Kind: Sendable { case equals, oneOf, oneOfStrings, matches, present, absent, null, cardBrand }
    package let kind: Kind
    /// The values an `equals` (one) or `in` test accepts.
    package let values: [SchemaValue]
    /// The string values among `values`: what a context value is compared with.
    package let strings: [String]
    /// `strings`, found by their bytes (a request value is compared by its bytes).
    let table: KeyTable
    /// For ``Kind/matches``.
    package let pattern: CompiledPattern?
    /// For ``Kind/cardBrand``: the brands of the reference data, and those the test accepts (`strings`) as bits by
    /// their places among them.
    package let cardBrands: CardBrands?
    let brandMask: UInt64

    /// A test of a kind; `equals` and `in` whose values are all strings should be ``Kind/oneOfStrings``.
    package init(
        _ kind: Kind, values: [SchemaValue] = [], pattern: CompiledPattern? = nil, cardBrands: CardBrands? = nil
    ) {
        self.kind = kind
        self.values = values
        let strings = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
        self.strings = strings
        self.table = KeyTable(keys: strings)
        self.pattern = pattern
        self.cardBrands = cardBrands
        self.brandMask =
            cardBrands.map { brands in
                strings.compactMap { brands.index(of: $0) }.reduce(0) { $0 | 1 << UInt64($1) }
            } ?? 0
    }

    /// Whether a context value (or the tender type) passes: `nil` is a context neither supplied nor derived.
    package func holds(forContext value: String?) -> Bool {
        kind.holds(forContext: value, isAmong: { strings.contains($0) }, matches: { pattern?.match($0) == .match })
    }

    /// For a ``Kind/cardBrand`` test: whether a number, or the digits typed so far, is of one of the test's brands
    /// (its brand decided).
    func holds(forCardNumber text: String?) -> Bool {
        guard let text, let cardBrands, case .brand(let index) = cardBrands.detect(text) else { return false }
        return brandMask & (1 << UInt64(index)) != 0
    }

    /// A ``CompiledTest`` as plain values: what a ``RuleProgram`` keeps in its table of tests, referring to its
    /// strings, keys and pattern by their places in the program's tables.
    struct Record: Sendable {
        let kind: Kind
        /// The string values, by their bytes: what a request value is looked up in.
        let keys: KeyStore.Table
        /// The string values (places in ``RuleProgram/Tables/testStrings``): what a context value is compared with
        /// (as Swift compares strings).
        let strings: Range<Int>
        /// For ``Kind/matches``: the pattern's place in ``RuleProgram/Tables/patterns``; -1 for none.
        let pattern: Int
        /// For ``Kind/cardBrand``: the brands accepted, a bit each by its place in the reference data.
        let brandMask: UInt64
    }
}

extension CompiledTest.Kind {
    /// Whether a context value (or the tender type, or a typed text) passes a test of this kind: `nil` is a value
    /// that is absent. The one definition, for a test read as an object and as a program's record alike.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - isAmong: Whether a value is one of the test's strings.
    ///   - matches: Whether a value matches the test's pattern.
    func holds(forContext value: String?, isAmong: (String) -> Bool, matches: (String) -> Bool) -> Bool {
        switch self {
        case .equals, .oneOf, .oneOfStrings: value.map(isAmong) ?? false
        case .matches: value.map(matches) ?? false
        case .present: value != nil
        case .absent: value == nil
        case .null, .cardBrand: false  // a brand is tested on a request value only
        }
    }
}
