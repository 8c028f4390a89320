/// One violation as data, as validation leaves it in a report: the rule, the field, the attribute set and the check
/// broken (places in the program's tables), what the message says of the value (a count, a kind, a card brand), the
/// line and column, and where its JSON Pointer and key lie in the report's text. Its message is written only when it
/// is read (``FoundViolations/violation(at:)``) or written into a report.
///
/// Integers only, so that a report's violations are one flat buffer, copied and freed without a reference count. Of
/// the payload it keeps member names (in pointers and keys) and never a value: a report may outlive the payload and
/// be kept, logged or sent whatever the fields held.
struct FoundViolation: BitwiseCopyable {
    /// The rule's place in ``ViolationCode/catalogue``.
    var ruleOrdinal: Int
    /// The field (a place in the program's tables).
    var field: Int
    /// The attribute set in force: a place in the program's tables (≥ 0), a set computed for the value
    /// (-1 - its place among ``FoundViolationsHeader/computedSets``), or ``Finding/noAttributes``.
    var attributes: Int
    /// As ``Finding/detail``: which string check failed, ``Finding/nullValue``, ``Finding/unknownMember``, or for an
    /// object rule's finding the detail that rule gave.
    var detail: Int
    /// The JSON Pointer's bytes in the text (``pointer``).
    var pointerStart: Int
    var pointerEnd: Int
    /// The key's bytes in the text (``key``).
    var keyStart: Int
    var keyEnd: Int
    /// The 1-based line and column of the value; 0 when not known.
    var line: Int
    var column: Int
    /// What the message says of the value: for `type`, the kind of value found (``JSONDocument/Kind`` raw value); for
    /// `minItems` and `maxItems`, the number of items; for a failed string check, its length in code points (-1 when
    /// the field is sensitive, whose length is not shown); otherwise 0.
    var measure: Int
    /// For `format`: the card brand the value's digits show, as a place in the reference data; -1 when none.
    var brand: Int
    /// The value's fingerprint's place in ``FoundViolationsHeader/fingerprints``; -1 when none.
    var fingerprint: Int
    /// For an object rule's finding (``isObjectRule``): the object's field and the rule's place among its
    /// `objectRules`, and the member the rule found (its place among the object's fields).
    var objectField: Int
    var objectRule: Int
    var objectMember: Int

    /// The JSON Pointer's bytes in the text. (Kept as two integers: `Range` is not `BitwiseCopyable`.)
    var pointer: Range<Int> { pointerStart..<pointerEnd }
    /// The key's bytes in the text, for a member no field describes (``keyIsMemberName``); otherwise empty, and the key
    /// is the field's.
    var key: Range<Int> { keyStart..<keyEnd }

    /// Whether an object rule (``ObjectRuleKind``) found this, and words it.
    var isObjectRule: Bool { objectRule >= 0 }

    /// Whether the key is a member's name, in ``key`` (a member no field describes, whose ``field`` is its object's),
    /// rather than the field's: told by the finding, not by the name, which may be empty.
    var keyIsMemberName: Bool { !isObjectRule && detail == Finding.unknownMember }

    /// The rule broken.
    var rule: ViolationCode { ViolationCode.catalogue[ruleOrdinal].code }
}

extension RuleProgram.Tables {
    /// The attribute set a finding's or record's `attributes` names: a set of the program (≥ 0), one of `computed`
    /// (-1 - its place), or none (``Finding/noAttributes``).
    func attributeSet(_ place: Int, computed: [AttributeSet]) -> AttributeSet? {
        place == Finding.noAttributes ? nil : place >= 0 ? attributeObjects[place] : computed[-place - 1]
    }

    /// The formats a failed `format` check of a field asked for: the one its data type implies
    /// (`StringFailure.impliedFormat`), or the attribute set's.
    func checkedFormats(detail: Int, field: Int, set: AttributeSet) -> [Format] {
        guard detail == Evaluation.StringFailure.impliedFormat else { return set.formats }
        return fields[field].dataType.impliedFormat.map { [$0] } ?? []
    }
}

/// What every violation of one report shares: the plan that found them (its program, messages and reference data
/// word them), the attribute sets computed for the walk, the values' fingerprints, and where the text starts.
struct FoundViolationsHeader {
    let plan: EvaluationPlan
    let computedSets: [AttributeSet]
    let fingerprints: [String]
}

/// The violations one validation found, in report order (by JSON Pointer, then rule), as one allocation: the
/// ``FoundViolation`` records, then the bytes of their pointers and keys. What ``ViolationList`` reads; an element's
/// text is written each time it is read.
///
/// Never changed once made, so it is shared between tasks freely (``ViolationList`` says so for it: no subclass of
/// `ManagedBuffer` may be `Sendable`).
typealias FoundViolations = RecordsAndText<FoundViolationsHeader, FoundViolation>

extension RecordsAndText where Header == FoundViolationsHeader, Record == FoundViolation {
    /// Copies records and their text into a new buffer.
    static func make(
        plan: EvaluationPlan, records: Span<FoundViolation>, text: Span<UInt8>, computedSets: [AttributeSet],
        fingerprints: [String]
    ) -> FoundViolations {
        make(
            header: FoundViolationsHeader(plan: plan, computedSets: computedSets, fingerprints: fingerprints),
            records: records, text: text)
    }

    /// The violation at `index`, its message written now in the plan's language.
    func violation(at index: Int) -> Violation {
        withWriter { $0.violation(at: index) }
    }

    /// Runs `body` with a writer over these violations.
    func withWriter<Result>(_ body: (ViolationWriter) -> Result) -> Result {
        // Read once: each read of a member of the header copies it, with a reference count for each of its parts.
        let header = shared
        return body(
            ViolationWriter(
                plan: header.plan, messages: header.plan.messages, tables: header.plan.schema.program.tables,
                found: self, computedSets: header.computedSets, fingerprints: header.fingerprints))
    }
}
