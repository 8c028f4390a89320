internal import DCEPattern

/// Conditions as the walk reads them: context values, the tender type in force, and request values found by
/// absolute or relative pointers, read on the document's nodes and bytes.
extension Evaluation: ScopeReader {
    // MARK: - Conditions

    /// Whether condition `index` of the program holds for this request.
    mutating func holds(_ index: Int) -> Bool {
        let tables = tables
        return tables.truth(of: index, reading: &self) ?? false
    }

    /// Follows a condition's pointer (a pointer from the root once per run of conditions that test the same value,
    /// as `derive` rules do) and tests the value it leads to.
    mutating func test(_ test: Int, field up: Int, tokens: Range<Int>, in program: RuleProgram.Tables) -> Bool? {
        let value: JSONDocument.Index?
        if up < 0 && lastResolved.tokens == tokens {
            value = lastResolved.value
        } else {
            value = resolve(up: up, tokens: tokens)
            if up < 0 { lastResolved = (tokens, value) }
        }
        return holds(test, for: value)
    }

    mutating func test(_ test: Int, context slot: Int, in program: RuleProgram.Tables) -> Bool? {
        program.holds(test, forContext: work.context[slot])
    }

    mutating func isEmpty(slot: Int) -> Bool { work.context[slot] == nil }

    /// Sets a derived or bound context, or binds the tender type when the schema declares it (another value leaves the
    /// one from outside in force).
    mutating func set(_ slot: Int?, to value: KnownValue) {
        guard case .known(let known) = value else { return }  // every value of a whole payload is known
        if let slot {
            work.context[slot] = known
        } else if let known, let index = plan.schema.tenderTypes.firstIndex(of: known) {
            boundTenderType = index
        }
    }

    mutating func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? {
        program.holds(test, forContext: tenderType)
    }

    func tenderTypeInForce() -> KnownValue { .known(tenderType) }

    /// A member of the object being bound (the innermost container): its text when it is a string among `allowed`.
    func member(_ key: String, allowed: [String]?) -> MemberReading {
        guard let object = work.containers.last, let member = document.member(key, of: object),
            document.kind(of: member) == .string
        else { return .none }
        if let recorder, recorder.recordsFields { recorder.reads.append(ValueRead(node: member, test: -1, held: true)) }
        let text = document.string(at: member)
        return allowed?.contains(text) ?? true ? .value(text) : .none
    }

    /// Whether `bytes` match the rule program's pattern `pattern`. The pattern and the thread's match data (made
    /// before, `prepareMatchData()`) are used where they are kept: copies of them cost reference counts.
    @inline(__always)
    func matches(_ bytes: Span<UInt8>, pattern: Int) -> Bool {
        tables.patterns[pattern].match(bytes, knownValidUTF8: true, scratch: work.match!) == .match
    }

    /// Tests a request value found by a pointer.
    mutating func holds(_ test: Int, for value: JSONDocument.Index?) -> Bool {
        let held = outcome(of: test, for: value)
        if recorder != nil, let value { noteRead(value, test: test, held: held) }
        return held
    }

    /// Whether a test holds for a request value found by a pointer.
    @inline(__always)
    private mutating func outcome(of test: Int, for value: JSONDocument.Index?) -> Bool {
        let record = tables.tests[test]
        switch record.kind {
        case .absent: return value == nil
        case .null: return value.map { document.nodes[$0].kind == .null } ?? false
        case .present: return value.map { document.nodes[$0].kind != .null } ?? false
        case .oneOfStrings:
            guard let value, document.nodes[value].kind == .string else { return false }
            return lookUpKey(at: value, in: record.keys) != nil
        case .matches:
            guard let value, document.nodes[value].kind == .string, record.pattern >= 0 else { return false }
            prepareMatchData()
            guard let range = document.unescapedRange(of: value) else {
                // An escaped string, rare: its unescaped bytes, through a closure.
                return document.string(at: value).withUTF8Span { matches($0, pattern: record.pattern) }
            }
            return matches(document.bytes.span.extracting(range), pattern: record.pattern)
        case .equals, .oneOf:
            guard let value else { return false }
            return tables.testObjects[test].values.contains { $0.matches(document, at: value) }
        case .cardBrand:
            guard let value, document.nodes[value].kind == .string else { return false }
            // A `cardBrandOf` rule is one test per brand on the same number: the brand is found once.
            if lastCardBrand.node != value {
                let detection = document.withStringBytes(at: value) { reference.cardBrands.detect(digitsOf: $0) }
                if case .brand(let index) = detection {
                    lastCardBrand = (value, index)
                } else {
                    lastCardBrand = (value, -1)
                }
            }
            return lastCardBrand.brand >= 0 && record.brandMask & (1 << UInt64(lastCardBrand.brand)) != 0
        }
    }

    /// Notes that a condition's test read a value's content and what it answered, when the walk records what a form's
    /// draft holds (kept out of line: only a form asks). Whether a value is there is not its content: a form's
    /// recheck keeps the value there.
    @inline(never)
    func noteRead(_ value: JSONDocument.Index, test: Int, held: Bool) {
        guard let recorder, recorder.recordsFields else { return }
        switch tables.tests[test].kind {
        case .absent, .null, .present: return
        default: recorder.reads.append(ValueRead(node: value, test: test, held: held))
        }
    }

    /// The entry of a table whose bytes are a string node's text.
    @inline(__always)
    func lookUpKey(at index: JSONDocument.Index, in table: KeyStore.Table) -> Int? {
        document.withStringBytes(at: index) { [keys = tables.keys] in keys.lookup($0, in: table) }
    }

    /// Follows a condition's pointer; `nil` when the value does not exist.
    mutating func resolve(up: Int, tokens: Range<Int>) -> JSONDocument.Index? {
        var current: JSONDocument.Index
        if up >= 0 {
            guard up < work.containers.count else { return nil }
            current = work.containers[work.containers.count - 1 - up]
        } else {
            current = document.root
        }
        for offset in tokens {
            let token = tables.tokens[offset]
            switch document.nodes[current].kind {
            case .object:
                var next: JSONDocument.Index?
                var cursor = current + 1
                let end = Int(document.nodes[current].end)
                while cursor < end {
                    if lookUpKey(at: cursor, in: token.keys) != nil {
                        next = cursor + 1
                        break
                    }
                    cursor = Int(document.nodes[cursor + 1].end)
                }
                guard let next else { return nil }
                current = next
            case .array:
                let position = token.index
                guard position >= 0, position < document.count(of: current) else { return nil }
                var elements = document.elements(of: current)
                for _ in 0..<position { _ = elements.next() }
                guard let element = elements.next() else { return nil }
                current = element
            default:
                return nil
            }
        }
        return current
    }
}
