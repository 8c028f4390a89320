internal import DCEPattern

// Conditions (`when` of an override, `derive` of a context, a tender type's overrides), in one place: what a test
// means for a context value (`CompiledTest.holds(forContext:)`), how `all`, `any` and `not` combine
// (`ConditionProgram.truth(of:reading:)`, for evaluation and forms alike), and the compiled shapes export reads.

/// A condition ready to evaluate: contexts by slot, patterns compiled. Export reads this tree; evaluation and forms
/// run the same conditions laid out flat in a ``ConditionProgram``.
indirect enum CompiledCondition: Sendable {
    case all([CompiledCondition])
    case any([CompiledCondition])
    case not(CompiledCondition)
    case context(slot: Int, test: CompiledTest)
    case tenderType(CompiledTest)
    case field(up: Int?, tokens: [PointerToken], test: CompiledTest)
}

/// One token of a condition's JSON Pointer: matched against member names as bytes, or used as an array index.
struct PointerToken: Sendable {
    let text: String
    let table: KeyTable
    let index: Int?

    init(_ text: String) {
        self.text = text
        self.table = KeyTable(keys: [text])
        self.index = text.allSatisfy(\.isASCII) ? Int(text) : nil
    }
}

/// A test on a condition's subject, compiled once and shared by evaluation, forms and export.
///
/// A class with its kind apart from its data, so that the hot path chooses the case without copying any of it; it
/// also holds `table` and `pattern` as unmanaged references (kept alive by those two), which threads testing the
/// same condition at once read without contending for a reference count.
final class CompiledTest: Sendable {
    enum Kind: Sendable { case equals, oneOf, oneOfStrings, matches, present, absent, null }
    let kind: Kind
    /// The values an `equals` (one) or `in` test accepts.
    let values: [SchemaValue]
    /// The string values among `values`: what a context value is compared with.
    let strings: [String]
    /// For ``Kind/oneOfStrings`` (every value a string): the strings, found by their bytes.
    let table: KeyTable?
    /// For ``Kind/matches``.
    let pattern: CompiledPattern?
    let tableRef: Unmanaged<KeyTable>?
    let patternRef: Unmanaged<CompiledPattern>?

    /// A test of a kind; `equals` and `in` whose values are all strings should be ``Kind/oneOfStrings``.
    init(_ kind: Kind, values: [SchemaValue] = [], pattern: CompiledPattern? = nil) {
        self.kind = kind
        self.values = values
        self.strings = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
        self.table = kind == .oneOfStrings ? KeyTable(keys: strings) : nil
        self.pattern = pattern
        self.tableRef = table.map { Unmanaged.passUnretained($0) }
        self.patternRef = pattern.map { Unmanaged.passUnretained($0) }
    }

    /// Whether a context value (or the tender type) passes: `nil` is a context neither supplied nor derived.
    func holds(forContext value: String?) -> Bool {
        switch kind {
        case .equals, .oneOf, .oneOfStrings: value.map { strings.contains($0) } ?? false
        case .matches: value.map { pattern?.match($0) == .match } ?? false
        case .present: value != nil
        case .absent: value == nil
        case .null: false
        }
    }
}

/// What a condition reads: context values, the tender type and request values. A reader that cannot know a test's
/// outcome (a form described before anything is typed) answers `nil`, and the condition is unknown unless the rest
/// of it decides.
protocol ConditionReader {
    /// The outcome of a test on context `slot`, or `nil` when it cannot be known.
    mutating func test(_ test: CompiledTest, context slot: Int) -> Bool?
    /// The outcome of a test on the tender type, or `nil` when it cannot be known.
    mutating func testTenderType(_ test: CompiledTest) -> Bool?
    /// The outcome of a test on the request value a pointer leads to (`up` < 0: from the root), or `nil` when it
    /// cannot be known.
    mutating func test(_ test: CompiledTest, field up: Int, tokens: Unmanaged<ConditionProgram.Tokens>) -> Bool?
}

/// Several ``CompiledCondition``s laid out as one flat array of plain instructions: what evaluation and forms run.
///
/// Walking the recursive `CompiledCondition` enum copies its boxed cases and the arrays inside them, and every
/// copy is a reference count taken and dropped, on every payload. Here each condition is a run of instructions in
/// prefix order: a connective carries its number of operands and where its run ends (so `all` and `any` still stop
/// at the first operand that decides), and a leaf refers to its test and pointer by unmanaged references to objects
/// that this program keeps alive. Reading an instruction copies a few words and touches no reference count.
///
/// `@unchecked Sendable`: the instruction buffer is written only in `init` and freed only in `deinit`; what it
/// refers to is immutable.
final class ConditionProgram: @unchecked Sendable {
    enum Instruction {
        /// All of the next `count` conditions hold; they end before `end`.
        case all(count: Int, end: Int)
        /// Any of the next `count` conditions holds; they end before `end`.
        case any(count: Int, end: Int)
        /// The next condition does not hold.
        case not
        case context(slot: Int, test: Unmanaged<CompiledTest>)
        case tenderType(Unmanaged<CompiledTest>)
        /// `up` is -1 for a pointer from the root.
        case field(up: Int, tokens: Unmanaged<Tokens>, test: Unmanaged<CompiledTest>)
    }

