internal import DCEPattern

/// A compiled schema lowered for evaluation: every field, attribute set, condition, test and pointer token as a
/// record of plain values in a table, referring to one another by their places in the tables.
///
/// Evaluation reads these records instead of the compiled objects. Every read of a class reference on the hot
/// path takes and drops a reference count, an atomic write to a cache line that every thread validating with the
/// same schema wants: while evaluation walked the objects with counts, two threads on one prepared schema scaled
/// 1.69x one thread, and `swift_retain`/`swift_release` were 26 % of one thread's samples (docs/performance.md). A
/// record holds no reference, and is read with a load and a bounds check from an array of ``Tables``, which the
/// evaluation holds once. The key tables of fields, tests and pointer tokens are one ``KeyStore``, the checks of
/// every attribute set one table, the tests' strings and patterns one table each.
package final class RuleProgram: Sendable {
    /// A field as plain values.
    struct Field: Sendable {
        let dataType: DataType
        /// The field's members, as a range of ``Tables/children``.
        let children: Range<Int>
        /// Finds a member by the bytes of its name: the offset into `children`.
        let keys: KeyStore.Table
        /// The field of an array's items, or -1.
        let items: Int
        /// The attributes before any override (a place in ``Tables/attributes``).
        let base: Int
        /// The conditions of the field's overrides, in order (places in the condition table).
        let overrides: Range<Int>
        /// Where the attributes of every combination of overrides start in ``Tables/variants`` (bit *i* of the
        /// offset set when override *i* holds), or -1 when the field has too many overrides to compute them ahead.
        let variants: Int
        let additionalFields: Bool
        /// Whether any sensitivity flag is set (the length of a sensitive value is never shown).
        let sensitive: Bool
        /// Where the conditions of its bindings' `derive` rules start in the condition table, in order; -1 when the
        /// field binds no context (``CompiledField/bindings``).
        let bindingConditions: Int
        /// Whether rules judge the members of the field's object together (``CompiledField/objectRules``).
        let hasObjectRules: Bool

        /// Whether the field binds contexts for its value and below.
        var hasBindings: Bool { bindingConditions >= 0 }
    }

    /// What evaluation reads: the program's tables, never changed once made.
    package final class Tables: Sendable {
        /// The fields; the root is field 0.
        let fields: ContiguousArray<Field>
        /// The compiled field each record was lowered from, for what only a violation needs (names, messages).
        let fieldObjects: ContiguousArray<CompiledField>
        /// The members of every object field, as places in ``fields``.
        let children: ContiguousArray<Int>
        let attributes: ContiguousArray<AttributeSet.Record>
        /// The attribute set each record was lowered from, for messages, `enum` values and numeric bounds.
        let attributeObjects: ContiguousArray<AttributeSet>
        /// The checks of every attribute set of ``attributes``, end to end (``AttributeSet/Record/checks``).
        let checks: ContiguousArray<StringCheck>
        /// The attributes of each combination of a field's overrides (see ``Field/variants``).
        let variants: ContiguousArray<Int>
        let instructions: ContiguousArray<Instruction>
        /// Where each condition's instructions start.
        let conditionStarts: ContiguousArray<Int>
        let tests: ContiguousArray<CompiledTest.Record>
        /// The test each record was lowered from, for `equals` and `in` tests on values other than strings.
        package let testObjects: ContiguousArray<CompiledTest>
        /// The string values of every test, end to end (``CompiledTest/Record/strings``).
        let testStrings: ContiguousArray<String>
        /// The patterns of `matches` tests (``CompiledTest/Record/pattern``).
        let patterns: ContiguousArray<CompiledPattern>
        let tokens: ContiguousArray<Token>
        /// Each token's text.
        package let tokenTexts: ContiguousArray<String>
        /// The keys of every field, test and token (``Field/keys``, ``CompiledTest/Record/keys``, ``Token/keys``).
        let keys: KeyStore
        /// Every context's `derive` rules in order: the slot each fills, and with what; rule *i* fills it when
        /// condition ``deriveConditions`` + *i* holds.
        let derive: ContiguousArray<(slot: Int, value: String)>
        let deriveConditions: Int

        fileprivate init(_ builder: Builder, derive: [(slot: Int, value: String)], deriveConditions: Int) {
            fields = ContiguousArray(builder.fields.map { $0! })
            fieldObjects = ContiguousArray(builder.fieldObjects)
            children = ContiguousArray(builder.children)
            attributes = ContiguousArray(builder.attributes)
            attributeObjects = ContiguousArray(builder.attributeObjects)
            checks = builder.checks
            variants = ContiguousArray(builder.variants)
            instructions = ContiguousArray(builder.instructions)
            conditionStarts = ContiguousArray(builder.conditionStarts)
            tests = ContiguousArray(builder.tests)
            testObjects = ContiguousArray(builder.testObjects)
            testStrings = builder.testStrings
            patterns = builder.patterns
            tokens = ContiguousArray(builder.tokens)
            tokenTexts = ContiguousArray(builder.tokenTexts)
            keys = builder.keys
            self.derive = ContiguousArray(derive)
            self.deriveConditions = deriveConditions
        }

        /// Whether test `test` passes for a context value (or the tender type): `nil` is a value neither supplied nor
        /// derived.
        func holds(_ test: Int, forContext value: String?) -> Bool {
            let record = tests[test]
            return record.kind.holds(
                forContext: value,
                isAmong: { text in record.strings.contains { testStrings[$0] == text } },
                matches: { record.pattern >= 0 && patterns[record.pattern].match($0) == .match })
        }
    }

    /// The tables.
    package let tables: Tables
    /// Each compiled field's place in ``Tables/fields``.
    private let fieldIDs: [ObjectIdentifier: Int]

    /// Lowers a compiled schema's fields and the conditions of its contexts' `derive` rules.
    init(root: CompiledField, contexts: [CompiledContext]) {
        var builder = Builder()
        _ = builder.add(root)
        let deriveConditions = builder.conditionStarts.count
        var derive: [(slot: Int, value: String)] = []
        for (slot, context) in contexts.enumerated() {
            for rule in context.derive {
                builder.emitCondition(rule.condition)
                derive.append((slot, rule.value))
            }
        }
        tables = Tables(builder, derive: derive, deriveConditions: deriveConditions)
        fieldIDs = builder.fieldIDs
    }

    /// A compiled field's place in the tables.
    package func id(of field: CompiledField) -> Int? { fieldIDs[ObjectIdentifier(field)] }

    /// The tables while they are built.
    fileprivate struct Builder {
        var fields: [Field?] = []
        var fieldObjects: [CompiledField] = []
        var fieldIDs: [ObjectIdentifier: Int] = [:]
        var children: [Int] = []
        var attributes: [AttributeSet.Record] = []
        var attributeObjects: [AttributeSet] = []
        var attributeIDs: [ObjectIdentifier: Int] = [:]
        var checks: ContiguousArray<StringCheck> = []
        var variants: [Int] = []
        var instructions: [Instruction] = []
        var conditionStarts: [Int] = []
        var tests: [CompiledTest.Record] = []
        var testObjects: [CompiledTest] = []
        var testIDs: [ObjectIdentifier: Int] = [:]
        var testStrings: ContiguousArray<String> = []
        var patterns: ContiguousArray<CompiledPattern> = []
        var tokens: [Token] = []
        var tokenTexts: [String] = []
        var keys = KeyStore()
        /// Each pointer's run of tokens, by its tokens' texts.
        var tokenRuns: [[String]: Range<Int>] = [:]

        /// Lowers a field and everything below it, once per compiled field however often it is used.
        mutating func add(_ field: CompiledField) -> Int {
            if let id = fieldIDs[ObjectIdentifier(field)] { return id }
            let id = fields.count
            fieldIDs[ObjectIdentifier(field)] = id
            fields.append(nil)
            fieldObjects.append(field)
            let members = field.fields.map { add($0) }
            let start = children.count
            children.append(contentsOf: members)
            let items = field.items.map { add($0) } ?? -1
            let base = add(field.baseSet)
            var variantStart = -1
            if !field.variants.isEmpty {
                let ids = field.variants.map { add($0) }
                variantStart = variants.count
                variants.append(contentsOf: ids)
            }
            let firstCondition = conditionStarts.count
            for override in field.overrides { emitCondition(override.condition) }
            let overrides = firstCondition..<conditionStarts.count
            for binding in field.bindings {
                if case .derive(let rules) = binding.source { rules.forEach { emitCondition($0.condition) } }
            }
            fields[id] = Field(
                dataType: field.dataType, children: start..<(start + members.count),
                keys: keys.add(field.keyTable.keys), items: items, base: base, overrides: overrides,
                variants: variantStart, additionalFields: field.additionalFields,
                sensitive: !field.sensitivity.isEmpty,
                bindingConditions: field.bindings.isEmpty ? -1 : overrides.upperBound,
                hasObjectRules: !field.objectRules.isEmpty)
            return id
        }

        mutating func add(_ set: AttributeSet) -> Int {
            if let id = attributeIDs[ObjectIdentifier(set)] { return id }
            let id = attributes.count
            attributeIDs[ObjectIdentifier(set)] = id
            var record = set.record
            record.object = id
            record.checks = checks.count..<(checks.count + set.stringChecks.count)
            checks.append(contentsOf: set.stringChecks)
            attributes.append(record)
            attributeObjects.append(set)
            return id
        }

        mutating func add(_ test: CompiledTest) -> Int {
            if let id = testIDs[ObjectIdentifier(test)] { return id }
            let id = tests.count
            testIDs[ObjectIdentifier(test)] = id
            let strings = testStrings.count..<(testStrings.count + test.strings.count)
            testStrings.append(contentsOf: test.strings)
            var pattern = -1
            if let compiled = test.pattern {
                pattern = patterns.count
                patterns.append(compiled)
            }
            tests.append(
                CompiledTest.Record(
                    kind: test.kind, keys: keys.add(test.strings), strings: strings, pattern: pattern,
                    brandMask: test.brandMask))
            testObjects.append(test)
            return id
        }

        /// Appends a condition as one run of instructions, numbered next in the condition table.
        mutating func emitCondition(_ condition: CompiledCondition) {
            conditionStarts.append(instructions.count)
            emit(condition)
        }

        private mutating func emit(_ condition: CompiledCondition) {
            switch condition {
            case .all(let parts), .any(let parts):
                let at = instructions.count
                instructions.append(.not)  // placeholder until the end is known
                for part in parts { emit(part) }
                let isAll = if case .all = condition { true } else { false }
                instructions[at] =
                    isAll
                    ? .all(count: parts.count, end: instructions.count)
                    : .any(count: parts.count, end: instructions.count)
            case .not(let part):
                instructions.append(.not)
                emit(part)
            case .context(let slot, let test):
                instructions.append(.context(slot: slot, test: add(test)))
            case .tenderType(let test):
                instructions.append(.tenderType(test: add(test)))
            case .field(let up, let pointer, let test):
                // One run of tokens per pointer, however many conditions read it: evaluation remembers where the
                // last pointer from the root led by its run (a `cardBrandOf` rule is a condition per brand).
                let texts = pointer.map(\.text)
                let run: Range<Int>
                if let known = tokenRuns[texts] {
                    run = known
                } else {
                    let start = tokens.count
                    for token in pointer {
                        tokens.append(Token(keys: keys.add(token.table.keys), index: token.index ?? -1))
                        tokenTexts.append(token.text)
                    }
                    run = start..<tokens.count
                    tokenRuns[texts] = run
                }
                instructions.append(.field(up: up ?? -1, tokens: run, test: add(test)))
            }
        }
    }
}

