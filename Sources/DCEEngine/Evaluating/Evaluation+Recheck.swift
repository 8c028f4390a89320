/// What a form's walk found in its draft (``EvaluationPlan/evaluateForm(_:month:)``): what DCEForms' `FormSession`
/// shows, and what lets a keystroke check again only what it can change
/// (``EvaluationPlan/recheckForm(_:changedAt:month:after:)``).
package struct FormFindings: Sendable {
    /// The draft walked.
    var document: JSONDocument
    /// The month the dates were checked in (``Evaluation/month``).
    let month: Int
    /// Every violation, in the order the walk found them, each written out.
    package var violations: [Violation]
    /// What each violation's message was written from (``MessageSource``), in the same order; `nil` for one that
    /// cannot be told again.
    var sources: [MessageSource?]
    /// The rules in force at each member of each present object the walk checked, present or missing, by the
    /// member's JSON Pointer (list items by index).
    package var fields: [String: RulesInForce]
    /// The members skipped as ignored for provisioning, by JSON Pointer.
    package var ignored: Set<String>
    /// Each test of a value's content by a condition, and each member a binding read, in ``document``.
    let reads: [ValueRead]
    /// After a recheck: the JSON Pointer of what was walked again (the value typed, or its object when the object has
    /// rules that judge its members together), so that what shows the draft works out again only what is inside it.
    /// `nil` after a whole walk.
    package var rechecked: String?
}

/// A test of a value's content as a form's walk made it (``Evaluation/Recorder/reads``).
struct ValueRead: Sendable {
    /// The value.
    var node: JSONDocument.Index
    /// The test, by its place in the program's tables; -1 for a binding's read of a member.
    var test: Int
    /// What the test answered.
    var held: Bool
}

extension EvaluationPlan {
    /// The draft's findings after one scalar value changed into another scalar value, `last` being the findings
    /// before, made by walking again only what the change can change; `nil` when that cannot be told apart from the
    /// rest, and the draft must be walked whole (``evaluateForm(_:month:)``). One of the places an ``Evaluation`` is
    /// made.
    ///
    /// What is walked again (the *unit*) is the value, or the object holding it when the object has rules that judge
    /// its members together (a postal code and its country): its violations take the place of the unit's old ones,
    /// and the rules in force everywhere stay what they were. That is the whole walk's answer when nothing else can
    /// change:
    /// - the month is the same (a date's check follows it);
    /// - the draft has the same shape: the value was there before, as a scalar at the same node, and no value was
    ///   added or removed;
    /// - every test a condition made of the value answers the same for the new value, and no binding read it, nor
    ///   any condition the content of an object or list holding it (a condition that answers otherwise could change
    ///   the rules anywhere: a card number's brand decides its security code's length);
    /// - no object or list above the unit judges what it holds together: object rules, options;
    /// - the unit's violations are found where its old ones were (when it had none and others were found, the walk's
    ///   order cannot be told without walking), and no member is given twice.
    /// `last` is taken, not copied: what stays of it is changed in place.
    func recheckForm(
        _ document: JSONDocument, changedAt tokens: [String], month: Int, after last: consuming FormFindings
    ) -> FormFindings? {
        guard !hasSubset, maxErrors == .max, !tokens.isEmpty, month == last.month,
            document.nodes.count == last.document.nodes.count,
            !last.violations.contains(where: { $0.rule == .duplicateKey })
        else { return nil }
        // No recorder: the rules in force at every member, and the members skipped, are what they were (every
        // condition answers as before and no binding read the value), and so are the tests the conditions made.
        var evaluation = Evaluation(document: document, plan: self, positions: false, month: month)
        var walked: Evaluation.Rechecked?
        evaluation.withDocument({ walked = $0.recheck(tokens, after: last) }, finish: { _ in })
        guard let walked else { return nil }
        // The unit had none: where the walk finds new ones among the others is not known without walking.
        guard !walked.block.isEmpty || walked.violations.isEmpty || last.violations.isEmpty else { return nil }
        var findings = last
        findings.document = document
        findings.violations.replaceSubrange(walked.block, with: walked.violations)
        findings.sources.replaceSubrange(walked.block, with: walked.sources)
        findings.rechecked = walked.unit
        return findings
    }

    /// Where the violations at or inside `unit` are among `violations`: together, an empty range when there are none;
    /// `nil` when they are not together.
    static func block(of unit: String, in violations: [Violation]) -> Range<Int>? {
        let inside = unit + "/"
        let isInUnit = { (violation: Violation) in violation.path == unit || violation.path.hasPrefix(inside) }
        guard let first = violations.firstIndex(where: isInUnit) else { return 0..<0 }
        let end = violations[first...].firstIndex { !isInUnit($0) } ?? violations.endIndex
        guard !violations[end...].contains(where: isInUnit) else { return nil }
        return first..<end
    }
}

/// What a violation's message is written from besides its JSON Pointer, as a walk found it: the same again at the same
/// pointer, under the same plan, is the same message, so that a keystroke writes only the messages that change.
struct MessageSource: Equatable, Sendable {
    var rule: Int
    var field: Int
    var attributes: Int
    var detail: Int
    var measure: Int
    var brand: Int
    var objectField: Int
    var objectRule: Int
    var objectMember: Int

    /// `nil` for a finding whose attributes were computed for its value alone (they are not kept).
    init?(_ record: FoundViolation) {
        guard record.attributes >= 0 || record.attributes == Finding.noAttributes, record.fingerprint < 0 else {
            return nil
        }
        (rule, field, attributes, detail) = (record.ruleOrdinal, record.field, record.attributes, record.detail)
        (measure, brand) = (record.measure, record.brand)
        (objectField, objectRule, objectMember) = (record.objectField, record.objectRule, record.objectMember)
    }
}

