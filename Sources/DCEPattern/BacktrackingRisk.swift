/// A static look at a pattern for the shapes that make a backtracking engine take exponential time.
///
/// It flags an unboundedly repeated group whose body itself repeats without bound (`(a+)+`, `(\w*)*`,
/// `(?:x+y?)+`), an unboundedly repeated alternation whose branches can start alike (`(a|ab)*`), and
/// backreferences. It is a heuristic: a flagged pattern may be safe on the values it sees, and the match limits
/// still bound every match; the point is to catch these shapes when a schema is written.
package enum BacktrackingRisk {
    /// Reasons a pattern is risky, empty when none was found.
    ///
    /// - Parameter pattern: A PCRE2 pattern.
    /// - Returns: One sentence per risky construct.
    package static func assess(_ pattern: String) -> [String] {
        let characters = Array(pattern.unicodeScalars)
        var reasons: [String] = []
        struct Group {
            var start: Int
            var repeats = false
            var branchHeads: [String] = [""]
        }
        var stack = [Group(start: 0)]
        var index = 0
        func isUnboundedQuantifier(at position: Int) -> Bool {
            guard position < characters.count else { return false }
            switch characters[position] {
            case "*", "+": return true
            case "{":
                var cursor = position + 1
                while cursor < characters.count, characters[cursor] != "}" { cursor += 1 }
                let body = String(String.UnicodeScalarView(characters[(position + 1)..<min(cursor, characters.count)]))
                return body.hasSuffix(",") && body.dropLast().allSatisfy(\.isNumber) && !body.dropLast().isEmpty
            default: return false
            }
        }
        func noteHead(_ text: String) {
            if let last = stack.indices.last, stack[last].branchHeads[stack[last].branchHeads.count - 1].isEmpty {
                stack[last].branchHeads[stack[last].branchHeads.count - 1] = text
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else {
                    index += 1
                    continue
                }
                let next = characters[index + 1]
                if ("1"..."9").contains(next) || next == "g" || next == "k" {
                    reasons.append("a backreference (\\\(next)) can make matching exponential")
                }
                noteHead(String(character) + String(next))
                index += 2
            case "[":
                var cursor = index + 1
                if cursor < characters.count, characters[cursor] == "^" { cursor += 1 }
                if cursor < characters.count, characters[cursor] == "]" { cursor += 1 }
                while cursor < characters.count, characters[cursor] != "]" {
                    cursor += characters[cursor] == "\\" ? 2 : 1
                }
                noteHead(String(String.UnicodeScalarView(characters[index..<min(cursor + 1, characters.count)])))
                index = cursor + 1
            case "(":
                stack.append(Group(start: index))
                if let construct = unboundedConstruct(characters, at: index) { reasons.append(construct) }
                index += 1
                if index < characters.count, characters[index] == "?" {
                    // Skip the group's kind: (?:  (?=  (?!  (?<=  (?<!  (?>  (?<name>  (?i)
                    while index < characters.count, !":=!>)".unicodeScalars.contains(characters[index]) {
                        if characters[index] == "<", index + 1 < characters.count,
                            "=!".unicodeScalars.contains(characters[index + 1])
                        {
                            index += 1
                            break
                        }
                        index += 1
                    }
                    index += 1
                }
                continue
            case ")":
                guard stack.count > 1 else {
                    index += 1
                    continue
                }
                let group = stack.removeLast()
                index += 1
                if isUnboundedQuantifier(at: index) {
                    if group.repeats {
                        reasons.append(
                            "a repeated group contains a repeat of its own (as in (a+)+): nested unbounded quantifiers backtrack exponentially"
                        )
                    } else if group.branchHeads.count > 1 {
                        let heads = group.branchHeads.filter { !$0.isEmpty }
                        if Set(heads).count < heads.count || heads.contains(where: { $0.hasPrefix("[") || $0 == "." }) {
                            reasons.append(
                                "a repeated alternation whose branches can begin alike (as in (a|ab)*) backtracks exponentially"
                            )
                        }
                    }
                    stack[stack.count - 1].repeats = true
                } else if group.repeats {
                    stack[stack.count - 1].repeats = true
                }
                continue
            case "|":
                stack[stack.count - 1].branchHeads.append("")
                index += 1
                continue
            default:
                noteHead(String(character))
                index += 1
            }
            if isUnboundedQuantifier(at: index) { stack[stack.count - 1].repeats = true }
        }
        return Array(Set(reasons)).sorted()
    }

    /// A construct at an opening parenthesis that PCRE2 may backtrack through without bound, or that runs code:
    /// lookaround, recursion and subroutine calls, callouts and backtracking control verbs.
    private static func unboundedConstruct(_ characters: [Unicode.Scalar], at index: Int) -> String? {
        func starts(_ text: String) -> Bool {
            let scalars = Array(text.unicodeScalars)
            guard index + scalars.count <= characters.count else { return false }
            return Array(characters[index..<(index + scalars.count)]) == scalars
        }
        if starts("(?=") || starts("(?!") || starts("(?<=") || starts("(?<!") || starts("(*pla:") || starts("(*nla:")
            || starts("(*plb:") || starts("(*nlb:") || starts("(*positive_look") || starts("(*negative_look")
        {
            return "lookaround can make matching exponential"
        }
        let relativeCall =
            (starts("(?+") || starts("(?-")) && index + 3 < characters.count
            && ("0"..."9").contains(characters[index + 3])
        if starts("(?R)") || starts("(?&") || starts("(?P>") || relativeCall
            || (index + 2 < characters.count && characters[index + 1] == "?"
                && ("0"..."9").contains(characters[index + 2]))
        {
            return "recursion and subroutine calls can make matching exponential"
        }
        if starts("(?C") { return "callouts run code during a match" }
        if starts("(*") { return "backtracking control verbs change how a match backtracks" }
        return nil
    }

    /// Escapes that reach outside ordinary matching: `\C` (one code unit, breaks UTF-8) and `\g<…>` / `\g'…'` calls.
    package static func unsafeEscapes(_ pattern: String) -> [String] {
        var reasons: [String] = []
        let characters = Array(pattern.unicodeScalars)
        var index = 0
        while index + 1 < characters.count {
            if characters[index] == "\\" {
                let next = characters[index + 1]
                if next == "C" { reasons.append("\\C matches a single code unit and can split UTF-8") }
                if next == "g", index + 2 < characters.count,
                    characters[index + 2] == "<" || characters[index + 2] == "'"
                {
                    reasons.append("recursion and subroutine calls can make matching exponential")
                }
                index += 2
            } else {
                index += 1
            }
        }
        return reasons
    }
}
