/// Payment card brands and the numbers that belong to them, from the reference data file
/// `Schemas/reference/card-brands.json`: which brand a card number is, as soon as its first digits decide it, and
/// whether a number is complete for its brand.
public final class CardBrands: Sendable {
    /// One brand: how its numbers start, how long they are, and how its card shows them.
    public struct Brand: Sendable, Hashable {
        /// The brand's identifier (`visa`, `american-express`): what a `brand` context holds.
        public let id: String
        /// The name people know (`American Express`).
        public let name: String
        /// The numbers of digits a complete number may have, ascending.
        public let lengths: [Int]
        /// What the card calls its security code (`CVV`, `CID`).
        public let securityCodeName: String
        /// The number of digits of the security code.
        public let securityCodeLength: Int
        /// Whether a number ends in a Luhn (ISO/IEC 7812-1) check digit.
        public let luhn: Bool
        /// The sizes of the groups a number is shown in; digits past them form one more group.
        let grouping: [Int]
        /// Groupings for particular lengths.
        let groupingByLength: [Int: [Int]]

        /// The group sizes for a number of `length` digits.
        func groups(forLength length: Int) -> [Int] { groupingByLength[length] ?? grouping }
    }

    /// What the digits typed so far say of the brand.
    public enum Detection: Sendable, Hashable {
        /// Every number starting with these digits is of this brand (its place in ``brands``).
        case brand(Int)
        /// More digits are needed: numbers starting with these may be of different brands, or of none.
        case undecided
        /// No number starting with these digits is of any brand the data knows.
        case unknown
    }

    /// A range of issuer identification numbers: the numbers whose first `digits` digits lie in `low...high`.
    struct Range: Sendable, Hashable {
        let digits: Int
        let low: Int
        let high: Int
        let brand: Int
    }

    /// Where the data file's ranges come from.
    public let source: String
    /// When the data was published (`YYYY-MM-DD`).
    public let published: String
    /// The brands, in the file's order.
    public let brands: [Brand]
    /// Every brand's ranges, the longest first, so that the first range holding a number decides its brand.
    let ranges: [Range]
    /// The most digits a range has.
    let longestPrefix: Int
    /// The brands of numbers of at least ``longestPrefix`` digits, by their first ``longestPrefix`` digits: where each
    /// run of prefixes of one brand (or of none, -1) starts, ascending. A complete number's brand is found by a
    /// binary search here instead of a walk over every range (a tenth of a card payload's validation).
    private let runs: [(start: Int, brand: Int)]
    /// Each range of ``ranges`` as the prefixes of ``longestPrefix`` digits it holds (`low·10ⁿ ... (high + 1)·10ⁿ − 1`),
    /// in the same order: what a number being typed is compared with, without scaling each range to its digits.
    private let spans: [(low: Int, high: Int)]

    init(source: String, published: String, brands: [Brand], ranges: [Range]) {
        self.source = source
        self.published = published
        self.brands = brands
        let ranges = ranges.sorted { ($0.digits, $1.low) > ($1.digits, $0.low) }
        let longestPrefix = ranges.map(\.digits).max() ?? 0
        self.ranges = ranges
        self.longestPrefix = longestPrefix
        // Each range spans the prefixes low·10ⁿ ... (high + 1)·10ⁿ − 1 of the longest length; between two consecutive
        // bounds the same ranges hold every prefix, and the longest of them (the first in `ranges`) decides.
        let spans = ranges.map { range in
            let scale = Self.power(longestPrefix - range.digits)
            return (low: range.low * scale, high: (range.high + 1) * scale - 1)
        }
        var bounds: Set<Int> = [0]
        for span in spans { bounds.formUnion([span.low, span.high + 1]) }
        var runs: [(start: Int, brand: Int)] = []
        for start in bounds.sorted() {
            let brand = spans.indices.first { spans[$0].low <= start && start <= spans[$0].high }.map {
                ranges[$0].brand
            }
            if runs.last?.brand != (brand ?? -1) { runs.append((start, brand ?? -1)) }
        }
        self.runs = runs
        self.spans = spans
    }

