internal import DCEPattern

/// One run of a compiled schema over one request: walks the value tree once and collects every violation.
///
/// The walk builds no string: member names are matched on their bytes, strings are checked on their UTF-8 bytes, and
/// a violation is recorded as a ``Finding`` (rule, field, node, attribute set, path tokens). When the walk is done,
/// ``recordViolations(sorted:)`` keeps each finding as data in the report, with its JSON Pointer, line and column; its
/// message is written when it is read (a verdict keeps none, and stops at the first finding). The evaluation reads the
/// schema as the records of its ``RuleProgram``. The ``EvaluationPlan`` methods make one: `evaluate` (a report, or a
/// draft's with the rules at one value), `holds` (a verdict), `evaluateForm`, `tenderTypesInForce` and
/// `check(_:against:)`.
struct Evaluation: ConditionReader {
    /// The attributes in force for a value: a record of the program's table, or of a set computed for this value.
    typealias Attributes = AttributeSet.Record

    let document: JSONDocument
    /// What every evaluation of the prepared schema shares. Read off the hot path only (what the walk reads at every
    /// field, such as ``provisioning``, is copied here), so that holding it costs no reference count per value.
    let plan: EvaluationPlan
    /// Whether fields marked `ignoreForProvisioning` are skipped (the plan's).
    let provisioning: Bool
    /// The schema's rules.
    let tables: RuleProgram.Tables
    /// The code lists and card brands of the schema.
    let reference: ReferenceData
    /// Whether `Boolean` fields also accept 0 and 1 (the schema's setting).
    let numericBooleans: Bool
    /// Whether violations carry line and column (not for requests encoded from Swift values).
    let positions: Bool
    /// The current month (`year × 12 + month − 1`, UTC) for date-dependent formats; 0 when the schema has none.
    let month: Int
    /// Whether the walk is outside every selected field (only while a subset is set).
    var selecting = false
    /// The tender type a field above binds for its value (``withBindings(of:value:_:)``), as its place among the
    /// schema's tender types; -1 when none does and the plan's holds. (An index, not a string: a string stored in
    /// the evaluation made every payload about 5 % slower to check.)
    var boundTenderType = -1
    /// The tender type in force.
    var tenderType: String? { boundTenderType < 0 ? plan.tenderType : plan.schema.tenderTypes[boundTenderType] }
    /// The last pointer from the root a condition followed (its tokens), and where it led.
    var lastResolved: (tokens: Range<Int>?, value: JSONDocument.Index?) = (nil, nil)
    /// The last string node whose card brand was found, and the brand's place in the reference data (-1: none).
    var lastCardBrand: (node: JSONDocument.Index, brand: Int) = (-1, -1)
    /// Whether the document is one line of ASCII (see ``position(of:)``), once known.
    var singleLineASCII: Bool?
    /// The last position ``position(of:)`` found, where the next search starts when it lies further on.
    var located = SourcePosition(line: 1, column: 1, offset: 0)
    /// Attribute sets computed while walking (for a field with more overrides than are computed ahead) that a
    /// finding refers to.
    var computedSets: [AttributeSet] = []
    /// The most violations kept (the plan's; one for a verdict); past it they are counted in ``omitted``.
    let maxErrors: Int
    /// Whether only the verdict is asked (``EvaluationPlan/holds(_:month:)``): the walk stops at the first violation
    /// and no text is written.
    let verdictOnly: Bool
    /// Whether a verdict is asked and a violation was found: nothing more needs walking.
    var decided: Bool { verdictOnly && (omitted > 0 || !work.findings.isEmpty) }
    /// Violations found past ``maxErrors``, counted instead of recorded.
    var omitted = 0
    /// The value whose rules in force are asked for (``Recorder/probed``), or -1: validation of a form's draft while a
    /// field is typed asks this walk, so that the rules it applies there are exactly the rules a whole payload gets.
    let probe: JSONDocument.Index
    /// What the walk records beside its violations when asked (the rules at ``probe``, the tender types it binds);
    /// `nil` for a plain validation, which then carries one word for it (held inline, the record made every
    /// evaluation larger to set up and tear down: a valid card-create payload 820 → 803 ns without it,
    /// `dce-benchmark parsed`, medians of four interleaved runs).
    let recorder: Recorder?

    /// What a walk records for the callers that ask: the draft check and what is sent.
    final class Recorder {
        /// The rules in force at the probed value when the walk reached it; `nil` when it did not (a field ignored
        /// for provisioning is never reached).
        var probed: RulesInForce?
        /// Whether the walk records the tender type in force inside every value whose field binds one (``scopes``).
        let recordsScopes: Bool
        /// When ``recordsScopes``: the tender type in force inside each present value whose field binds contexts, by
        /// the value's node; what the payload sent and the update check read, so that they follow the tender type
        /// validation follows.
        var scopes: [JSONDocument.Index: String?] = [:]
        /// Whether the walk records the rules in force at every member it meets (``fields``): what a form shows now.
        let recordsFields: Bool
        /// When ``recordsFields``: the rules in force at each member of each present object the walk checked, present
        /// or missing, by the member's JSON Pointer (list items by index).
        var fields: [String: RulesInForce] = [:]
        /// When ``recordsFields``: the members the walk skipped as ignored for provisioning, by JSON Pointer.
        var ignored: Set<String> = []
        /// When ``recordsFields``: each test of a value's content (not only whether it is there) by a condition, and
        /// each member a binding read, as read. A value whose tests all answer the same can change without changing
        /// what holds anywhere else: what lets a form check again only the value typed
        /// (``EvaluationPlan/recheckForm(_:changedAt:month:after:)``).
        var reads: [ValueRead] = []

