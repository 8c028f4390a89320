internal import DCEPattern

/// One entry of `additionalDataValidations` (`PDTenderTypeMetaDataAdditionalDataValidations`): lengths and a regex a
/// string must meet, with its own message.
///
/// Everything an entry means is here, and every consumer asks it: the compiled check validation runs on a value's
/// bytes (``StringCheck``), what its regex says of a value still being typed, and its JSON Schema. Its lengths are
/// ``Lengths``, which also narrow the field's own (``Rules/effectiveLengths``).
package struct Validation: Sendable {
    var location: SchemaLocation
    package var lengths: Lengths
    package var regex: String?
    var regexLocation: SchemaLocation?
    /// Whether `\d`, `\w`, `\s` and POSIX classes in `regex` match Unicode characters rather than ASCII only.
    var unicode: Bool
    var description: String?
    var message: LocalizedText?

    /// The key of this validation's compiled regex in ``CompiledSchema/patterns``.
    var patternKey: String? { regex.map { Self.patternKey($0, unicode: unicode) } }

    /// The key of a compiled regex: one compiled pattern per source and class setting, shared by every field.
    static func patternKey(_ source: String, unicode: Bool) -> String { (unicode ? "u:" : "a:") + source }

    /// What the regex says of text still being typed (DCEForms' `checkInput(_:at:given:)`): valid when it matches,
    /// incomplete while more characters can still make it match, invalid when none can. `patterns` holds the
    /// schema's compiled regexes by ``patternKey``.
    func judgeRegex(partial text: String, patterns: [String: CompiledPattern]) -> InputVerdict {
        guard let key = patternKey, let pattern = patterns[key] else { return .valid }
        switch pattern.matchPrefix(text) {
        case .match: return .valid
        case .partial: return .incomplete
        case .noMatch where text.isEmpty: return .incomplete  // PCRE2 reports no partial match for ""
        case .noMatch: return .invalid(.regex)
        case .limitExceeded: return .invalid(.regexLimit)
        }
    }

    /// The entry in JSON Schema: its lengths and its regex as `pattern`.
    package var jsonSchema: SchemaValue {
        .object(lengths.jsonSchema + (regex.map { [.init(key: "pattern", value: .string($0))] } ?? []))
    }
}

/// What validation runs of a ``Validation``: its lengths and its compiled regex.
struct StringCheck: Sendable {
    let lengths: Lengths
    let pattern: CompiledPattern?

    init(_ validation: Validation, pattern: CompiledPattern?) {
        lengths = validation.lengths
        self.pattern = pattern
    }

    /// The rules a string breaks: its length in code points, then its bytes against the regex (`scratch` is match
    /// data, needed when there is a regex; a match over its limits breaks `regexLimit`).
    @inline(__always)
    func check(_ bytes: Span<UInt8>, length: Int, scratch: MatchScratch?) -> Broken {
        var broken: Broken = []
        if lengths.isBelow(length) { broken.insert(.minLength) }
        if lengths.isAbove(length) { broken.insert(.maxLength) }
        guard let pattern, let scratch else { return broken }
        switch pattern.match(bytes, knownValidUTF8: true, scratch: scratch) {
        case .match: break
        case .noMatch: broken.insert(.regex)
        case .limitExceeded, .error(_): broken.insert(.regexLimit)
        }
        return broken
    }

    /// The rules of a check a string breaks, as bits: a plain value, so that a string that passes costs nothing.
    struct Broken: OptionSet {
        let rawValue: UInt8
        static let minLength = Broken(rawValue: 1)
        static let maxLength = Broken(rawValue: 2)
        static let regex = Broken(rawValue: 4)
        static let regexLimit = Broken(rawValue: 8)

        /// Calls `body` with each rule, in the order validation reports them.
        func forEachRule(_ body: (ViolationCode) -> Void) {
            if contains(.minLength) { body(.minLength) }
            if contains(.maxLength) { body(.maxLength) }
            if contains(.regex) { body(.regex) }
            if contains(.regexLimit) { body(.regexLimit) }
        }
    }
}