/// What a condition reads: context values, the tender type and request values. A reader that cannot know a test's
/// outcome (a form described before anything is typed) answers `nil`, and the condition is unknown unless the rest
/// of it decides. Tests and pointer tokens are given by their place in the program's tables.
package protocol ConditionReader {
    /// The outcome of test `test` on context `slot`, or `nil` when it cannot be known.
    mutating func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool?
    /// The outcome of test `test` on the tender type, or `nil` when it cannot be known.
    mutating func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool?
    /// The outcome of test `test` on the request value a pointer (`tokens` of the program's table of tokens) leads
    /// to (`up` < 0: from the root), or `nil` when it cannot be known.
    mutating func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool?
}

extension RuleProgram {
    /// One step of a condition laid out flat: each condition is a run of instructions in prefix order; a connective
    /// carries its number of operands and where its run ends (so `all` and `any` still stop at the first operand
    /// that decides), and a leaf refers to its test and pointer by their places in the program's tables.
    enum Instruction: Sendable {
        /// All of the next `count` conditions hold; they end before `end`.
        case all(count: Int, end: Int)
        /// Any of the next `count` conditions holds; they end before `end`.
        case any(count: Int, end: Int)
        /// The next condition does not hold.
        case not
        case context(slot: Int, test: Int)
        case tenderType(test: Int)
        /// `up` is -1 for a pointer from the root.
        case field(up: Int, tokens: Range<Int>, test: Int)
    }

