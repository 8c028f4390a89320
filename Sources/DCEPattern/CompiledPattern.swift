// The one place that names the PCRE2 module: the system's, or the one compiled from source (see Package.swift).
#if DCE_PCRE2_FROM_SOURCE
    internal import CPCRE2Source
#else
    internal import CPCRE2
#endif

/// A regular expression compiled once by PCRE2 (with JIT where the platform has it) and matched many times.
///
/// Patterns use PCRE2 syntax in UTF mode with search semantics, as JSON Schema's `pattern` does: anchor with
/// `^` and `$` to match a whole value. `$` matches only at the very end (`PCRE2_DOLLAR_ENDONLY`), so
/// `^[0-9]{4}$` does not accept `"2024\n"`; `\d`, `\w` and `\s` are ASCII-only. Every match runs under
/// ``MatchLimits``.
///
/// `@unchecked Sendable`: the compiled code and the match context are written only in `init` and freed only in
/// `deinit`; PCRE2 documents both as safe to share between threads once compiled (pcre2api, "Multithreading"),
/// and the per-match data, which is not shareable, is created for each call.
///
/// `@safe`: its pointers are PCRE2's objects, created non-null in `init` (or it throws), never handed out, and freed
/// once in `deinit`.
@safe package final class CompiledPattern: @unchecked Sendable {
    /// The pattern's source text, as written in the schema.
    package let source: String
    /// The limits applied to every match.
    package let limits: MatchLimits
    /// Whether PCRE2 JIT-compiled the pattern.
    package let isJITCompiled: Bool

    private let code: OpaquePointer
    private let matchContext: OpaquePointer
    private let interpreterContext: OpaquePointer

    /// Compiles a pattern.
    ///
    /// - Parameters:
    ///   - source: The PCRE2 pattern.
    ///   - limits: The limits applied to each match.
    ///   - unicodeClasses: Whether `\d`, `\w`, `\s` and POSIX classes match Unicode properties (`PCRE2_UCP`)
    ///     instead of ASCII only.
    /// - Throws: ``PatternError`` when PCRE2 rejects the pattern.
    package init(_ source: String, limits: MatchLimits = .default, unicodeClasses: Bool = false) throws(PatternError) {
        self.source = source
        self.limits = limits
        var errorCode: Int32 = 0
        var errorOffset = 0
        let options =
            UInt32(PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_BACKSLASH_C)
            | (unicodeClasses ? UInt32(PCRE2_UCP) : 0)
        // SAFETY: PCRE2 reads `count` bytes from the buffer during the call and keeps no pointer to them.
        let compiled: OpaquePointer? = unsafe Array(source.utf8).withUnsafeBufferPointer { buffer in
            unsafe pcre2_compile_8(buffer.baseAddress, buffer.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled = unsafe compiled else {
            throw PatternError(code: errorCode, reason: Self.message(for: errorCode), offset: errorOffset)
        }
        // SAFETY: `compiled` is PCRE2's non-null compiled code; the contexts are PCRE2's own, made here and set before
        // any match can read them.
        unsafe code = compiled
        isJITCompiled = unsafe pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        unsafe matchContext = Self.context(limits)
        unsafe interpreterContext = Self.context(limits)
    }

    /// A match context holding the limits (PCRE2 answers `nil` only when it cannot allocate one).
    private static func context(_ limits: MatchLimits) -> OpaquePointer {
        // SAFETY: the context is created here and only set before it is returned.
        guard let context = unsafe pcre2_match_context_create_8(nil) else { fatalError("PCRE2 cannot allocate") }
        unsafe pcre2_set_match_limit_8(context, limits.matchLimit)
        unsafe pcre2_set_depth_limit_8(context, limits.depthLimit)
        unsafe pcre2_set_heap_limit_8(context, limits.heapLimitKiB)
        return unsafe context
    }

    deinit {
        // SAFETY: each was created once in init and is freed once here, when no match can run.
        unsafe pcre2_match_context_free_8(matchContext)
        unsafe pcre2_match_context_free_8(interpreterContext)
        unsafe pcre2_code_free_8(code)
    }

    /// Matches a string, with match data of its own.
    ///
    /// - Parameter subject: The text to search; Swift strings are valid UTF-8, so PCRE2 skips its UTF check.
    /// - Returns: Whether the pattern matched, or that the match hit a limit.
    package func match(_ subject: String) -> MatchOutcome {
        let scratch = MatchScratch()
        var text = subject
        // SAFETY: the buffer is the string's own UTF-8, alive for the call, which keeps no pointer to it.
        return text.withUTF8 { unsafe match(buffer: $0, knownValidUTF8: true, scratch: scratch) }
    }

    /// Matches UTF-8 bytes borrowed as a span, with match data the caller keeps for several matches on one thread.
    ///
    /// - Parameters:
    ///   - bytes: The subject.
    ///   - knownValidUTF8: Pass `true` only for bytes already checked to be valid UTF-8.
    ///   - scratch: Match data owned by the calling thread.
    /// - Returns: Whether the pattern matched, or that the match hit a limit.
    package func match(_ bytes: Span<UInt8>, knownValidUTF8: Bool, scratch: MatchScratch) -> MatchOutcome {
        // SAFETY: the span's memory is alive for the closure, and the match keeps no pointer to it.
        unsafe bytes.withUnsafeBufferPointer {
            unsafe match(buffer: $0, knownValidUTF8: knownValidUTF8, scratch: scratch)
        }
    }

    /// The match itself: the JIT's fast path where it applies, else (or when the JIT's stack overflows) the
    /// interpreter. SAFETY: the caller keeps `bytes` alive for the call, which keeps no pointer to them.
    private func match(buffer bytes: UnsafeBufferPointer<UInt8>, knownValidUTF8: Bool, scratch: MatchScratch)
        -> MatchOutcome
    {
        // SAFETY: `code` and the contexts live as long as this pattern; PCRE2 reads `bytes.count` bytes of the subject
        // (or a byte of this call's for an empty one) during each call and keeps no pointer to them; the match data is
        // the calling thread's (MatchScratch is not Sendable).
        guard let matchData = unsafe scratch.data else { return .error(0) }
        if isJITCompiled && knownValidUTF8 {
            // The JIT fast path skips the checks pcre2_match repeats on every call; the bytes are known valid UTF-8.
            let empty: [UInt8] = [0]
            let result = unsafe empty.withUnsafeBufferPointer { fallback in
                unsafe pcre2_jit_match_8(
                    code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, 0, matchData, matchContext)
            }
            if result != PCRE2_ERROR_JIT_STACKLIMIT { return Self.outcome(of: result) }
        }
        let options = knownValidUTF8 ? UInt32(PCRE2_NO_UTF_CHECK) : 0
        // An empty buffer may have a nil base address; PCRE2 accepts any non-null pointer for length 0.
        // SAFETY: as above, with the interpreter's match: the same subject, match data and pattern.
        let empty: [UInt8] = [0]
        var result = unsafe empty.withUnsafeBufferPointer { fallback in
            unsafe pcre2_match_8(
                code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, options, matchData, matchContext)
        }
        if result == PCRE2_ERROR_JIT_STACKLIMIT {
            // The JIT's small default stack overflowed on a large subject: rerun on the interpreter, which honours
            // the depth and heap limits instead of failing outright. SAFETY: as above.
            result = unsafe empty.withUnsafeBufferPointer { fallback in
                unsafe pcre2_match_8(
                    code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, options | UInt32(PCRE2_NO_JIT),
                    matchData, interpreterContext)
            }
        }
        return Self.outcome(of: result)
    }

    /// Whether a string could still match if more characters were typed after it: `.match` when it matches now,
    /// `.partial` when it is the beginning of a possible match, `.noMatch` when no continuation can match.
    ///
    /// - Parameter subject: The text typed so far.
    /// - Returns: The verdict; partial matching runs on the interpreter, under the same limits.
    package func matchPrefix(_ subject: String) -> PrefixOutcome {
        // SAFETY: the match data is made, used and freed here; the subject is the string's own UTF-8 (or a byte of
        // this call's for an empty one), alive for the call, which keeps no pointer to it; `code` and
        // `interpreterContext` live as long as this pattern.
        guard let matchData = unsafe pcre2_match_data_create_8(1, nil) else { return .noMatch }
        defer { unsafe pcre2_match_data_free_8(matchData) }
        var text = subject
        let result = text.withUTF8 { buffer in
            let empty: [UInt8] = [0]
            return unsafe empty.withUnsafeBufferPointer { fallback in
                unsafe pcre2_match_8(
                    code, buffer.baseAddress ?? fallback.baseAddress, buffer.count, 0,
                    UInt32(PCRE2_PARTIAL_SOFT) | UInt32(PCRE2_NO_JIT) | UInt32(PCRE2_NO_UTF_CHECK), matchData,
                    interpreterContext)
            }
        }
        if result >= 0 { return .match }
        if result == PCRE2_ERROR_PARTIAL { return .partial }
        if result == PCRE2_ERROR_NOMATCH { return .noMatch }
        return .limitExceeded
    }

    fileprivate static func outcome(of result: Int32) -> MatchOutcome {
        if result >= 0 { return .match }
        switch result {
        case PCRE2_ERROR_NOMATCH: return .noMatch
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT, PCRE2_ERROR_JIT_STACKLIMIT:
            return .limitExceeded
        default: return .error(result)
        }
    }

    private static func message(for errorCode: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        // SAFETY: PCRE2 writes at most `buffer.count` bytes into the array, during the call.
        let length = unsafe pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
        guard length > 0 else { return "PCRE2 error \(errorCode)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }
}

/// Match data for one thread's matches: PCRE2 match data may not be shared between threads, and creating it for
/// every match costs an allocation. One pair of offsets is enough, since only whether a pattern matches is used.
///
/// `@safe`: its pointer is PCRE2's match data, made in `init`, freed once in `deinit`, read only by matches on the
/// thread that owns the scratch.
@safe package final class MatchScratch {
    fileprivate let data: OpaquePointer?

    /// Creates match data.
    package init() {
        unsafe data = pcre2_match_data_create_8(1, nil)
    }

    deinit {
        // SAFETY: made once in init, freed once here.
        unsafe pcre2_match_data_free_8(data)
    }
}

/// The verdict of ``CompiledPattern/matchPrefix(_:)``.
package enum PrefixOutcome: Hashable, Sendable {
    /// The text matches as it is.
    case match
    /// The text does not match yet, but more characters could make it match.
    case partial
    /// No continuation of the text can match.
    case noMatch
    /// The match gave up at a limit.
    case limitExceeded
}

/// The PCRE2 library the engine runs on, as it describes itself (`pcre2_config`).
package enum PCRE2Library {
    /// Its release and date, such as `10.42 2022-12-11`.
    package static var version: String {
        var buffer = [UInt8](repeating: 0, count: 64)
        // SAFETY: the version string is at most 24 bytes (pcre2api, pcre2_config); PCRE2 writes it during the call.
        let length = unsafe pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), &buffer)
        guard length > 1 else { return "" }
        return String(decoding: buffer[0..<Int(length - 1)], as: UTF8.self)
    }

    /// Whether it was built with its JIT compiler; where it was not, every pattern runs on the interpreter.
    package static var hasJIT: Bool {
        var available: UInt32 = 0
        // SAFETY: PCRE2 writes one UInt32 for this option, during the call.
        return unsafe pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available) == 0 && available == 1
    }
}
