/// The contexts and tender type known at one place of a request that is not all known: the caller's, with what the
/// schema derives and the fields above bind. A fixed binding is known; one read from a member is the value from
/// outside while the member is not given, and open once it may be; one a `derive` rule reads from the request is
/// known only when the values it reads are given.
package struct KnownScope: Sendable, Equatable {
    package var slots: [KnownValue]
    package var tenderType: KnownValue
    /// The last tender type known on the way down, whose metadata (`dataGroup`, `order`, …) a form shows.
    package var shownTenderType: String?
    /// Slots (and the tender type, `nil`) bound from a member not given yet.
    package var open: Set<Int?> = []

    package init(slots: [KnownValue], tenderType: String?) {
        self.slots = slots
        self.tenderType = .known(tenderType)
        self.shownTenderType = tenderType
    }
}

/// Conditions read from values given as text, the one reader of the rules in force where a request is not all known:
/// a form before or while it is filled in (``CompiledSchema/fieldsInForce(context:tenderType:given:primitiveItems:)``),
/// a field as it is typed (DCEForms' `inputFeedback`), and a field's tender type where its value is missing.
///
/// A request value is known when it is given, or typed; an object is known to be present when a value inside it is
/// given or typed (present, not null, no string); anything else is not known, so a condition on it is undecided.
package struct GivenValuesReader: ScopeReader {
    let schema: CompiledSchema
    /// The contexts and tender type in force where the reader reads.
    package var scope: KnownScope
    /// Whether values bound from members not given are read as they stand (the value from outside: what a form shows
    /// before they are typed), or as open (unknown: what may change once they are).
    package var settled: Bool
    /// The objects a relative pointer climbs from, by their tokens from the root, the innermost first (`0/…`): while
    /// a field binds, its own object; while its overrides are read, the objects holding it.
    package var containers: [[String]]
    /// What fields hold, by their tokens.
    let given: [[String]: String]
    /// The field being typed, by its tokens, and its text (`nil`: a value that is not text, compared as unknown).
    let typed: (path: [String], text: String?)?
    /// Where the given values read are recorded, if anywhere.
    let reads: GivenReads?

    package init(
        schema: CompiledSchema, scope: KnownScope, settled: Bool = true, containers: [[String]] = [[]],
        given: [[String]: String] = [:], typed: (path: [String], text: String?)? = nil, reads: GivenReads? = nil
    ) {
        self.schema = schema
        self.scope = scope
        self.settled = settled
        self.containers = containers
        self.given = given
        self.typed = typed
        self.reads = reads
    }

    /// The objects holding a field at `tokens`, the innermost first: where its overrides' relative pointers climb from.
    package static func holders(of tokens: [String]) -> [[String]] {
        (0..<max(tokens.count, 1)).reversed().map { Array(tokens.prefix($0)) }
    }

    package func isEmpty(slot: Int) -> Bool { scope.slots[slot] == .known(nil) }

    package mutating func set(_ slot: Int?, to value: KnownValue) {
        if let slot {
            scope.slots[slot] = value
        } else {
            if case .known(let known?) = value { scope.shownTenderType = known }
            scope.tenderType = value
        }
        scope.open.remove(slot)
    }

    package mutating func markOpen(_ slot: Int?) { scope.open.insert(slot) }

    package func tenderTypeInForce() -> KnownValue {
        !settled && scope.open.contains(nil) ? .unknown : scope.tenderType
    }

    package func member(_ key: String, allowed: [String]?) -> MemberReading {
        guard let object = containers.first, let value = text(at: object + [key]) else { return .notKnown }
        guard let value else { return .notKnown }
        return allowed?.contains(value) ?? true ? .value(value) : .none
    }

    package func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool? {
        if !settled && scope.open.contains(slot) { return nil }
        return scope.slots[slot].passes(program.testObjects[test])
    }

    package func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? {
        tenderTypeInForce().passes(program.testObjects[test])
    }

    package func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool? {
        guard up < containers.count else { return nil }
        let target = (up < 0 ? [] : containers[up]) + Array(program.tokenTexts[tokens])
        let test = program.testObjects[test]
        if let value = text(at: target) { return test.holds(forGivenText: value) }
        guard holdsKnownValue(target) else { return nil }
        // An object that holds a given or typed value: present, not null, and no string.
        switch test.kind {
        case .present: return true
        case .absent, .null, .oneOfStrings, .matches, .cardBrand: return false
        case .equals, .oneOf: return nil
        }
    }

    /// The text at `tokens` when it is typed or given: `.some(nil)` for a typed value that is not text.
    private func text(at tokens: [String]) -> String?? {
        if let typed, typed.path == tokens { return .some(typed.text) }
        let value = given[tokens]
        reads?.record(tokens, value)
        return value.map { .some($0) }
    }

    /// Whether a value inside the one at `tokens` is typed or given.
    private func holdsKnownValue(_ tokens: [String]) -> Bool {
        if typed.map({ GivenReads.isInside($0.path, tokens) }) == true { return true }
        let holds = given.keys.contains { GivenReads.isInside($0, tokens) }
        reads?.recordHolding(tokens, holds)
        return holds
    }
}

/// The given values a working-out read, each with what it was (`nil`: not given), and the objects it asked whether
/// they hold a given value, each with the answer: what a form's description depends on beyond the context, so that a
/// form works it out again only when one of them changes
/// (``CompiledSchema/fieldsInForce(context:tenderType:given:primitiveItems:reads:)``). Used by one task at a time.
package final class GivenReads {
    /// Each value read, by its tokens.
    package private(set) var values: [[String]: String?] = [:]
    /// Each object asked of, by its tokens, and whether a given value was inside it.
    package private(set) var holders: [[String]: Bool] = [:]

    package init() {}

    /// Records a value read.
    package func record(_ tokens: [String], _ value: String?) { values[tokens] = .some(value) }

    /// Records whether a given value was inside the object at `tokens`.
    package func recordHolding(_ tokens: [String], _ holds: Bool) { holders[tokens] = holds }

    /// Whether `path` is inside the value at `tokens`.
    package static func isInside(_ path: [String], _ tokens: [String]) -> Bool {
        path.count > tokens.count && path.starts(with: tokens)
    }
}
