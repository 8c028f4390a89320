/// The lengths, in Unicode code points, of the strings a simple pattern matches: what a form shows as a field's
/// expected length when a schema says it with a pattern (`^[0-9]{4}$`: 4) rather than with `minLength`/`maxLength`.
///
/// A simple pattern is anchored at both ends (`^…$`) and made of literal characters, escapes of one character
/// (`\d`, `\.`), `.` and character classes, each with a quantifier or none (`?`, `*`, `+`, `{n}`, `{m,}`, `{m,n}`,
/// lazy or possessive alike), and of groups of such sequences separated by `|` (`^([0-9]{5}|[0-9]{9})$`: 5 to 9).
/// Any other pattern (unanchored, with a back-reference, a look-around, an anchor inside, a `\R` or `\X` of several
/// code points) gives `nil`: its lengths are not known, and a form shows only those the schema states.
///
/// Only forms read these lengths; validation and compatibility read the pattern itself.
package enum PatternLengths {
    /// The fewest and the most code points a string the pattern matches has (`nil` for no most), or `nil` when the
    /// pattern is not simple.
    package static func bounds(of pattern: String) -> (min: Int, max: Int?)? {
        var scalars = Array(pattern.unicodeScalars)[...]
        guard scalars.first == "^", scalars.last == "$" else { return nil }
        scalars = scalars.dropFirst().dropLast()
        // A `$` escaped by an odd number of backslashes is a literal: the pattern then has no end anchor.
        let slashes = scalars.reversed().prefix { $0 == "\\" }.count
        guard slashes % 2 == 0 else { return nil }
        var parser = Parser(scalars: scalars)
        guard let found = parser.alternatives(), parser.scalars.isEmpty else { return nil }
        return found
    }

    private struct Parser {
        var scalars: ArraySlice<Unicode.Scalar>

        /// `sequence ('|' sequence)*`, up to a `)` or the end.
        mutating func alternatives() -> (min: Int, max: Int?)? {
            guard var result = sequence() else { return nil }
            while scalars.first == "|" {
                scalars.removeFirst()
                guard let next = sequence() else { return nil }
                result = (min(result.min, next.min), result.max.flatMap { a in next.max.map { max(a, $0) } })
            }
            return result
        }

        /// Quantified atoms, up to a `|`, a `)` or the end.
        mutating func sequence() -> (min: Int, max: Int?)? {
            var total: (min: Int, max: Int?) = (0, 0)
            while let first = scalars.first, first != "|", first != ")" {
                guard let atom = atom(), let (low, high) = quantifier() else { return nil }
                total.min += atom.min * low
                switch (total.max, atom.max, high) {
                case (let sum?, let most?, let times?): total.max = sum + most * times
                case (_, 0, _): break
                default: total.max = nil
                }
            }
            return total
        }

        /// One character, class, escape or group.
        mutating func atom() -> (min: Int, max: Int?)? {
            let first = scalars.removeFirst()
            switch first {
            case "(":
                if scalars.first == "?" {
                    // Only a non-capturing group; a look-around, a named group or an option setting is not simple.
                    guard scalars.dropFirst().first == ":" else { return nil }
                    scalars.removeFirst(2)
                }
                guard let inner = alternatives(), scalars.first == ")" else { return nil }
                scalars.removeFirst()
                return inner
            case "[":
                return characterClass() ? (1, 1) : nil
            case "\\":
                guard let escaped = scalars.first else { return nil }
                scalars.removeFirst()
                // Letters are classes of one character (\d \w \s \h \v \p{…} \P{…}) or not simple (\b \A \z \R \X
                // \1 \k …); anything else is itself.
                if "dDwWsShHvVN".unicodeScalars.contains(escaped) { return (1, 1) }
                if escaped == "p" || escaped == "P" {
                    // `\p{Lu}`, or `\pL` with a one-letter property.
                    if scalars.first == "{", let close = scalars.firstIndex(of: "}") {
                        scalars = scalars[(close + 1)...]
                    } else if !scalars.isEmpty {
                        scalars.removeFirst()
                    }
                    return (1, 1)
                }
                if escaped.properties.isAlphabetic || ("0"..."9").contains(escaped) { return nil }
                return (1, 1)
            case "^", "$", "|", ")", "*", "+", "?", "{":
                return nil
            default:
                return (1, 1)
            }
        }

        /// The rest of a `[…]` class after its `[`: whether it closes. A POSIX class inside (`[:alpha:]`) is skipped
        /// whole, so that its `]` does not close the class.
        mutating func characterClass() -> Bool {
            if scalars.first == "^" { scalars.removeFirst() }
            if scalars.first == "]" { scalars.removeFirst() }
            while let next = scalars.first {
                scalars.removeFirst()
                switch next {
                case "]":
                    return true
                case "\\":
                    if !scalars.isEmpty { scalars.removeFirst() }
                case "[" where scalars.first == ":":
                    scalars.removeFirst()
                    guard let close = scalars.indices.first(where: { scalars[$0...].starts(with: [":", "]"]) })
                    else { return false }
                    scalars = scalars[(close + 2)...]
                default:
                    break
                }
            }
            return false
        }

        /// A quantifier after an atom, or `{1}` when there is none: how few and how many times.
        mutating func quantifier() -> (Int, Int?)? {
            var found: (Int, Int?)
            switch scalars.first {
            case "?": found = (0, 1)
            case "*": found = (0, nil)
            case "+": found = (1, nil)
            case "{":
                guard let close = scalars.firstIndex(of: "}") else { return (1, 1) }
                let inside = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(parts[0]), parts.count <= 2 else { return nil }
                let high: Int? = parts.count == 1 ? low : parts[1].isEmpty ? nil : Int(parts[1])
                if parts.count == 2, !parts[1].isEmpty, high == nil { return nil }
                scalars = scalars[close...]
                found = (low, high)
            default: return (1, 1)
            }
            scalars.removeFirst()
            if scalars.first == "?" || scalars.first == "+" { scalars.removeFirst() }
            return found
        }
    }
}

extension Rules {
    /// The lengths an input of the field takes: ``effectiveLengths``, narrowed by what each
    /// `additionalDataValidations` pattern implies when it is simple (``PatternLengths``). A security code whose
    /// pattern is `^[0-9]{4}$` under one brand and `^[0-9]{3}$` under the others takes 4 characters, then 3, as the
    /// brand's override holds. Forms read it; a value past it breaks the pattern, not a length.
    package var inputLengths: Lengths {
        validationList.reduce(effectiveLengths) { lengths, validation in
            guard let regex = validation.regex, let bounds = PatternLengths.bounds(of: regex) else { return lengths }
            return lengths.narrowed(by: Lengths(lower: bounds.min > 0 ? bounds.min : nil, upper: bounds.max))
        }
    }
}