    /// A brand by its identifier.
    public func brand(id: String) -> Brand? { brands.first { $0.id == id } }

    /// A brand's place in ``brands``.
    func index(of id: String) -> Int? { brands.firstIndex { $0.id == id } }

    /// The brand of a card number, or of its first digits while it is typed.
    ///
    /// - Parameter number: Digits; spaces and dashes between them are skipped.
    /// - Returns: The brand when every number starting with these digits is of it; otherwise undecided or unknown.
    public func detect(_ number: String) -> Detection {
        number.withUTF8Span { detect(digitsOf: $0) }
    }

    /// ``detect(_:)`` on UTF-8 bytes; bytes other than digits, spaces and dashes make the number unknown.
    func detect(digitsOf bytes: Span<UInt8>) -> Detection {
        var prefix = 0
        var count = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
            guard byte &- 0x30 < 10 else { return .unknown }
            if count < longestPrefix { prefix = prefix * 10 + Int(byte - 0x30) }
            count += 1
        }
        return detect(prefix: prefix, digits: min(count, longestPrefix))
    }

    /// The brand of the numbers starting with the `digits` digits of `prefix`: the longest range holding them
    /// decides, unless a longer range of another brand (or of none) may still hold them once more is typed.
    private func detect(prefix: Int, digits: Int) -> Detection {
        digits == longestPrefix ? completeNumberBrand(prefix: prefix) : scanned(prefix: prefix, digits: digits)
    }

    /// The brand of a number of at least ``longestPrefix`` digits whose first ones are `prefix`: the run holding it.
    func completeNumberBrand(prefix: Int) -> Detection {
        var low = 0
        var high = runs.count  // the run is the last whose start is at or below the prefix
        while high - low > 1 {
            let middle = (low + high) / 2
            if runs[middle].start <= prefix { low = middle } else { high = middle }
        }
        return runs[low].brand >= 0 ? .brand(runs[low].brand) : .unknown
    }

    /// ``detect(prefix:digits:)`` by walking the ranges: for numbers still being typed.
    func scanned(prefix: Int, digits: Int) -> Detection {
        // The numbers starting with the digits, as prefixes of the longest length: a range longer than the digits
        // may still hold one of them when the spans meet; a range no longer holds them all when its span holds
        // theirs. (Comparing spans of one length, not each range scaled to its digits: a sixth of the work, the
        // same answers, `ReferenceDataTests`.)
        let scale = Self.power(longestPrefix - digits)
        let low = prefix * scale
        let high = low + scale - 1
        // Ranges are sorted longest first: those longer than the digits typed come first, then the one that decides.
        var mayEnterOther = false
        var mayEnterAny = false
        var candidate = -1
        for index in ranges.indices {
            let span = spans[index]
            if ranges[index].digits > digits {
                guard span.low <= high && low <= span.high else { continue }
                let brand = ranges[index].brand
                if mayEnterAny && brand != candidate { mayEnterOther = true }
                if !mayEnterAny { candidate = brand }
                mayEnterAny = true
            } else if span.low <= low && high <= span.high {
                let brand = ranges[index].brand
                guard !mayEnterAny || (!mayEnterOther && candidate == brand) else { return .undecided }
                return .brand(brand)
            }
        }
        return mayEnterAny ? .undecided : .unknown
    }
}

extension CardBrands {
    /// What a form shows of a card number while it is typed: the brand to show and every brand it may still be.
    public struct Typing: Sendable, Hashable {
        /// The brand to show: the only brand a number starting with these digits can be (`27`: Mastercard, whose
        /// 2221–2720 is the only range there; `1`: JCB, whose 1800 is the only range there); `nil` while several are
        /// possible (`4`: Visa, or Elo's 401178, or Maestro's 493698; `6`, `62`) or none is. braintree's
        /// credit-card-type and card-validator show a brand so.
        public let brand: Brand?
        /// Every brand a number starting with these digits can be, in the data's order: all of them before a digit is
        /// typed, none once the digits fit no brand's ranges (`123`: no complete number of a known brand starts so).
        public let candidates: [Brand]