    /// One token of a condition's pointer: the table that finds it among member names, and its value as an array
    /// index (-1 when it is not one).
    struct Token: Sendable {
        let keys: KeyStore.Table
        let index: Int
    }
}

extension RuleProgram.Tables {
    /// Whether condition `index` holds for what `reader` reads: `true`, `false`, or `nil` when it depends on what the
    /// reader cannot know. `all` is false as soon as one part is false and true when every part is; `any` is true
    /// as soon as one part is true and false when every part is; `not` of an unknown is unknown.
    func truth<Reader: ConditionReader>(of index: Int, reading reader: inout Reader) -> Bool? {
        var counter = conditionStarts[index]
        return run(at: &counter, reading: &reader)
    }

    /// What a run of `derive` rules (their conditions numbered from `condition`) decides for what `reader` reads: the
    /// first known to hold, unless one before it cannot be known: how partial input and forms derive a context.
    func decidingRule<Reader: ConditionReader>(among count: Int, from condition: Int, reading reader: inout Reader)
        -> DerivedBy
    {
        for offset in 0..<count {
            switch truth(of: condition + offset, reading: &reader) {
            case true?: return .rule(offset)
            case nil: return .unknown
            case false?: continue
            }
        }
        return .none
    }

    /// What decides a context among its `derive` rules.
    enum DerivedBy {
        /// The rule at this offset holds, and none before it does.
        case rule(Int)
        /// A rule before any that holds cannot be known.
        case unknown
        /// No rule holds.
        case none
    }

    /// Evaluates the condition starting at `counter` and moves `counter` past it.
    private func run<Reader: ConditionReader>(at counter: inout Int, reading reader: inout Reader) -> Bool? {
        let instruction = instructions[counter]
        counter += 1
        switch instruction {
        case .all(let count, let end), .any(let count, let end):
            // A part that is false decides `all`, one that is true decides `any`.
            let decisive = if case .any = instruction { true } else { false }
            var result: Bool? = !decisive
            for _ in 0..<count {
                switch run(at: &counter, reading: &reader) {
                case decisive?:
                    counter = end
                    return decisive
                case nil: result = nil
                default: break
                }
            }
            return result
        case .not:
            return run(at: &counter, reading: &reader).map { !$0 }
        case .context(let slot, let test):
            return reader.test(test, context: slot, in: self)
        case .tenderType(let test):
            return reader.testTenderType(test, in: self)
        case .field(let up, let tokens, let test):
            return reader.test(test, field: up, tokens: tokens, in: self)
        }
    }
}
