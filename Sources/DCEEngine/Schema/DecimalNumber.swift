/// A JSON number held exactly as a sign, a digit string and a power of ten, so that comparisons never round.
///
/// `1`, `1.0` and `10e-1` are equal; a 19-digit card number keeps every digit.
public struct DecimalNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number as it was written.
    public let lexeme: String
    private let negative: Bool
    /// Significant digits with no leading or trailing zeros; empty for zero.
    private let digits: [UInt8]
    /// The value is `digits × 10^exponent`.
    private let exponent: Int

    /// Reads a JSON number lexeme (the JSON reader has checked its grammar).
    ///
    /// - Parameter lexeme: The number as written.
    public init(lexeme: String) {
        self.lexeme = lexeme
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var fractionDigits = 0
        var inFraction = false
        var explicitExponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in lexeme.utf8 {
            switch byte {
            case UInt8(ascii: "-") where !inExponent: negative = true
            case UInt8(ascii: "-"): exponentSign = -1
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = byte - UInt8(ascii: "0")
                if inExponent {
                    // Saturate: an exponent beyond a billion is a number no field can hold either way.
                    explicitExponent = min(explicitExponent * 10 + Int(digit), 1_000_000_000)
                } else {
                    if !(digits.isEmpty && digit == 0) { digits.append(digit) }
                    if inFraction { fractionDigits += 1 }
                }
            default: break
            }
        }
        exponent = exponentSign * explicitExponent - fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// The number as written.
    public var description: String { lexeme }

    /// Whether the value is a whole number.
    public var isIntegral: Bool { exponent >= 0 }

    /// Whether the value is below zero.
    public var isNegative: Bool { negative }

    /// Compares by value.
    public static func == (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        lhs.negative == rhs.negative && lhs.digits == rhs.digits && lhs.exponent == rhs.exponent
    }

    /// Hashes the value, not the lexeme.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(negative)
        hasher.combine(digits)
        hasher.combine(exponent)
    }

    /// Orders by value.
    public static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let magnitudeLess = compareMagnitude(lhs, rhs)
        guard let magnitudeLess else { return false }  // equal
        return lhs.negative ? !magnitudeLess : magnitudeLess
    }

    /// `true` if |lhs| < |rhs|, `false` if greater, `nil` if equal.
    private static func compareMagnitude(_ lhs: DecimalNumber, _ rhs: DecimalNumber) -> Bool? {
        if lhs.digits.isEmpty || rhs.digits.isEmpty {
            if lhs.digits.isEmpty && rhs.digits.isEmpty { return nil }
            return lhs.digits.isEmpty
        }
        let lhsMagnitude = lhs.digits.count + lhs.exponent
        let rhsMagnitude = rhs.digits.count + rhs.exponent
        if lhsMagnitude != rhsMagnitude { return lhsMagnitude < rhsMagnitude }
        for position in 0..<max(lhs.digits.count, rhs.digits.count) {
            let left = position < lhs.digits.count ? lhs.digits[position] : 0
            let right = position < rhs.digits.count ? rhs.digits[position] : 0
            if left != right { return left < right }
        }
        return nil
    }
}
