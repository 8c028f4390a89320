/// The verdict of one match: the pattern was found, was not found, or the match gave up at a limit.
public enum MatchOutcome: Hashable, Sendable {
    /// The pattern matched somewhere in the subject.
    case match
    /// The pattern does not match the subject.
    case noMatch
    /// The match was abandoned at one of the ``MatchLimits``; the subject is neither accepted nor rejected
    /// by the pattern and callers treat this as a failed rule of its own kind.
    case limitExceeded
    /// PCRE2 reported an error other than a limit (for example, invalid UTF-8 in a raw byte subject).
    case error(Int32)
}
