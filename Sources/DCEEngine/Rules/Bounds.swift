/// A kind of lower and upper bound a schema can set: string lengths, item counts, or numeric values.
///
/// The kind names the attributes, the rules broken and how a bound is written in JSON Schema; ``Bounds`` holds the
/// meaning all three share.
package protocol BoundKind {
    associatedtype Value: Comparable & Hashable & Sendable & CustomStringConvertible
    /// The attribute names in a schema, which JSON Schema shares.
    static var keywords: (lower: String, upper: String) { get }
    /// The rules a value below the lower bound and above the upper bound breaks.
    static var rules: (below: ViolationCode, above: ViolationCode) { get }
    /// A bound as a JSON value.
    static func schemaValue(_ bound: Value) -> SchemaValue
}

/// A lower and an upper bound, either or both set: `minLength`/`maxLength` (``Lengths``), `minItems`/`maxItems`
/// (``ItemCounts``) and `minimum`/`maximum` (``ValueRange``).
///
/// Everything bounds mean is here, and every consumer asks: how they are overlaid (an override that names only the
/// upper bound keeps the base's lower one), which bounds contradict each other (compiling), whether a measure breaks
/// them (validation), the bound a message names, and the JSON Schema keywords (export). What a bound means for a value
/// still being typed depends on the kind, and is beside it below.
package struct Bounds<Kind: BoundKind>: Sendable, Hashable {
    /// The lower bound (inclusive), when set.
    package var lower: Kind.Value?
    /// The upper bound (inclusive), when set.
    package var upper: Kind.Value?

    init(lower: Kind.Value? = nil, upper: Kind.Value? = nil) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether neither bound is set.
    var isEmpty: Bool { lower == nil && upper == nil }

    /// These bounds with each one that `other` sets taking precedence.
    func overlaid(with other: Bounds) -> Bounds {
        Bounds(lower: other.lower ?? lower, upper: other.upper ?? upper)
    }

    /// The bounds a measure must meet to meet both these and `other`: the larger lower and the smaller upper bound.
    func narrowed(by other: Bounds) -> Bounds {
        func pick(_ a: Kind.Value?, _ b: Kind.Value?, _ tighter: (Kind.Value, Kind.Value) -> Kind.Value) -> Kind.Value?
        {
            guard let a else { return b }
            guard let b else { return a }
            return tighter(a, b)
        }
        return Bounds(lower: pick(lower, other.lower, max), upper: pick(upper, other.upper, min))
    }

    /// What is wrong with the bounds as written, for a schema problem: a lower bound above the upper one.
    var contradiction: String? {
        guard let lower, let upper, upper < lower else { return nil }
        return "\(Kind.keywords.lower) \(lower) is greater than \(Kind.keywords.upper) \(upper)"
    }

    /// Whether a measure breaks the lower bound.
    @inline(__always)
    func isBelow(_ measure: Kind.Value) -> Bool {
        guard let lower else { return false }
        return measure < lower
    }

    /// Whether a measure breaks the upper bound.
    @inline(__always)
    func isAbove(_ measure: Kind.Value) -> Bool {
        guard let upper else { return false }
        return upper < measure
    }

    /// The bound a message about `rule` names: the lower one for the rule broken below it, else the upper one.
    func bound(for rule: ViolationCode) -> Kind.Value? {
        rule == Kind.rules.below ? lower : upper
    }

    /// The JSON Schema keywords, which have the same names and meaning.
    package var jsonSchema: [SchemaValue.Member] {
        var members: [SchemaValue.Member] = []
        if let lower { members.append(.init(key: Kind.keywords.lower, value: Kind.schemaValue(lower))) }
        if let upper { members.append(.init(key: Kind.keywords.upper, value: Kind.schemaValue(upper))) }
        return members
    }
}

/// String lengths in Unicode code points, as JSON Schema counts them (`PDMetaData` minimum and maximum length, and
/// those of each `PDTenderTypeMetaDataAdditionalDataValidations` entry).
package enum LengthBound: BoundKind {
    package static let keywords = (lower: "minLength", upper: "maxLength")
    package static let rules = (below: ViolationCode.minLength, above: ViolationCode.maxLength)
    package static func schemaValue(_ bound: Int) -> SchemaValue { .number(DecimalNumber(lexeme: String(bound))) }
}

/// The number of items in an array.
package enum ItemCountBound: BoundKind {
    package static let keywords = (lower: "minItems", upper: "maxItems")
    package static let rules = (below: ViolationCode.minItems, above: ViolationCode.maxItems)
    package static func schemaValue(_ bound: Int) -> SchemaValue { .number(DecimalNumber(lexeme: String(bound))) }
}

/// The value of an Integer or Number field, compared exactly as written.
package enum ValueBound: BoundKind {
    package static let keywords = (lower: "minimum", upper: "maximum")
    package static let rules = (below: ViolationCode.minimum, above: ViolationCode.maximum)
    package static func schemaValue(_ bound: DecimalNumber) -> SchemaValue { .number(bound) }
}

package typealias Lengths = Bounds<LengthBound>
package typealias ItemCounts = Bounds<ItemCountBound>
package typealias ValueRange = Bounds<ValueBound>

extension Bounds where Kind == LengthBound {
    /// What typed text of `length` code points is: invalid once it is too long (typing more cannot help),
    /// incomplete while it is too short.
    func judge(partialLength length: Int) -> InputVerdict {
        if isAbove(length) { return .invalid(.maxLength) }
        return isBelow(length) ? .incomplete : .valid
    }
}

extension Bounds where Kind == ValueBound {
    /// What a number typed so far is, given that typing more digits moves it away from zero: above the maximum, a
    /// negative number can still come down to it and a positive one cannot; below the minimum, the reverse.
    func judge(partial number: DecimalNumber) -> InputVerdict {
        if isAbove(number) { return number.isNegative ? .incomplete : .invalid(.maximum) }
        if isBelow(number) { return number.isNegative ? .invalid(.minimum) : .incomplete }
        return .valid
    }
}

extension Rules {
    /// The lengths a string must have to pass validation: the field's own, narrowed by each
    /// `additionalDataValidations` entry's. What partial input and a form's bounds use.
    package var effectiveLengths: Lengths {
        validationList.reduce(lengths) { $0.narrowed(by: $1.lengths) }
    }
}
