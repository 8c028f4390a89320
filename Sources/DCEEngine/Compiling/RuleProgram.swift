internal import DCEPattern

/// A compiled schema lowered for evaluation: every field, attribute set, condition, test and pointer token as a
/// record of plain values in a table, referring to one another by their places in the tables.
///
/// Evaluation reads these records instead of the compiled objects. Every read of a class reference on the hot
/// path takes and drops a reference count, an atomic write to a cache line that every thread validating with the
/// same schema wants: while evaluation walked the objects with counts, two threads on one prepared schema scaled
/// 1.69x one thread, and `swift_retain`/`swift_release` were 26 % of one thread's samples (docs/performance.md). A
/// record is read with a load. Measured against objects read through unmanaged references (the approach this
/// replaced, which needed unsafe code in seven files), on one core: a parsed card-create payload 1,262 → 1,258 ns, a
/// valid one 788 → 762 ns (`dce-benchmark parsed`, medians of six interleaved runs).
///
/// The tables are views whose lifetime the type system does not check: each is a ``FrozenBuffer`` (the `Lowered`
/// folder holds every type that manages memory by hand) that this program keeps alive, and the records view key
/// tables, patterns, test strings and attribute buffers owned by objects the tables keep alive
/// (``Tables/fieldObjects``, ``Tables/attributeObjects``, ``Tables/testObjects``, and the key tables of pointer
/// tokens). ``withTables(_:)`` is the only way to read them; nothing read from the tables may outlive its body.
/// ``Tables`` cannot be made non-escapable yet (Swift 6.3's lifetime annotations are experimental), so this rule is
/// kept by hand: no type stores a ``Tables`` but an evaluation, which lives inside ``withTables(_:)``.
///
/// `@unchecked Sendable`: the tables are written only in `init` and freed with the program; what they refer to is
/// immutable.
package final class RuleProgram: @unchecked Sendable {
    /// A field as plain values.
    struct Field {
        let dataType: DataType
        /// The field's members, as a range of ``Tables/children``.
        let children: Range<Int>
        /// Finds a member by the bytes of its name: the offset into `children`.
        let keys: KeyTable.View
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

    /// What evaluation reads, valid only inside ``withTables(_:)``: one pointer to the program's tables, so that
    /// passing it around copies a word.
    package struct Tables {
        fileprivate let contents: UnsafePointer<Contents>

        /// The fields; the root is field 0.
        var fields: UnsafeBufferPointer<Field> { contents.pointee.fields }
        /// The compiled field each record was lowered from, for what only a violation needs (names, messages).
        var fieldObjects: UnsafeBufferPointer<CompiledField> { contents.pointee.fieldObjects }
        /// The members of every object field, as places in ``fields``.
        var children: UnsafeBufferPointer<Int> { contents.pointee.children }
        var attributes: UnsafeBufferPointer<AttributeSet.Record> { contents.pointee.attributes }
        /// The attribute set each record was lowered from, for messages, `enum` values and numeric bounds.
        var attributeObjects: UnsafeBufferPointer<AttributeSet> { contents.pointee.attributeObjects }
        /// The attributes of each combination of a field's overrides (see ``Field/variants``).
        var variants: UnsafeBufferPointer<Int> { contents.pointee.variants }
        var instructions: UnsafeBufferPointer<Instruction> { contents.pointee.instructions }
        /// Where each condition's instructions start.
        var conditionStarts: UnsafeBufferPointer<Int> { contents.pointee.conditionStarts }
        var tests: UnsafeBufferPointer<CompiledTest.Record> { contents.pointee.tests }
        /// The test each record was lowered from, for `equals` and `in` tests on values other than strings.
        package var testObjects: UnsafeBufferPointer<CompiledTest> { contents.pointee.testObjects }
        var tokens: UnsafeBufferPointer<Token> { contents.pointee.tokens }
        /// Each token's text.
        package var tokenTexts: UnsafeBufferPointer<String> { contents.pointee.tokenTexts }
        /// Every context's `derive` rules in order: the slot each fills, and with what; rule *i* fills it when
        /// condition ``deriveConditions`` + *i* holds.
        var derive: UnsafeBufferPointer<(slot: Int, value: String)> { contents.pointee.derive }
        var deriveConditions: Int { contents.pointee.deriveConditions }
    }

    /// The tables themselves.
    fileprivate struct Contents {
        let fields: UnsafeBufferPointer<Field>
        let fieldObjects: UnsafeBufferPointer<CompiledField>
        let children: UnsafeBufferPointer<Int>
        let attributes: UnsafeBufferPointer<AttributeSet.Record>
        let attributeObjects: UnsafeBufferPointer<AttributeSet>
        let variants: UnsafeBufferPointer<Int>
        let instructions: UnsafeBufferPointer<Instruction>
        let conditionStarts: UnsafeBufferPointer<Int>
        let tests: UnsafeBufferPointer<CompiledTest.Record>
        let testObjects: UnsafeBufferPointer<CompiledTest>
        let tokens: UnsafeBufferPointer<Token>
        let tokenTexts: UnsafeBufferPointer<String>
        let derive: UnsafeBufferPointer<(slot: Int, value: String)>
        let deriveConditions: Int
    }

    /// The tables' memory: ``Contents`` views these buffers, which live as long as the program.
    private let buffers: [AnyObject]
    /// The views of the tables, in one value that ``Tables`` points at.
    private let contents: FrozenBuffer<Contents>
    /// The key tables of pointer tokens, which ``Token``s view.
    private let tokenTables: [KeyTable]
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
        var buffers: [AnyObject] = []
        func frozen<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
            let buffer = FrozenBuffer(elements)
            buffers.append(buffer)
            return buffer.view
        }
        contents = FrozenBuffer([
            Contents(
                fields: frozen(builder.fields.map { $0! }), fieldObjects: frozen(builder.fieldObjects),
                children: frozen(builder.children), attributes: frozen(builder.attributes),
                attributeObjects: frozen(builder.attributeObjects), variants: frozen(builder.variants),
                instructions: frozen(builder.instructions), conditionStarts: frozen(builder.conditionStarts),
                tests: frozen(builder.tests), testObjects: frozen(builder.testObjects), tokens: frozen(builder.tokens),
                tokenTexts: frozen(builder.tokenTexts), derive: frozen(derive), deriveConditions: deriveConditions)
        ])
        self.buffers = buffers
        tokenTables = builder.tokenTables
        fieldIDs = builder.fieldIDs
    }

    /// Runs `body` with the tables: the program is alive while its method runs, and so the tables are.
    package func withTables<Result, Failure: Error>(_ body: (Tables) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try body(Tables(contents: contents.first))
    }

    /// A compiled field's place in the tables.
    package func id(of field: CompiledField) -> Int? { fieldIDs[ObjectIdentifier(field)] }

    /// The tables while they are built.
    private struct Builder {
        var fields: [Field?] = []
        var fieldObjects: [CompiledField] = []
        var fieldIDs: [ObjectIdentifier: Int] = [:]
        var children: [Int] = []
        var attributes: [AttributeSet.Record] = []
        var attributeObjects: [AttributeSet] = []
        var attributeIDs: [ObjectIdentifier: Int] = [:]
        var variants: [Int] = []
        var instructions: [Instruction] = []
        var conditionStarts: [Int] = []
        var tests: [CompiledTest.Record] = []
        var testObjects: [CompiledTest] = []
        var testIDs: [ObjectIdentifier: Int] = [:]
        var tokens: [Token] = []
        var tokenTexts: [String] = []
        var tokenTables: [KeyTable] = []
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
                dataType: field.dataType, children: start..<(start + members.count), keys: field.keyTable.view,
                items: items,
                base: base, overrides: overrides, variants: variantStart, additionalFields: field.additionalFields,
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
            attributes.append(record)
            attributeObjects.append(set)
            return id
        }

        mutating func add(_ test: CompiledTest) -> Int {
            if let id = testIDs[ObjectIdentifier(test)] { return id }
            let id = tests.count
            testIDs[ObjectIdentifier(test)] = id
            tests.append(test.record)
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
                        tokens.append(Token(keys: token.table.view, index: token.index ?? -1))
                        tokenTexts.append(token.text)
                        tokenTables.append(token.table)
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
    enum Instruction {
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
    struct Token {
        let keys: KeyTable.View
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
