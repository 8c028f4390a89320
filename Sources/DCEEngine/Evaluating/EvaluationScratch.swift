internal import DCEPattern

/// The working storage of an evaluation: the path and container stacks, the findings and
/// the regex match data.
///
/// Creating it costs three allocations (its stacks' room) and freeing it as many, which for a small valid payload was a quarter of the
/// evaluation; so each thread keeps one and its evaluations borrow it by pointer (``perThread``). An evaluation that
/// starts while another on the same thread holds it (one run inside another) gets storage of its own.
struct EvaluationScratch {
    /// The objects and arrays enclosing the value being checked, innermost last.
    var containers: [JSONDocument.Index] = []
    /// The pointer tokens of the value being checked.
    var path: [Evaluation.PathToken] = []
    /// What the walk found, in order, before it is written as violations.
    var findings: [Finding] = []
    /// The path tokens of every finding, end to end.
    var pathArena: [Evaluation.PathToken] = []
    /// What the object rules found (``ObjectRuleKind``), by the place a finding's detail gives
    /// (``Finding/objectRule(_:)``): each rule words its own findings.
    var ruleFindings: [ObjectRuleHit] = []
    /// The findings as the report keeps them, before they are copied into it (``Evaluation/recordViolations(sorted:)``).
    var records: [FoundViolation] = []
    /// The JSON Pointers and keys of ``records``, end to end.
    var text: [UInt8] = []
    /// The values of the members of the object whose object rules are asked (``Evaluation/checkObjectRules(_:of:found:)``).
    var objectMembers: [JSONDocument.Index] = []
    /// The string checks of attribute sets computed while walking (``AttributeSet/Record/checksInWalk``).
    var computedChecks: [StringCheck] = []
    /// Context values by slot: the prepared schema's, then derived ones (see ``Evaluation/deriveContexts()``).
    var context: [String?] = []
    /// Match data for regex matches, created on first use.
    var match: MatchScratch?

    /// Empty storage, with room for a typical payload's stacks unless `reserving` is `false` (storage that is
    /// swapped for the thread's before it is used, ``Evaluation/work``, allocates nothing).
    init(reserving: Bool = true) {
        guard reserving else { return }
        containers.reserveCapacity(16)
        path.reserveCapacity(16)
    }

    /// Each thread's storage, lent to its evaluations in turn.
    static let perThread = ThreadLocalStore { EvaluationScratch() }

    /// Empties the arrays, keeping their room; only those that hold something: emptying an empty array still goes
    /// through the general replace path, and a verdict, or a valid payload, leaves most of them empty.
    mutating func empty() {
        Self.empty(&containers)
        Self.empty(&path)
        Self.empty(&findings)
        Self.empty(&pathArena)
        Self.empty(&ruleFindings)
        Self.empty(&records)
        Self.empty(&text)
        Self.empty(&context)
        Self.empty(&objectMembers)
        Self.empty(&computedChecks)
    }

    @inline(__always)
    private static func empty<Element>(_ array: inout [Element]) {
        if !array.isEmpty { array.removeAll(keepingCapacity: true) }
    }
}

/// What an object rule found: the object's field, the rule's place among its `objectRules`, and the rule's finding
/// (the member, by its place among the object's fields, and the rule's detail).
struct ObjectRuleHit {
    let field: Int
    let rule: Int
    let member: Int
    let detail: Int
}

/// A violation as the walk finds it: which rule, of which field, at which node of the document, with which attribute
/// set and detail. It is kept in the report once the walk is done, with its JSON Pointer, line and column
/// (``Evaluation/recordViolations(sorted:)``), so that the walk itself builds no string.
///
/// Plain values only (the rule by its place in ``ViolationCode/catalogue``), so that recording, copying and clearing
/// findings touches no reference count.
struct Finding {
    /// The rule's place in ``ViolationCode/catalogue`` (every rule the walk finds is one of the engine's own).
    let ruleOrdinal: Int
    /// The field (a place in the program's tables): the one broken, or for a member no field describes, the object's.
    let field: Int
    /// The value broken; for a missing field, its object; for a member's name, the name.
    let node: JSONDocument.Index
    /// The attribute set in force: a place in the program's tables (≥ 0), a set computed for this value
    /// (-1 - its place among the evaluation's computed sets), or ``noAttributes``.
    let attributes: Int
    /// For a failed string check, which check (see `Evaluation.StringFailure`); else ``nullValue``,
    /// ``unknownMember`` or 0.
    let detail: Int
    /// The tokens of the finding's path in the evaluation's path arena.
    let path: Range<Int>

    /// The rule broken.
    var rule: ViolationCode { ViolationCode.catalogue[ruleOrdinal].code }

    static let noAttributes = Int.min
    /// A required field given as `null`.
    static let nullValue = -100
    /// A member no field describes (its key is the member's name).
    static let unknownMember = -101
    /// What an object rule found (``ObjectRuleKind``): its place in ``EvaluationScratch/ruleFindings``, below this value.
    private static let objectRuleBase = -1_000_000

    static func objectRule(_ place: Int) -> Int { objectRuleBase - place }

    /// The place in ``EvaluationScratch/ruleFindings`` of an object rule's finding; `nil` for any other detail.
    static func objectRule(_ detail: Int) -> Int? { detail <= objectRuleBase ? objectRuleBase - detail : nil }
}
