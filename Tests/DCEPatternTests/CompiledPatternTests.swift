import DCEPattern
import Testing

struct CompiledPatternTests {
    @Test func matchesWithSearchSemantics() throws {
        let pattern = try CompiledPattern("[0-9]{4}")
        #expect(pattern.match("PIN 1234") == .match)
        #expect(pattern.match("12a4") == .noMatch)
    }

    @Test func dollarDoesNotMatchBeforeTrailingNewline() throws {
        let pattern = try CompiledPattern("^[0-9]{4}$")
        #expect(pattern.match("2024") == .match)
        #expect(pattern.match("2024\n") == .noMatch)
    }

    @Test func digitClassIsASCIIOnly() throws {
        let pattern = try CompiledPattern(#"^\d+$"#)
        #expect(pattern.match("١٢٣") == .noMatch)  // Arabic-Indic digits
        #expect(pattern.match("123") == .match)
    }

    @Test func matchesCodePointsNotBytes() throws {
        let pattern = try CompiledPattern("^.{3}$")
        #expect(pattern.match("日本語") == .match)
        #expect(pattern.match("e\u{301}ab") == .noMatch)  // four code points, three graphemes
    }

    @Test func catastrophicPatternStopsAtTheMatchLimit() throws {
        let pattern = try CompiledPattern("^(a+)+$")
        let subject = String(repeating: "a", count: 5_000) + "!"
        let clock = ContinuousClock()
        var outcome = MatchOutcome.match
        let elapsed = clock.measure { outcome = pattern.match(subject) }
        #expect(outcome == .limitExceeded)
        // Not a timing assertion on speed: only a bound that a hang or an unbounded match would blow through.
        #expect(elapsed < .seconds(5))
    }

    @Test func largeSubjectsFallBackFromTheJITStackToTheInterpreter() throws {
        let pattern = try CompiledPattern(
            "^(?:a|b)*$", limits: MatchLimits(matchLimit: 10_000_000, depthLimit: 1_000, heapLimitKiB: 65_536))
        let outcome = pattern.match(String(repeating: "ab", count: 200_000))
        #expect(outcome == .match || outcome == .limitExceeded)
    }

    @Test func rejectsInvalidPatternsWithTheirOffset() {
        #expect(throws: PatternError.self) { try CompiledPattern("[a-") }
        do {
            _ = try CompiledPattern("ab(c")
            Issue.record("expected a compile error")
        } catch {
            #expect(error.offset == 4)
            #expect(error.reason.contains("missing closing parenthesis"))
        }
    }
}