        init(recordsScopes: Bool, recordsFields: Bool = false) {
            self.recordsScopes = recordsScopes
            self.recordsFields = recordsFields
        }
    }
    /// The path and container stacks and other working storage: the thread's, swapped in while the evaluation runs
    /// (``withDocument(_:finish:)``; see ``EvaluationScratch``).
    var work = EvaluationScratch(reserving: false)
    /// Whether ``work`` is the thread's, to be swapped back.
    private var borrowed = false

    /// A step of the path: a member (by its name's node in the document), an array element, or a field that is
    /// missing (by its place in the program; only pushed to report it).
    enum PathToken {
        case member(JSONDocument.Index)
        case index(Int)
        case missing(Int)
    }

    init(
        document: JSONDocument, plan: EvaluationPlan, positions: Bool, month: Int,
        probe: JSONDocument.Index = -1, recorder: Recorder? = nil, verdictOnly: Bool = false
    ) {
        self.recorder = recorder
        self.verdictOnly = verdictOnly
        self.document = document
        self.probe = probe
        self.plan = plan
        self.tables = plan.schema.program.tables
        self.reference = plan.schema.reference
        self.provisioning = plan.provisioning
        self.numericBooleans = plan.schema.numericBooleans
        self.positions = positions
        self.month = month
        self.maxErrors = verdictOnly ? 1 : plan.maxErrors
    }

    /// Runs `body` with the thread's working storage, then `finish` with the context values in force (supplied or
    /// derived) before the storage goes back to the thread.
    mutating func withDocument<Result>(_ body: (inout Evaluation) -> Void, finish: ([String?]) -> Result)
        -> Result
    {
        precondition(!borrowed, "an evaluation walks one document at a time")
        borrowed = EvaluationScratch.perThread.exchange(&work)
        if !borrowed { work = EvaluationScratch() }  // the thread's is in use by an evaluation this one runs inside
        // One by one: `append(contentsOf:)` of a schema's one or two slots cost a valid payload about 200 instructions.
        for value in plan.context { work.context.append(value) }
        body(&self)
        let result = finish(work.context)
        if borrowed {
            work.empty()
            EvaluationScratch.perThread.giveBack(&work)
            borrowed = false
        }
        return result
    }

    mutating func evaluate() {
        deriveContexts()
        let root = document.root
        if plan.hasSubset {
            selecting = true
            walkThrough(root, of: 0)
        } else {
            checkValue(root, of: 0, attributes: attributes(tables.fields[0].base))
        }
    }

    /// Checks one value against a field's base rules with the plan's tender type's entries on top, and no other
    /// override: a field's `defaultValue`, which applies whatever else the request holds.
    mutating func check(_ value: JSONDocument.Index, of field: Int) {
        let object = tables.fieldObjects[field]
        let entries = object.overrides.map { $0.tenderType != nil && $0.tenderType == tenderType }
        guard entries.contains(true) else {
            return checkValue(value, of: field, attributes: attributes(tables.fields[field].base))
        }
        let set = AttributeSet(object.rules(holding: { entries[$0] }), patterns: plan.schema.patterns)
        withComputed(set) { $0.checkValue(value, of: field, attributes: $1) }
    }

    /// Walks an object or array that encloses selected fields without checking it: only what is selected inside
    /// it is checked (and missing selected fields are reported), so one step of a form can be validated alone.
    mutating func walkThrough(_ value: JSONDocument.Index, of field: Int) {
        guard let subset = plan.subset else { return }
        let record = tables.fields[field]
        switch (document.kind(of: value), record.dataType) {
        case (.object, .object):
            work.containers.append(value)
            checkObject(value, of: field)
            work.containers.removeLast()
        case (.array, .array):
            let items = record.items
            guard items >= 0 else { return }
            let id = ObjectIdentifier(tables.fieldObjects[items])
            guard subset.selected.contains(id) || subset.enclosing.contains(id) else { return }
            work.containers.append(value)
            for (offset, element) in document.elements(of: value).enumerated() {
                work.path.append(.index(offset))
                withBindingsIfAny(of: items, value: element) {
                    if subset.selected.contains(id) {
                        $0.selecting = false
                        $0.withAttributes(of: items) { $0.checkValue(element, of: items, attributes: $1) }
                        $0.selecting = true
                    } else {
                        $0.walkThrough(element, of: items)
                    }
                }
                work.path.removeLast()
            }
            work.containers.removeLast()
        default:
            break
        }
    }