        package init(brand: Brand?, candidates: [Brand]) {
            self.brand = brand
            self.candidates = candidates
        }
    }

    /// A card number as its card shows it: its digits in its brand's groups (4-4-4-4-3 while no brand is decided by
    /// them), single spaces between; what a form shows as the number is typed, and the groups the masked form
    /// (``Masking/maskCardNumber(_:brands:)``) has too.
    ///
    /// - Parameter number: The number, with or without spaces and dashes; complete or not.
    /// - Returns: `4111 1111 1111 1111`, `3782 822463 10005` (American Express), `4111 11` while it is typed.
    public func grouped(_ number: String) -> String {
        let digits = Self.withoutSeparators(number)
        return Self.join(Array(digits), groups: groups(ofDigits: digits))
    }

    /// A number as typed without the spaces and dashes a person types between its digits (`4111 1111` is `41111111`).
    package static func withoutSeparators(_ number: String) -> String {
        String(number.unicodeScalars.filter { $0 != " " && $0 != "-" })
    }

    /// The group sizes of a number of these digits: its brand's, once the digits decide one, else 4-4-4-4-3.
    func groups(ofDigits digits: String) -> [Int] {
        guard case .brand(let index) = detect(digits) else { return [4, 4, 4, 4, 3] }
        return brands[index].groups(forLength: digits.count)
    }

    /// Characters in groups of the sizes given, single spaces between; those past the groups form one more.
    static func join(_ characters: [Character], groups: [Int]) -> String {
        var parts: [String] = []
        var start = 0
        for size in groups where start < characters.count {
            parts.append(String(characters[start..<min(start + size, characters.count)]))
            start += size
        }
        if start < characters.count { parts.append(String(characters[start...])) }
        return parts.joined(separator: " ")
    }

