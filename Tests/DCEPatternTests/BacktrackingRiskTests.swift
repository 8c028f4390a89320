import DCEPattern
import Testing

struct BacktrackingRiskTests {
    @Test(arguments: ["^(?-1)(a)$", "^(?=x)", "(?C)a", "\\Ca"])
    func flagsConstructsThatRunWithoutBound(pattern: String) {
        #expect(!(BacktrackingRisk.assess(pattern) + BacktrackingRisk.unsafeEscapes(pattern)).isEmpty, "\(pattern)")
    }

    @Test(arguments: [
        "^(a+)+$", "(\\w*)*", "^(?:x+y?)+$", "(a|a)*", "(.|\\s)*x", "([a-z]|[0-9])+$", "(a{2,})*", "(\\d)\\1",
        "^((ab)+c?)+$",
    ])
    func flagsRiskyShapes(pattern: String) {
        #expect(!BacktrackingRisk.assess(pattern).isEmpty, "\(pattern)")
    }

    @Test(arguments: [
        "^[0-9]{4}$", "^\\+[0-9]{1,3} [0-9]{4,14}$", "^[\\p{L}\\p{M} .-]*$", "^[a-zA-Z0-9-\\ ]*$", "^(ab)+$",
        "^(?:[0-9a-fA-F]{2})+$", "PHYSICAL", "^(GOOGLE|SAMSUNG)_PAY$", "^(a+b)c$", "[(]+", "^(?i)abc(?-i)d$",
    ])
    func acceptsOrdinaryPatterns(pattern: String) {
        #expect(BacktrackingRisk.assess(pattern).isEmpty, "\(pattern): \(BacktrackingRisk.assess(pattern))")
    }
}
