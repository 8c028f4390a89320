import DCEEngine
import Testing

/// The lengths a form shows for a field that a pattern bounds: known for simple patterns, unknown for the rest.
struct PatternLengthsTests {
    @Test(
        arguments: [
            ("^[0-9]{4}$", 4, 4),
            ("^[0-9]{3,4}$", 3, 4),
            ("^([0-9]{5}|[0-9]{9})$", 5, 9),
            ("^(?:[0-9]{5}|[0-9]{5}-[0-9]{4})$", 5, 10),
            ("^[A-Z]{2}$", 2, 2),
            (#"^\+[0-9]{1,3} [0-9]{4,14}$"#, 7, 19),
            (#"^\d\d?$"#, 1, 2),
            ("^[^]a-z]{2}$", 2, 2),
            ("^[[:alpha:]]{1,3}$", 1, 3),
            ("^[a-z]+?$", 1, nil),
            ("^x{2,}$", 2, nil),
            (#"^\p{L}{1,5}$"#, 1, 5),
            (#"^\pL\PN$"#, 2, 2),
            ("^$", 0, 0),
        ] as [(String, Int, Int?)])
    func simplePatternsHaveKnownLengths(pattern: String, min: Int, max: Int?) throws {
        let bounds = try #require(PatternLengths.bounds(of: pattern))
        #expect(bounds.min == min && bounds.max == max)
    }

    /// Unanchored, with a look-around, a back-reference, an anchor or a word boundary inside, or not closed.
    @Test(arguments: [
        "[0-9]{4}", "^[0-9]{4}", "[0-9]{4}$", "^(?=a)[a-z]{2}$", #"^(a)\1$"#, #"^a\bb$"#, "^[a-z$", "^(ab$",
        #"^a\$"#, "^a|^b$", "^{2}$", "^(?<n>a)$",
    ])
    func otherPatternsHaveUnknownLengths(pattern: String) {
        #expect(PatternLengths.bounds(of: pattern) == nil)
    }
}