    /// The tokens of a condition's pointer: for each, the table that finds it among member names (as an unmanaged
    /// reference, kept alive by `tokens`) and its value as an array index (-1 when it is not one).
    ///
    /// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`.
    final class Tokens: @unchecked Sendable {
        let tokens: [PointerToken]
        let tables: UnsafeMutableBufferPointer<Unmanaged<KeyTable>>
        let indices: UnsafeMutableBufferPointer<Int>

        init(_ tokens: [PointerToken]) {
            self.tokens = tokens
            tables = .allocate(capacity: tokens.count)
            _ = tables.initialize(from: tokens.map { Unmanaged.passUnretained($0.table) })
            indices = .allocate(capacity: tokens.count)
            _ = indices.initialize(from: tokens.map { $0.index ?? -1 })
        }

        deinit {
            tables.deallocate()
            indices.deallocate()
        }
    }

    /// The instructions of every condition, end to end.
    let instructions: UnsafeMutableBufferPointer<Instruction>
    /// Where each condition's instructions start.
    let starts: UnsafeMutableBufferPointer<Int>
    /// Keeps the tests and tokens that instructions refer to alive.
    private let objects: [AnyObject]

    /// The number of conditions.
    var count: Int { starts.count }

    init(_ conditions: [CompiledCondition]) {
        var instructions: [Instruction] = []
        var objects: [AnyObject] = []
        var starts: [Int] = []
        func emit(_ condition: CompiledCondition) {
            func keep(_ test: CompiledTest) -> Unmanaged<CompiledTest> {
                objects.append(test)
                return Unmanaged.passUnretained(test)
            }
            switch condition {
            case .all(let parts), .any(let parts):
                let at = instructions.count
                instructions.append(.not)  // placeholder until the end is known
                parts.forEach(emit)
                let isAll = if case .all = condition { true } else { false }
                instructions[at] = isAll ? .all(count: parts.count, end: instructions.count) : .any(count: parts.count, end: instructions.count)
            case .not(let part):
                instructions.append(.not)
                emit(part)
            case .context(let slot, let test):
                instructions.append(.context(slot: slot, test: keep(test)))
            case .tenderType(let test):
                instructions.append(.tenderType(keep(test)))
            case .field(let up, let tokens, let test):
                let box = Tokens(tokens)
                objects.append(box)
                instructions.append(.field(up: up ?? -1, tokens: Unmanaged.passUnretained(box), test: keep(test)))
            }
        }
        for condition in conditions {
            starts.append(instructions.count)
            emit(condition)
        }
        self.instructions = UnsafeMutableBufferPointer.allocate(capacity: instructions.count)
        _ = self.instructions.initialize(from: instructions)
        self.starts = UnsafeMutableBufferPointer.allocate(capacity: starts.count)
        _ = self.starts.initialize(from: starts)
        self.objects = objects
    }

    deinit {
        instructions.deinitialize()
        instructions.deallocate()
        starts.deallocate()
    }

    /// Whether condition `index` holds for what `reader` reads: `true`, `false`, or `nil` when it depends on what the
    /// reader cannot know. `all` is false as soon as one part is false and true when every part is; `any` is true
    /// as soon as one part is true and false when every part is; `not` of an unknown is unknown.
    func truth<Reader: ConditionReader>(of index: Int, reading reader: inout Reader) -> Bool? {
        var counter = starts[index]
        return run(at: &counter, reading: &reader)
    }

    /// Evaluates the condition starting at `counter` and moves `counter` past it.
    private func run<Reader: ConditionReader>(at counter: inout Int, reading reader: inout Reader) -> Bool? {
        let instruction = instructions[counter]
        counter += 1
        switch instruction {
        case .all(let count, let end):
            var result: Bool? = true
            for _ in 0..<count {
                switch run(at: &counter, reading: &reader) {
                case false?:
                    counter = end
                    return false
                case nil: result = nil
                case true?: break
                }
            }
            return result
        case .any(let count, let end):
            var result: Bool? = false
            for _ in 0..<count {
                switch run(at: &counter, reading: &reader) {
                case true?:
                    counter = end
                    return true
                case nil: result = nil
                case false?: break
                }
            }
            return result
        case .not:
            return run(at: &counter, reading: &reader).map { !$0 }
        case .context(let slot, let test):
            return test._withUnsafeGuaranteedRef { reader.test($0, context: slot) }
        case .tenderType(let test):
            return test._withUnsafeGuaranteedRef { reader.testTenderType($0) }
        case .field(let up, let tokens, let test):
            return test._withUnsafeGuaranteedRef { reader.test($0, field: up, tokens: tokens) }
        }
    }
}