    /// What the digits typed so far say of a card number's brand, as braintree's credit-card-type and card-validator
    /// show it: the brand to show, and every brand still possible.
    ///
    /// ```swift
    /// CardBrands.bundled.typing("27").brand?.id        // "mastercard"
    /// CardBrands.bundled.typing("4").brand             // nil: Visa, or a brand with a longer prefix inside 4
    /// CardBrands.bundled.typing("4").candidates.count  // Visa and the brands with longer prefixes inside 4
    /// CardBrands.bundled.typing("123").candidates      // []: no brand's range can match
    /// ```
    ///
    /// - Parameter number: Digits typed so far; spaces and dashes between them are skipped.
    /// - Returns: The brand to show and the candidates; no candidate for anything but digits, spaces and dashes.
    public func typing(_ number: String) -> Typing {
        number.withUTF8Span { bytes in
            var prefix = 0
            var count = 0
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
                guard byte &- 0x30 < 10 else { return Typing(brand: nil, candidates: []) }
                if count < longestPrefix { prefix = prefix * 10 + Int(byte - 0x30) }
                count += 1
            }
            let (shown, possible) = typing(prefix: prefix, digits: min(count, longestPrefix))
            return Typing(brand: shown.map { brands[$0] }, candidates: possible.map { brands[$0] })
        }
    }

    /// ``typing(_:)`` on the first `digits` digits of a number (at most ``longestPrefix``), as places in ``brands``.
    func typing(prefix: Int, digits: Int) -> (shown: Int?, possible: [Int]) {
        // The complete numbers starting with the digits are those whose first longestPrefix digits lie in low...high;
        // the runs overlapping that interval are the brands they can be.
        let scale = Self.power(longestPrefix - digits)
        let low = prefix * scale
        let high = low + scale - 1
        var first = 0
        var last = runs.count
        while last - first > 1 {
            let middle = (first + last) / 2
            if runs[middle].start <= low { first = middle } else { last = middle }
        }
        var possible = Set<Int>()
        var run = first
        while run < runs.count && runs[run].start <= high {
            if runs[run].brand >= 0 { possible.insert(runs[run].brand) }
            run += 1
        }
        // A brand is shown once it is the only one possible: while several are, the one whose prefix the digits fill
        // (Visa's 4) may still give way to a longer range of another (Elo's 401178).
        let ordered = possible.sorted()
        return (ordered.count == 1 ? ordered[0] : nil, ordered)
    }

    /// The most digits a card number of no known brand may have, and the fewest (ISO/IEC 7812-1).
    static let unknownBrandLengths = 12...19

    /// Whether a complete card number fits its brand: as many digits as the brand allows and, where the brand uses
    /// one, a valid Luhn check digit. A number of no known brand is refused by the format `card-number` (what a
    /// form shows as invalid while it is typed, validation refuses too); to find card numbers in any text, where a
    /// brand the data does not know yet must not slip through, `unknownBrands` accepts one of 12 to 19 digits with a
    /// valid check digit.
    ///
    /// - Parameters:
    ///   - bytes: The number's UTF-8 bytes.
    ///   - separators: Whether single spaces or dashes may stand between digits (`4111 1111 1111 1111`).
    ///   - unknownBrands: Whether a number of no known brand counts (by its length and check digit alone).
    func accepts(number bytes: Span<UInt8>, separators: Bool, unknownBrands: Bool = false) -> Bool {
        // One pass, no allocation: the digits' count, their Luhn sum from the right, and the first digits. (The
        // Luhn sum is the one `Format.luhnChecksumHolds` computes; calling it over the digits filtered lazily from
        // the bytes made a valid payment-account payload 7 % slower, dce-benchmark parsed.)
        var count = 0
        var previousWasDigit = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                count += 1
                previousWasDigit = true
            } else if separators && previousWasDigit && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")) {
                previousWasDigit = false
            } else {
                return false
            }
        }
        guard previousWasDigit else { return false }  // empty, or a separator at the end
        var sum = 0
        var prefix = 0
        var position = 0
        for index in bytes.indices where bytes[index] &- 0x30 < 10 {
            let digit = Int(bytes[index] - 0x30)
            if position < longestPrefix { prefix = prefix * 10 + digit }
            // Counting from the right, every second digit is doubled (ISO/IEC 7812-1).
            let doubled = (count - 1 - position) % 2 == 1
            sum += doubled ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
            position += 1
        }
        switch detect(prefix: prefix, digits: min(count, longestPrefix)) {
        case .brand(let index):
            let brand = brands[index]
            return brand.lengths.contains(count) && (!brand.luhn || sum % 10 == 0)
        case .undecided, .unknown:
            return unknownBrands && Self.unknownBrandLengths.contains(count) && sum % 10 == 0
        }
    }

    /// What a card number still being typed is (``typing(_:)``): invalid as soon as no brand can start with its
    /// digits; valid when its brand is decided and it has one of the brand's lengths and, where the brand uses one, a
    /// valid check digit; incomplete while a candidate brand allows more digits. Spaces and dashes are formatting
    /// here, wherever they are.
    func judge(partial text: String) -> (verdict: InputVerdict, typing: Typing) {
        guard let digits = text.withUTF8Span({ Self.digits(of: $0, separators: true, partial: true) }) else {
            return (.invalid(.format), Typing(brand: nil, candidates: []))
        }
        var prefix = 0
        for digit in digits.prefix(longestPrefix) { prefix = prefix * 10 + Int(digit - 0x30) }
        let (shown, possible) = typing(prefix: prefix, digits: min(digits.count, longestPrefix))
        let typing = Typing(brand: shown.map { brands[$0] }, candidates: possible.map { brands[$0] })
        guard !possible.isEmpty else { return (digits.isEmpty ? .incomplete : .invalid(.format), typing) }
        if digits.count >= longestPrefix, let brand = shown.map({ brands[$0] }), brand.lengths.contains(digits.count),
            !brand.luhn || Self.luhn(digits)
        {
            return (.valid, typing)
        }
        let longest = possible.map { brands[$0].lengths.last ?? 0 }.max() ?? 0
        return (digits.count < longest ? .incomplete : .invalid(.format), typing)
    }

    /// The digits of a number: `nil` when it holds anything but digits (and, when `separators`, single spaces or
    /// dashes between digits; while typing, anywhere).
    private static func digits(of bytes: Span<UInt8>, separators: Bool, partial: Bool) -> [UInt8]? {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var previousWasDigit = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                digits.append(byte)
                previousWasDigit = true
            } else if separators && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-"))
                && (partial || previousWasDigit)
            {
                previousWasDigit = false
            } else {
                return nil
            }
        }
        if !partial && !previousWasDigit && !bytes.isEmpty { return nil }  // a separator at the end
        return digits
    }

    private static func luhn(_ digits: [UInt8]) -> Bool {
        digits.withSpan { Format.luhnChecksumHolds(digits: $0) }
    }
}

