/// Bounds applied to every match, so that no pattern or subject can make a match run without end.
///
/// The match limit bounds the work of both PCRE2 engines (JIT and interpreter). The depth and heap limits
/// are honoured by the interpreter only; the JIT instead fails with a stack error, and the pattern then
/// reruns the match on the interpreter under these limits.
public struct MatchLimits: Hashable, Sendable {
    /// The most times PCRE2 may call its internal match function for one match (`pcre2_set_match_limit`).
    public var matchLimit: UInt32
    /// The deepest backtracking nesting the interpreter may reach (`pcre2_set_depth_limit`).
    public var depthLimit: UInt32
    /// The most heap memory, in KiB, the interpreter may use for one match (`pcre2_set_heap_limit`).
    public var heapLimitKiB: UInt32

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - matchLimit: The match-call budget.
    ///   - depthLimit: The backtracking depth budget.
    ///   - heapLimitKiB: The heap budget in KiB.
    public init(matchLimit: UInt32, depthLimit: UInt32, heapLimitKiB: UInt32) {
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimitKiB = heapLimitKiB
    }

    /// The limits used unless a caller chooses others: ample for field-sized subjects, and small enough that
    /// `^(a+)+$` against a long run of `a`s gives up in well under a millisecond.
    public static let `default` = MatchLimits(matchLimit: 100_000, depthLimit: 1_000, heapLimitKiB: 4_096)
}
