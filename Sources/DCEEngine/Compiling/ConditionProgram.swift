internal import DCEPattern

/// Several ``CompiledCondition``s laid out as one flat array of plain instructions, for evaluation on the hot path.
///
/// Walking the recursive `CompiledCondition` enum copies its boxed cases and the arrays inside them, and every
/// copy is a reference count taken and dropped, on every payload. Here each condition is a run of instructions in
/// prefix order: a connective carries its number of operands and where its run ends (so `all` and `any` still stop
/// at the first operand that decides), and a leaf refers to its test and pointer by unmanaged references to boxes
/// that this program owns. Reading an instruction copies a few words and touches no reference count.
///
/// `@unchecked Sendable`: the instruction buffer is written only in `init` and freed only in `deinit`; the boxes
/// are immutable.
final class ConditionProgram: @unchecked Sendable {
    enum Instruction {
        /// All of the next `count` conditions hold; they end before `end`.
        case all(count: Int, end: Int)
        /// Any of the next `count` conditions holds; they end before `end`.
        case any(count: Int, end: Int)
        /// The next condition does not hold.
        case not
        case context(slot: Int, test: Unmanaged<TestBox>)
        case tenderType(Unmanaged<TestBox>)
        /// `up` is -1 for a pointer from the root.
        case field(up: Int, tokens: Unmanaged<TokensBox>, test: Unmanaged<TestBox>)
    }

    /// A test, with its kind apart from its data so that choosing the case copies nothing.
    final class TestBox: Sendable {
        enum Kind { case equals, oneOf, oneOfStrings, matches, present, absent, null }
        let kind: Kind
        let test: CompiledTest
        let table: KeyTable?
        let pattern: CompiledPattern?
        /// The string values an `equals`, `in` or `oneOfStrings` test accepts (what a context value is compared to).
        let strings: [String]
        /// `table` and `pattern` as unmanaged references (kept alive by those two): reading them takes no
        /// reference count, which threads testing the same condition at once would contend for.
        let tableRef: Unmanaged<KeyTable>?
        let patternRef: Unmanaged<CompiledPattern>?

        init(_ test: CompiledTest) {
            self.test = test
            switch test {
            case .equals(.string(let value)): strings = [value]
            case .oneOf(let values): strings = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            case .oneOfStrings(_, let values): strings = values
            default: strings = []
            }
            switch test {
            case .equals: (kind, table, pattern) = (.equals, nil, nil)
            case .oneOf: (kind, table, pattern) = (.oneOf, nil, nil)
            case .oneOfStrings(let table, _): (kind, self.table, pattern) = (.oneOfStrings, table, nil)
            case .matches(let pattern): (kind, table, self.pattern) = (.matches, nil, pattern)
            case .present: (kind, table, pattern) = (.present, nil, nil)
            case .absent: (kind, table, pattern) = (.absent, nil, nil)
            case .null: (kind, table, pattern) = (.null, nil, nil)
            }
            tableRef = table.map { Unmanaged.passUnretained($0) }
            patternRef = pattern.map { Unmanaged.passUnretained($0) }
        }
    }

    /// The tokens of a condition's pointer: for each, the table that finds it among member names (as an unmanaged
    /// reference, kept alive by `tokens`) and its value as an array index (-1 when it is not one).
    ///
    /// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`.
    final class TokensBox: @unchecked Sendable {
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
    /// Keeps the boxes that instructions refer to alive.
    private let boxes: [AnyObject]

    /// The number of conditions.
    var count: Int { starts.count }

    init(_ conditions: [CompiledCondition]) {
        var instructions: [Instruction] = []
        var boxes: [AnyObject] = []
        var starts: [Int] = []
        func emit(_ condition: CompiledCondition) {
            func test(_ test: CompiledTest) -> Unmanaged<TestBox> {
                let box = TestBox(test)
                boxes.append(box)
                return Unmanaged.passUnretained(box)
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
            case .context(let slot, let compiled):
                instructions.append(.context(slot: slot, test: test(compiled)))
            case .tenderType(let compiled):
                instructions.append(.tenderType(test(compiled)))
            case .field(let up, let tokens, let compiled):
                let box = TokensBox(tokens)
                boxes.append(box)
                instructions.append(.field(up: up ?? -1, tokens: Unmanaged.passUnretained(box), test: test(compiled)))
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
        self.boxes = boxes
    }

    deinit {
        instructions.deinitialize()
        instructions.deallocate()
        starts.deallocate()
    }
}