extension Evaluation {
    /// One step of the way from the root to a changed value.
    private struct Step {
        /// The field of the value reached.
        var field: Int
        /// The value reached.
        var node: JSONDocument.Index
        /// The object or list holding it.
        var container: JSONDocument.Index
        /// Its token on the walk's path.
        var token: PathToken
    }

    /// What walking a unit again found (``recheck(_:after:)``).
    struct Rechecked {
        /// The unit's JSON Pointer.
        var unit: String
        /// Where the unit's old violations are in the last findings.
        var block: Range<Int>
        /// Its violations now, in the order found, and what each message was written from.
        var violations: [Violation]
        var sources: [MessageSource?]
    }

    /// Walks again the unit of a change at `tokens` (``EvaluationPlan/recheckForm(_:changedAt:month:after:)``): what it
    /// found; `nil` when the change cannot be checked alone.
    mutating func recheck(_ tokens: [String], after last: FormFindings) -> Rechecked? {
        guard let steps = steps(to: tokens), let value = steps.last?.node,
            last.document.value(at: tokens) == value,
            Self.isScalar(document.nodes[value].kind), Self.isScalar(last.document.nodes[value].kind)
        else { return nil }
        for read in last.reads where read.node <= value && value < last.document.next(after: read.node) {
            guard read.node == value, read.test >= 0, holds(read.test, for: value) == read.held else { return nil }
        }
        // The unit: the value, or its object when the object judges its members together (never the root: object
        // rules anywhere above the unit, the root's among them, judge what it holds whole).
        let holder = steps.count >= 2 ? steps[steps.count - 2].field : 0
        let judged = tables.fields[holder].dataType == .object && tables.fields[holder].hasObjectRules
        let unit = judged ? steps.count - 2 : steps.count - 1
        guard !tables.fields[0].hasObjectRules,
            !steps[..<unit].contains(where: { tables.fields[$0.field].hasObjectRules })
        else { return nil }
        let pointer = tokens[...unit].reduce("") { JSONPointer.appending($1, to: $0) }
        guard let block = EvaluationPlan.block(of: pointer, in: last.violations) else { return nil }
        deriveContexts()
        work.containers.append(document.root)
        var checked = false
        descend(steps[...], unit: unit) { evaluation in
            checked = true
            evaluation.check(steps[unit])
        }
        guard checked, !decided else { return nil }
        let (violations, sources) = formViolations(
            reusing: last.violations[block], sources: last.sources[block])
        return Rechecked(unit: pointer, block: block, violations: violations, sources: sources)
    }

    /// Goes down `steps` as the walk goes (bindings in force, a field skipped for provisioning not entered, the path
    /// and containers kept), and runs `body` at step `unit`; it is not run when the way holds what cannot be checked
    /// apart (options on an object or list above the unit) or was not walked.
    private mutating func descend(
        _ steps: ArraySlice<Step>, unit: Int, _ body: (inout Evaluation) -> Void
    ) {
        guard let step = steps.first else { return }
        if steps.startIndex == unit { return body(&self) }
        withBindingsIfAny(of: step.field, value: step.node) { evaluation in
            if case .member = step.token, evaluation.provisioning, evaluation.ignoredForProvisioning(step.field) {
                return
            }
            evaluation.withAttributes(of: step.field) { evaluation, attributes in
                guard !attributes.mustBeAbsent, !attributes.hasEnum else { return }
                evaluation.work.path.append(step.token)
                evaluation.work.containers.append(step.node)
                evaluation.descend(steps.dropFirst(), unit: unit, body)
                evaluation.work.containers.removeLast()
                evaluation.work.path.removeLast()
            }
        }
    }

    /// Checks the value a step reaches as the walk checks it in its object or list.
    private mutating func check(_ step: Step) {
        switch step.token {
        case .member:
            checkMember(step.field, value: step.node, in: step.container)
        case .index:
            work.path.append(step.token)
            if tables.fields[step.field].hasBindings {
                checkBindingItem(step.node, of: step.field)
            } else {
                withAttributes(of: step.field) { $0.checkValue(step.node, of: step.field, attributes: $1) }
            }
            work.path.removeLast()
        case .missing:
            break
        }
    }

    /// The way from the root to the value at `tokens`: each step's field and value; `nil` when a token names no field
    /// or no value, or a list or object's options (an object's or list's `enum`) judge it whole.
    private func steps(to tokens: [String]) -> [Step]? {
        var steps: [Step] = []
        var field = 0
        var node = document.root
        for token in tokens {
            let record = tables.fields[field]
            switch document.nodes[node].kind {
            case .object:
                guard record.dataType == .object, let value = document.member(token, of: node),
                    let offset = lookUpKey(at: value - 1, in: record.keys)
                else { return nil }
                let child = tables.children[record.children.lowerBound + offset]
                steps.append(Step(field: child, node: value, container: node, token: .member(value - 1)))
                (field, node) = (child, value)
            case .array:
                guard record.dataType == .array, record.items >= 0, let index = Int(token),
                    let element = document.element(index, of: node)
                else { return nil }
                steps.append(Step(field: record.items, node: element, container: node, token: .index(index)))
                (field, node) = (record.items, element)
            default:
                return nil
            }
        }
        return steps
    }

    /// Whether a value is a string, a number or a literal: one node.
    private static func isScalar(_ kind: JSONDocument.Kind) -> Bool {
        switch kind {
        case .string, .number, .boolean: true
        default: false
        }
    }
}