extension CardBrands {
    /// A regex (ECMA 262 and PCRE2 alike) that matches the card numbers of digits only whose brand is one of `ids`:
    /// a number starting in one of their ranges and in no longer range of another brand (the JSON Schema export's
    /// form of a `cardBrand` test). Exact for numbers of at least ``longestPrefix`` digits; a shorter number whose
    /// brand is not decided yet matches if its digits so far fall in a range of these brands.
    package func pattern(for ids: [String]) -> String {
        let wanted = Set(ids.compactMap { index(of: $0) })
        let alternatives = ranges.filter { wanted.contains($0.brand) }.map { range -> String in
            let excluded = ranges.filter { other in
                other.digits > range.digits && !wanted.contains(other.brand)
                    && other.low / Self.power(other.digits - range.digits) <= range.high
                    && range.low <= other.high / Self.power(other.digits - range.digits)
            }
            let lookahead = excluded.isEmpty ? "" : "(?!" + excluded.map { Self.regex($0) }.joined(separator: "|") + ")"
            return lookahead + Self.regex(range)
        }
        return alternatives.isEmpty ? "^(?!)" : "^(?:" + alternatives.joined(separator: "|") + ")[0-9]*$"
    }

    /// A regex for the numbers of `range.digits` digits from `range.low` to `range.high`.
    private static func regex(_ range: Range) -> String {
        func digits(_ value: Int) -> [Int] {
            (0..<range.digits).reversed().map { value / power($0) % 10 }
        }
        return regex(low: digits(range.low), high: digits(range.high))
    }

    private static func regex(low: [Int], high: [Int]) -> String {
        guard let first = low.first, let last = high.first else { return "" }
        if first == last { return "\(first)" + regex(low: Array(low.dropFirst()), high: Array(high.dropFirst())) }
        let rest = low.count - 1
        if rest == 0 { return "[\(first)-\(last)]" }
        let lowRest = Array(low.dropFirst())
        let highRest = Array(high.dropFirst())
        let lowFull = lowRest.allSatisfy { $0 == 0 }
        let highFull = highRest.allSatisfy { $0 == 9 }
        var parts: [String] = []
        if !lowFull { parts.append("\(first)" + regex(low: lowRest, high: Array(repeating: 9, count: rest))) }
        let middleLow = lowFull ? first : first + 1
        let middleHigh = highFull ? last : last - 1
        if middleLow <= middleHigh {
            parts.append((middleLow == middleHigh ? "\(middleLow)" : "[\(middleLow)-\(middleHigh)]") + "[0-9]{\(rest)}")
        }
        if !highFull { parts.append("\(last)" + regex(low: Array(repeating: 0, count: rest), high: highRest)) }
        return parts.count == 1 ? parts[0] : "(?:" + parts.joined(separator: "|") + ")"
    }

    static func power(_ exponent: Int) -> Int {
        var result = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