    /// Fills every context the caller left empty from the first of its `derive` rules that holds.
    mutating func deriveContexts() {
        guard tables.derive.count > 0 else { return }
        work.containers.append(document.root)
        defer { work.containers.removeAll(keepingCapacity: true) }
        let tables = tables
        tables.deriveContexts(reading: &self)
    }
}

extension EvaluationPlan {
    /// Checks a whole request: its violations (at most ``maxErrors``), how many more were found, and what `finish`
    /// makes of the context values in force (supplied or derived).
    ///
    /// One of the places an ``Evaluation`` is made.
    func evaluate<Context>(
        _ document: JSONDocument, positions: Bool, month: Int, finish: ([String?]) -> Context
    ) -> (violations: ViolationList, omitted: Int, context: Context) {
        var evaluation = Evaluation(document: document, plan: self, positions: positions, month: month)
        var found: FoundViolations?
        let context = evaluation.withDocument(
            {
                $0.evaluate()
                found = $0.recordViolations()
            }, finish: finish)
        return (found.map(ViolationList.init(found:)) ?? [], evaluation.omitted, context)
    }

    /// Whether a whole request breaks no rule: the walk of ``evaluate(_:positions:month:finish:)`` stopped at the
    /// first violation, no message, pointer or report written. What a Submit button and a gateway's admission ask;
    /// one of the places an ``Evaluation`` is made.
    func holds(_ document: JSONDocument, month: Int) -> Bool {
        var evaluation = Evaluation(
            document: document, plan: self, positions: false, month: month, verdictOnly: true)
        var valid = false
        evaluation.withDocument(
            {
                $0.evaluate()
                valid = !$0.decided
            }, finish: { _ in })
        return valid
    }

    /// Checks a whole request as ``evaluate(_:positions:month:finish:)`` does, keeping every violation, and says
    /// which rules held at one of its values (`nil` when the walk did not reach it). What a form's draft is checked
    /// with while a field is typed; one of the places an ``Evaluation`` is made.
    package func evaluate(_ document: JSONDocument, probing node: JSONDocument.Index, month: Int)
        -> (violations: [Violation], probed: RulesInForce?)
    {
        let recorder = Evaluation.Recorder(recordsScopes: false)
        var evaluation = Evaluation(
            document: document, plan: self, positions: false, month: month, probe: node,
            recorder: recorder)
        var violations: [Violation] = []
        evaluation.withDocument(
            {
                $0.evaluate()
                violations = $0.writtenViolations()
            }, finish: { _ in })
        return (violations, recorder.probed)
    }

    /// Checks a whole request as ``evaluate(_:probing:month:)`` does, and records the rules in force at every member
    /// of every present object, present or missing, and which members it skipped as ignored for provisioning: what a
    /// form shows of each field for the draft as it stands (DCEForms' `FormSession`). One of the places an
    /// ``Evaluation`` is made.
    func evaluateForm(_ document: JSONDocument, month: Int) -> FormFindings {
        let recorder = Evaluation.Recorder(recordsScopes: false, recordsFields: true)
        var evaluation = Evaluation(
            document: document, plan: self, positions: false, month: month, recorder: recorder)
        var found: (violations: [Violation], sources: [MessageSource?]) = ([], [])
        evaluation.withDocument(
            {
                $0.evaluate()
                found = $0.formViolations(reusing: [], sources: [])
            }, finish: { _ in })
        return FormFindings(
            document: document, month: month, violations: found.violations, sources: found.sources,
            fields: recorder.fields, ignored: recorder.ignored, reads: recorder.reads)
    }

    /// The tender type in force inside each present value of a request whose field binds contexts, as validation's
    /// walk binds it (a fixed value, a member, or a `derive` rule): what the payload sent (defaults) and the update
    /// check follow. A value the walk does not reach (ignored for provisioning) has none.
    func tenderTypesInForce(in document: JSONDocument) -> [JSONDocument.Index: String?] {
        guard schema.hasBindings else { return [:] }
        let recorder = Evaluation.Recorder(recordsScopes: true)
        var evaluation = Evaluation(
            document: document, plan: self, positions: false, month: 0, recorder: recorder)
        evaluation.withDocument({ $0.evaluate() }, finish: { _ in })
        return recorder.scopes
    }

    /// Checks one value against a field's base rules alone (a field's `defaultValue`); one of the places an
    /// ``Evaluation`` is made.
    func check(_ document: JSONDocument, against field: CompiledField) -> [Violation] {
        guard let id = schema.program.id(of: field) else { return [] }
        var evaluation = Evaluation(document: document, plan: self, positions: false, month: 0)
        var violations: [Violation] = []
        evaluation.withDocument(
            {
                $0.check(document.root, of: id)
                violations = $0.writtenViolations()
            }, finish: { _ in })
        return violations
    }
}
