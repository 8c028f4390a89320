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
package final class CompiledPattern: @unchecked Sendable {
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
        let compiled: OpaquePointer? =
            source.utf8.withContiguousStorageIfAvailable { buffer in
                pcre2_compile_8(buffer.baseAddress, buffer.count, options, &errorCode, &errorOffset, nil)
            }
            ?? Array(source.utf8).withUnsafeBufferPointer { buffer in
                pcre2_compile_8(buffer.baseAddress, buffer.count, options, &errorCode, &errorOffset, nil)
            }
        guard let compiled else {
            throw PatternError(code: errorCode, reason: Self.message(for: errorCode), offset: errorOffset)
        }
        code = compiled
        isJITCompiled = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0

        matchContext = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(matchContext, limits.matchLimit)
        pcre2_set_depth_limit_8(matchContext, limits.depthLimit)
        pcre2_set_heap_limit_8(matchContext, limits.heapLimitKiB)
        interpreterContext = pcre2_match_context_create_8(nil)
        pcre2_set_match_limit_8(interpreterContext, limits.matchLimit)
        pcre2_set_depth_limit_8(interpreterContext, limits.depthLimit)
        pcre2_set_heap_limit_8(interpreterContext, limits.heapLimitKiB)
    }

    deinit {
        pcre2_match_context_free_8(matchContext)
        pcre2_match_context_free_8(interpreterContext)
        pcre2_code_free_8(code)
    }

    /// Matches a string.
    ///
    /// - Parameter subject: The text to search; Swift strings are valid UTF-8, so PCRE2 skips its UTF check.
    /// - Returns: Whether the pattern matched, or that the match hit a limit.
    package func match(_ subject: String) -> MatchOutcome {
        if let outcome = subject.utf8.withContiguousStorageIfAvailable({ match(bytes: $0, knownValidUTF8: true) }) {
            return outcome
        }
        var copy = subject
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { match(bytes: $0, knownValidUTF8: true) } ?? .error(0)
    }

    /// Matches UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - bytes: The subject.
    ///   - knownValidUTF8: Pass `true` only for bytes already checked to be valid UTF-8.
    /// - Returns: Whether the pattern matched, or that the match hit a limit.
    package func match(bytes: UnsafeBufferPointer<UInt8>, knownValidUTF8: Bool) -> MatchOutcome {
        let scratch = MatchScratch()
        return match(bytes: bytes, knownValidUTF8: knownValidUTF8, scratch: scratch)
    }

    /// Matches UTF-8 bytes with match data the caller keeps for several matches on one thread.
    ///
    /// - Parameters:
    ///   - bytes: The subject.
    ///   - knownValidUTF8: Pass `true` only for bytes already checked to be valid UTF-8.
    ///   - scratch: Match data owned by the calling thread.
    /// - Returns: Whether the pattern matched, or that the match hit a limit.
    package func match(bytes: UnsafeBufferPointer<UInt8>, knownValidUTF8: Bool, scratch: MatchScratch) -> MatchOutcome {
        // this pattern is alive while its method runs
        handle.match(bytes: bytes, knownValidUTF8: knownValidUTF8, scratch: scratch)
    }

    /// The pattern as plain values, for a table of rules that must not take a reference count to match: valid only
    /// while this pattern is alive, which whoever stores the handle guarantees.
    package var handle: PatternHandle {
        PatternHandle(
            code: code, matchContext: matchContext, interpreterContext: interpreterContext, isJITCompiled: isJITCompiled
        )
    }

    /// Whether a string could still match if more characters were typed after it: `.match` when it matches now,
    /// `.partial` when it is the beginning of a possible match, `.noMatch` when no continuation can match.
    ///
    /// - Parameter subject: The text typed so far.
    /// - Returns: The verdict; partial matching runs on the interpreter, under the same limits.
    package func matchPrefix(_ subject: String) -> PrefixOutcome {
        guard let matchData = pcre2_match_data_create_8(1, nil) else { return .noMatch }
        defer { pcre2_match_data_free_8(matchData) }
        var text = subject
        let result = text.withUTF8 { buffer in
            let empty: [UInt8] = [0]
            return empty.withUnsafeBufferPointer { fallback in
                pcre2_match_8(
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
        let length = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
        guard length > 0 else { return "PCRE2 error \(errorCode)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }
}

/// A ``CompiledPattern`` as plain values (its compiled code and match contexts), valid while the pattern lives.
package struct PatternHandle: @unchecked Sendable {
    fileprivate let code: OpaquePointer
    fileprivate let matchContext: OpaquePointer
    fileprivate let interpreterContext: OpaquePointer
    fileprivate let isJITCompiled: Bool

    /// Matches UTF-8 bytes with match data the caller keeps for several matches on one thread (see
    /// ``CompiledPattern/match(bytes:knownValidUTF8:scratch:)``).
    package func match(bytes: UnsafeBufferPointer<UInt8>, knownValidUTF8: Bool, scratch: MatchScratch) -> MatchOutcome {
        guard let matchData = scratch.data else { return .error(0) }
        if isJITCompiled && knownValidUTF8 {
            // The JIT fast path skips the checks pcre2_match repeats on every call; the bytes are known valid UTF-8.
            let empty: [UInt8] = [0]
            let result = empty.withUnsafeBufferPointer { fallback in
                pcre2_jit_match_8(
                    code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, 0, matchData, matchContext)
            }
            if result != PCRE2_ERROR_JIT_STACKLIMIT { return CompiledPattern.outcome(of: result) }
        }
        let options = knownValidUTF8 ? UInt32(PCRE2_NO_UTF_CHECK) : 0
        // An empty buffer may have a nil base address; PCRE2 accepts any non-null pointer for length 0.
        let empty: [UInt8] = [0]
        var result = empty.withUnsafeBufferPointer { fallback in
            pcre2_match_8(
                code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, options, matchData, matchContext)
        }
        if result == PCRE2_ERROR_JIT_STACKLIMIT {
            // The JIT's small default stack overflowed on a large subject: rerun on the interpreter, which honours
            // the depth and heap limits instead of failing outright.
            result = empty.withUnsafeBufferPointer { fallback in
                pcre2_match_8(
                    code, bytes.baseAddress ?? fallback.baseAddress, bytes.count, 0, options | UInt32(PCRE2_NO_JIT),
                    matchData, interpreterContext)
            }
        }
        return CompiledPattern.outcome(of: result)
    }

    /// Matches a string, with match data of its own.
    package func match(_ subject: String) -> MatchOutcome {
        let scratch = MatchScratch()
        var text = subject
        return text.withUTF8 { match(bytes: $0, knownValidUTF8: true, scratch: scratch) }
    }
}

/// Match data for one thread's matches: PCRE2 match data may not be shared between threads, and creating it for
/// every match costs an allocation. One pair of offsets is enough, since only whether a pattern matches is used.
package final class MatchScratch {
    fileprivate let data: OpaquePointer?

    /// Creates match data.
    package init() {
        data = pcre2_match_data_create_8(1, nil)
    }

    deinit {
        pcre2_match_data_free_8(data)
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
        let length = pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), &buffer)
        guard length > 1 else { return "" }
        return String(decoding: buffer[0..<Int(length - 1)], as: UTF8.self)
    }

    /// Whether it was built with its JIT compiler; where it was not, every pattern runs on the interpreter.
    package static var hasJIT: Bool {
        var available: UInt32 = 0
        return pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available) == 0 && available == 1
    }
}
