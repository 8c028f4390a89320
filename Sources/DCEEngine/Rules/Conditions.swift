internal import DCEPattern

// Conditions (`when` of an override, `derive` of a context, a tender type's overrides), in one place: what a test
// means for a context value (`CompiledTest.Record.holds(forContext:)`), how `all`, `any` and `not` combine
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
/// `@unchecked Sendable`: the buffer of strings is written only in `init` and freed only in `deinit`.
package final class CompiledTest: @unchecked Sendable {
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
    /// `strings` again, in a buffer this test owns, which ``record`` views.
    private let stringBuffer: FrozenBuffer<String>

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
        stringBuffer = FrozenBuffer(strings)
    }

    /// Whether a context value (or the tender type) passes: `nil` is a context neither supplied nor derived.
    package func holds(forContext value: String?) -> Bool {
        record.holds(forContext: value)  // this test is alive while its method runs
    }

    /// The test as plain values, valid while the test is alive (see ``RuleProgram``).
    var record: Record {
        Record(
            kind: kind, keys: table.view, strings: stringBuffer.view, pattern: pattern?.handle,
            brandMask: brandMask)
    }

    /// For a ``Kind/cardBrand`` test: whether a number, or the digits typed so far, is of one of the test's brands
    /// (its brand decided).
    func holds(forCardNumber text: String?) -> Bool {
        guard let text, let cardBrands, case .brand(let index) = cardBrands.detect(text) else { return false }
        return brandMask & (1 << UInt64(index)) != 0
    }

    /// A ``CompiledTest`` as plain values: what a ``RuleProgram`` keeps in its table of tests.
    struct Record {
        let kind: Kind
        /// The string values, by their bytes: what a request value is looked up in.
        let keys: KeyTable.View
        /// The string values: what a context value is compared with (as Swift compares strings).
        let strings: UnsafeBufferPointer<String>
        let pattern: PatternHandle?
        /// For ``Kind/cardBrand``: the brands accepted, a bit each by its place in the reference data.
        let brandMask: UInt64

        /// Whether a context value (or the tender type, or a typed text) passes: `nil` is a value that is absent.
        func holds(forContext value: String?) -> Bool {
            switch kind {
            case .equals, .oneOf, .oneOfStrings: value.map { strings.contains($0) } ?? false
            case .matches: value.map { pattern?.match($0) == .match } ?? false
            case .present: value != nil
            case .absent: value == nil
            case .null, .cardBrand: false  // a brand is tested on a request value only
            }
        }
    }
}
