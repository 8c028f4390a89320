internal import DCEPattern

/// One run of a compiled schema over one request: walks the value tree once and collects every violation.
///
/// The walk allocates only for violations: member names are matched on their bytes, strings are checked on their
/// UTF-8 bytes, and the JSON Pointer of a value is built from a path stack only when a violation is reported.
struct Evaluation: ConditionReader {
    let document: JSONDocument
    /// What every evaluation of the prepared schema shares; its owner keeps it alive while the evaluation runs.
    unowned(unsafe) let plan: EvaluationPlan
    /// The plan's schema, held the same way: no reference count is taken per payload (see ``EvaluationPlan``).
    unowned(unsafe) let schema: CompiledSchema
    /// Whether violations carry line and column (not for requests encoded from Swift values).
    let positions: Bool
    /// The current month (`year × 12 + month − 1`, UTC) for date-dependent formats; 0 when the schema has none.
    var month = 0
    /// Whether the walk is outside every selected field (only while a subset is set).
    private var selecting = false
    /// The last pointer from the root a condition followed (its tokens' box), and where it led.
    private var lastResolved: (tokens: UnsafeMutableRawPointer?, value: JSONDocument.Index?) = (nil, nil)
    /// Whether the document is one line of ASCII (see ``position(of:)``), once known.
    private var singleLineASCII: Bool?
    /// The last position ``position(of:)`` found, where the next search starts when it lies further on.
    private var located = SourcePosition(line: 1, column: 1, offset: 0)
    private(set) var violations: [Violation] = []
    /// The most violations kept (the plan's); past it they are counted in ``omitted``.
    let maxErrors: Int
    /// Violations found past ``maxErrors``, counted instead of built.
    private(set) var omitted = 0
    /// The path and container stacks and other working storage, borrowed from the thread while ``run()`` or
    /// ``check(_:of:)`` runs (see ``EvaluationScratch``).
    private var work = EvaluationScratch()
    /// The document's nodes and bytes, valid while ``run()`` runs: reading through them costs no reference count.
    private var nodes = UnsafeBufferPointer<JSONDocument.Node>(start: nil, count: 0)
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// A step of the path: a member (by its name's node in the document), an array element, or a field that is
    /// missing (only pushed to report it).
    enum PathToken {
        case member(JSONDocument.Index)
        case index(Int)
        case missing(Unmanaged<CompiledField>)
    }

    /// An evaluation of one document; the caller keeps `plan` alive until the evaluation is done.
    init(document: JSONDocument, plan: EvaluationPlan, positions: Bool) {
        self.document = document
        self.plan = plan
        self.schema = plan.schema
        self.positions = positions
        self.maxErrors = plan.maxErrors
    }

    /// Checks the whole request, then calls `finish` with the context values in force (supplied or derived).
    mutating func run<Result>(finish: ([String?]) -> Result) -> Result {
        var result: Result?
        withDocument {
            $0.evaluate()
            result = finish($0.work.context)
        }
        return result!
    }

    /// Checks one value against a field alone (a field's `defaultValue` against its own rules).
    mutating func check(_ value: JSONDocument.Index, of field: CompiledField) {
        withDocument { $0.checkValue(value, of: field, attributes: field.baseSet) }
    }

    /// Runs `body` with ``nodes`` and ``bytes`` pointing into the document.
    private mutating func withDocument(_ body: (inout Evaluation) -> Void) {
        let document = document
        work = EvaluationScratch.take()
        work.context.append(contentsOf: plan.context)
        document.nodes.withUnsafeBufferPointer { nodes in
            document.bytes.withUnsafeBufferPointer { bytes in
                self.nodes = nodes
                self.bytes = bytes
                body(&self)
            }
        }
        nodes = UnsafeBufferPointer(start: nil, count: 0)
        bytes = UnsafeBufferPointer(start: nil, count: 0)
        work.giveBack()
    }

    private mutating func evaluate() {
        deriveContexts()
        let root = document.root
        plan.root._withUnsafeGuaranteedRef { field in
            if plan.hasSubset {
                selecting = true
                walkThrough(root, of: field)
            } else {
                field.baseRef._withUnsafeGuaranteedRef { checkValue(root, of: field, attributes: $0) }
            }
        }
    }

    /// Walks an object or array that encloses selected fields without checking it: only what is selected inside
    /// it is checked (and missing selected fields are reported), so one step of a form can be validated alone.
    private mutating func walkThrough(_ value: JSONDocument.Index, of field: CompiledField) {
        guard let subset = plan.subset else { return }
        switch (document.kind(of: value), field.dataType) {
        case (.object, .object):
            work.containers.append(value)
            checkObject(value, of: field)
            work.containers.removeLast()
        case (.array, .array):
            guard let items = field.items else { return }
            let id = ObjectIdentifier(items)
            guard subset.selected.contains(id) || subset.enclosing.contains(id) else { return }
            work.containers.append(value)
            for (offset, element) in document.elements(of: value).enumerated() {
                work.path.append(.index(offset))
                if subset.selected.contains(id) {
                    selecting = false
                    checkValue(element, of: items, attributes: attributes(of: items))
                    selecting = true
                } else {
                    walkThrough(element, of: items)
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
        guard plan.derive.count > 0 else { return }
        work.containers.append(document.root)
        defer { work.containers.removeAll(keepingCapacity: true) }
        // The rules of all contexts are numbered in order in the program: a rule fills its slot when the slot is
        // still empty (neither supplied nor filled by an earlier rule) and its condition holds.
        plan.deriveProgram._withUnsafeGuaranteedRef { program in
            for index in plan.derive.indices where work.context[plan.derive[index].slot] == nil && holds(program, index) {
                work.context[plan.derive[index].slot] = plan.derive[index].value
            }
        }
    }

    // MARK: - Values

    /// The attributes in force for a field: the base, then every override whose condition holds, in order.
    mutating func attributes(of field: CompiledField) -> AttributeSet {
        guard !field.overrides.isEmpty else { return field.baseSet }
        if !field.variants.isEmpty { return field.variants[overrideMask(of: field)] }
        var rules = field.base
        for (index, override) in field.overrides.enumerated() where holds(field.overrideProgram, index) {
            rules = rules.overlaid(with: override.patch)
        }
        return AttributeSet(rules, patterns: schema.patterns)
    }

    /// Calls `body` with the attributes in force for a field, without taking a reference count when they were
    /// computed ahead (no overrides, or at most ``CompiledField/maxPrecomputedOverrides``).
    mutating func withAttributes(of field: CompiledField, _ body: (inout Evaluation, AttributeSet) -> Void) {
        if field.overrideProgram.count == 0 {
            field.baseRef._withUnsafeGuaranteedRef { body(&self, $0) }
        } else if field.variantRefs.count > 0 {
            field.variantRefs[overrideMask(of: field)]._withUnsafeGuaranteedRef { body(&self, $0) }
        } else {
            body(&self, attributes(of: field))
        }
    }

    /// Which of a field's overrides hold, as a bitmask (bit *i* for override *i*): the index of its variant.
    private mutating func overrideMask(of field: CompiledField) -> Int {
        var mask = 0
        let program = field.overrideProgram
        for index in 0..<program.count where holds(program, index) { mask |= 1 << index }
        return mask
    }

    /// Checks a present value (possibly `null`) against a field; the path stack already ends with its token.
    mutating func checkValue(_ value: JSONDocument.Index, of field: CompiledField, attributes set: AttributeSet) {
        let attributes = set
        if attributes.forbidden {
            add(field, .forbidden, at: value) { $0.text(.forbidden, attributes, fallback: attributes.message, .init(name: attributes.name)) }
            return
        }
        let kind = nodes[value].kind
        if kind == .null {
            if attributes.required {
                add(field, .required, at: value) { $0.text(.required, attributes, variant: "null", .init(name: attributes.name)) }
            } else if !attributes.nullable {
                add(field, .null, at: value) { $0.text(.null, attributes, .init(name: attributes.name)) }
            }
            return
        }
        guard typeMatches(kind, value, field.dataType) else {
            add(field, .type, at: value) { evaluation in
                let messages = evaluation.plan.messages
                let found =
                    kind == .number && field.dataType == .integer
                    ? messages.term("kind.fraction", english: "a number with a fraction")
                    : messages.term("kind.\(kind.description)", english: kind.description)
                let expected = messages.term("type.\(field.dataType.rawValue)", english: field.dataType.article)
                return evaluation.text(.type, attributes, .init(name: attributes.name, expected: expected, found: found))
            }
            return
        }
        switch field.dataType {
        case .string, .date, .dateTime:
            checkString(value, field: field, attributes: set)
        case .integer, .number:
            checkNumber(value, field: field, attributes: set)
        case .boolean:
            checkEnum(value, field: field, attributes: set)
        case .object:
            checkEnum(value, field: field, attributes: set)
            work.containers.append(value)
            checkObject(value, of: field)
            work.containers.removeLast()
        case .array:
            work.containers.append(value)
            checkArray(value, of: field, attributes: set)
            work.containers.removeLast()
        }
    }

    private mutating func typeMatches(_ kind: JSONDocument.Kind, _ value: JSONDocument.Index, _ dataType: DataType) -> Bool {
        switch dataType {
        case .string, .date, .dateTime: kind == .string
        case .integer:
            kind == .number && (document.isIntegerLiteral(at: value) || DecimalNumber(lexeme: document.numberLexeme(at: value)).isIntegral)
        case .number: kind == .number
        case .boolean: kind == .boolean || (schema.numericBooleans && kind == .number && isZeroOrOne(value))
        case .object: kind == .object
        case .array: kind == .array
        }
    }

    /// Whether a number is 0 or 1 (`1`, `1.0`, `1e0`): a boolean wrapped in `NSNumber` by an older client.
    private mutating func isZeroOrOne(_ value: JSONDocument.Index) -> Bool {
        let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
        return number == DecimalNumber(lexeme: "0") || number == DecimalNumber(lexeme: "1")
    }

    private mutating func checkString(_ value: JSONDocument.Index, field: CompiledField, attributes set: AttributeSet) {
        let node = nodes[value]
        let length: Int
        if node.flag {  // escaped: check the decoded text
            length = document.withStringBytes(at: value) { checkStringBytes($0, field: field, attributes: set) }
        } else {
            length = checkStringBytes(rawText(of: value), field: field, attributes: set)
        }
        if set.enumValues != nil { checkEnum(value, field: field, attributes: set) }
        if !work.failures.isEmpty { reportStringFailures(value, field: field, attributes: set, length: length) }
    }

    /// The string checks on a value's bytes: records the failed rules in `failures` and returns the length in code
    /// points. Messages are built only for what failed, by ``reportStringFailures(_:field:attributes:length:)``.
    private mutating func checkStringBytes(_ bytes: UnsafeBufferPointer<UInt8>, field: CompiledField, attributes: AttributeSet) -> Int {
        var length = 0
        for byte in bytes where byte & 0xC0 != 0x80 { length += 1 }  // code points: count lead bytes
        if let min = attributes.minLength, length < min { work.failures.append((.minLength, StringFailure.attribute)) }
        if let max = attributes.maxLength, length > max { work.failures.append((.maxLength, StringFailure.attribute)) }
        if field.dataType == .date, !Format.isDate(bytes) { work.failures.append((.format, StringFailure.date)) }
        if field.dataType == .dateTime, !Format.isDateTime(bytes) { work.failures.append((.format, StringFailure.dateTime)) }
        let formats = attributes.formatList
        if !formats.isEmpty {
            var accepted = false
            for format in formats where format.accepts(bytes, month: month) {
                accepted = true
                break
            }
            if !accepted { work.failures.append((.format, StringFailure.attribute)) }
        }
        let checks = attributes.stringChecks
        let scratch = attributes.hasPatterns ? matchScratch() : nil
        for offset in checks.indices {
            let check = checks[offset]
            if check.minLength >= 0, length < check.minLength { work.failures.append((.minLength, offset)) }
            if check.maxLength >= 0, length > check.maxLength { work.failures.append((.maxLength, offset)) }
            guard let pattern = check.pattern, let scratch else { continue }
            let outcome = pattern._withUnsafeGuaranteedRef { $0.match(bytes: bytes, knownValidUTF8: true, scratch: scratch) }
            switch outcome {
            case .match: break
            case .noMatch: work.failures.append((.regex, offset))
            case .limitExceeded, .error(_): work.failures.append((.regexLimit, offset))
            }
        }
        return length
    }

    /// Which check of a string failed, beside its rule: an `additionalDataValidations` offset (≥ 0) or one of these.
    private enum StringFailure {
        /// The field's own attribute (`minLength`, `maxLength`, `format`).
        static let attribute = -1
        /// The `Date` data type.
        static let date = -2
        /// The `DateTime` data type.
        static let dateTime = -3
    }

    /// Adds a violation for each entry of `failures`, then empties it.
    private mutating func reportStringFailures(
        _ value: JSONDocument.Index, field: CompiledField, attributes: AttributeSet, length: Int
    ) {
        defer { work.failures.removeAll(keepingCapacity: true) }
        let name = attributes.name
        // The length of a sensitive value is not shown: a PIN's length is a clue to it.
        let count = field.sensitivity.isEmpty ? String(length) : nil
        let variant = count == nil ? nil : "count"
        for failure in work.failures.indices {
            guard violations.count < maxErrors else {
                omitted += work.failures.count - failure
                return
            }
            let (code, detail) = work.failures[failure]
            let validation = (code == .format || detail < 0) ? nil : attributes.validations[detail]
            let message: String
            switch code {
            case .minLength:
                let min = validation?.minLength ?? attributes.minLength ?? 0
                message = text(
                    .minLength, attributes, variant: variant, fallback: validation?.message ?? attributes.message,
                    .init(name: name, min: String(min), count: count))
            case .maxLength:
                let max = validation?.maxLength ?? attributes.maxLength ?? 0
                message = text(
                    .maxLength, attributes, variant: variant, fallback: validation?.message ?? attributes.message,
                    .init(name: name, max: String(max), count: count))
            case .format:
                let formats: [Format] =
                    detail == StringFailure.date ? [.date] : detail == StringFailure.dateTime ? [.dateTime] : attributes.formats
                let expected = formats.map { plan.messages.formatTerms[$0] ?? $0.article }
                    .joined(separator: plan.messages.term("or", english: ", or "))
                message = text(
                    .format, attributes, fallback: field.dataType == .string ? attributes.message : nil,
                    .init(name: name, expected: expected))
            case .regex:
                message = text(
                    .regex, attributes, fallback: validation?.message, .init(name: name, pattern: validation?.regex ?? ""))
            default:
                message = text(code, attributes, .init(name: name, pattern: validation?.regex ?? ""))
            }
            add(field, code, at: value) { _ in message }
        }
    }

    private mutating func checkNumber(_ value: JSONDocument.Index, field: CompiledField, attributes set: AttributeSet) {
        let attributes = set
        let name = attributes.name
        if attributes.minimum != nil || attributes.maximum != nil {
            let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
            if let min = attributes.minimum, number < min {
                add(field, .minimum, at: value) { $0.text(.minimum, attributes, fallback: attributes.message, .init(name: name, min: "\(min)")) }
            }
            if let max = attributes.maximum, max < number {
                add(field, .maximum, at: value) { $0.text(.maximum, attributes, fallback: attributes.message, .init(name: name, max: "\(max)")) }
            }
        }
        checkEnum(value, field: field, attributes: set)
    }

    private mutating func checkEnum(_ value: JSONDocument.Index, field: CompiledField, attributes set: AttributeSet) {
        let attributes = set
        guard let values = attributes.enumValues, !values.contains(where: { $0.matches(document, at: value) }) else { return }
        add(field, .enum, at: value) { evaluation in
            let list = values.map { value in
                if case .string(let text) = value { return text }
                return value.json
            }
            return evaluation.text(
                .enum, attributes, variant: list.count == 1 ? nil : "list", fallback: attributes.message,
                .init(name: attributes.name, expected: list.joined(separator: ", ")))
        }
    }

    private mutating func checkObject(_ object: JSONDocument.Index, of field: CompiledField) {
        // One slot per field, on the stack: the node of the member's value, or -1 while none is found.
        withUnsafeTemporaryAllocation(of: JSONDocument.Index.self, capacity: field.childRefs.count) { found in
            found.initialize(repeating: -1)
            checkObject(object, of: field, found: found)
        }
    }

    private mutating func checkObject(
        _ object: JSONDocument.Index, of field: CompiledField, found: UnsafeMutableBufferPointer<JSONDocument.Index>
    ) {
        var unknownSeen: Set<String>?
        var cursor = object + 1
        let end = Int(nodes[object].end)
        while cursor < end {
            let keyIndex = cursor
            let valueIndex = cursor + 1
            cursor = Int(nodes[valueIndex].end)
            if let offset = lookUpKey(at: keyIndex, in: field.keyTable) {
                if found[offset] >= 0 {
                    let child = field.fields[offset]
                    work.path.append(.member(keyIndex))
                    add(child, .duplicateKey, at: keyIndex) { $0.text(.duplicateKey, nil, .init(name: child.name)) }
                    work.path.removeLast()
                } else {
                    found[offset] = valueIndex
                }
                continue
            }
            if selecting { continue }  // a member outside the selected fields is not this step's concern
            let key = document.string(at: keyIndex)
            work.path.append(.member(keyIndex))
            if unknownSeen == nil { unknownSeen = [] }
            if !unknownSeen!.insert(key).inserted {
                add(key: key, .duplicateKey, at: keyIndex) { $0.text(.duplicateKey, nil, variant: "unknown", .init(key: key)) }
            } else if !field.additionalFields {
                add(key: key, .unknownField, at: keyIndex) { evaluation in
                    let suggestion = Suggestion.closest(to: key, in: field.fields.compactMap(\.key))
                    return evaluation.text(
                        .unknownField, nil, variant: suggestion == nil ? nil : "suggestion",
                        .init(name: field.name, key: key, suggestion: suggestion))
                }
            }
            work.path.removeLast()
        }
        let children = field.childRefs
        for offset in children.indices {
            if selecting {
                children[offset]._withUnsafeGuaranteedRef { walkMember($0, value: found[offset], in: object) }
            } else {
                children[offset]._withUnsafeGuaranteedRef { checkMember($0, value: found[offset], in: object) }
            }
        }
    }

    /// Checks a field of an object when it is selected, or walks through it when it encloses selected fields.
    private mutating func walkMember(_ child: CompiledField, value: JSONDocument.Index, in object: JSONDocument.Index) {
        do {
            if plan.provisioning && child.metadata.ignoreForProvisioning == true { return }
            guard let subset = plan.subset else { return }
            let id = ObjectIdentifier(child)
            if subset.selected.contains(id) {
                selecting = false
                checkMember(child, value: value, in: object)
                selecting = true
            } else if value >= 0, subset.enclosing.contains(id) {
                work.path.append(.member(value - 1))
                walkThrough(value, of: child)
                work.path.removeLast()
            }
        }
    }

    /// Checks one field of an object: its value when present (`value` ≥ 0), or whether it may be missing.
    private mutating func checkMember(_ child: CompiledField, value: JSONDocument.Index, in object: JSONDocument.Index) {
        if plan.provisioning && child.metadata.ignoreForProvisioning == true { return }
        withAttributes(of: child) { $0.checkMember(child, value: value, in: object, attributes: $1) }
    }

    private mutating func checkMember(
        _ child: CompiledField, value: JSONDocument.Index, in object: JSONDocument.Index, attributes set: AttributeSet
    ) {
        if value >= 0 {
            work.path.append(.member(value - 1))  // in the tape, a member's name node directly precedes its value
            checkValue(value, of: child, attributes: set)
            work.path.removeLast()
        } else if set.required && !set.forbidden {
            work.path.append(.missing(Unmanaged.passUnretained(child)))
            add(child, .required, at: object) { $0.text(.required, set, fallback: set.message, .init(name: set.name)) }
            work.path.removeLast()
        }
    }

    private mutating func checkArray(_ array: JSONDocument.Index, of field: CompiledField, attributes set: AttributeSet) {
        let attributes = set
        let count = document.count(of: array)
        if let min = attributes.minItems, count < min {
            add(field, .minItems, at: array) {
                $0.text(
                    .minItems, attributes, variant: min == 1 ? "one" : nil, fallback: attributes.message,
                    .init(name: attributes.name, min: String(min), count: String(count)))
            }
        }
        if let max = attributes.maxItems, count > max {
            add(field, .maxItems, at: array) {
                $0.text(
                    .maxItems, attributes, variant: max == 1 ? "one" : nil, fallback: attributes.message,
                    .init(name: attributes.name, max: String(max), count: String(count)))
            }
        }
        checkEnum(array, field: field, attributes: set)
        guard let items = field.items else { return }
        for (offset, element) in document.elements(of: array).enumerated() {
            work.path.append(.index(offset))
            checkValue(element, of: items, attributes: self.attributes(of: items))
            work.path.removeLast()
        }
    }

    /// The evaluation's regex match data, created when the first regex runs.
    private mutating func matchScratch() -> MatchScratch {
        if let scratch = work.match { return scratch }
        let created = MatchScratch()
        work.match = created
        return created
    }

    // MARK: - Conditions

    /// Whether condition `index` of a flat program holds for this request.
    mutating func holds(_ program: ConditionProgram, _ index: Int) -> Bool {
        program.truth(of: index, reading: &self) ?? false
    }

    /// Follows a condition's pointer (a pointer from the root once per run of conditions that test the same value,
    /// as `derive` rules do) and tests the value it leads to.
    mutating func test(_ test: CompiledTest, field up: Int, tokens: Unmanaged<ConditionProgram.Tokens>) -> Bool? {
        let value: JSONDocument.Index?
        if up < 0 && lastResolved.tokens == tokens.toOpaque() {
            value = lastResolved.value
        } else {
            value = tokens._withUnsafeGuaranteedRef { resolve(up: up, tokens: $0) }
            if up < 0 { lastResolved = (tokens.toOpaque(), value) }
        }
        return holds(test, for: value)
    }

    mutating func test(_ test: CompiledTest, context slot: Int) -> Bool? { test.holds(forContext: work.context[slot]) }

    mutating func testTenderType(_ test: CompiledTest) -> Bool? { test.holds(forContext: plan.tenderType) }

    /// Tests a request value found by a pointer, reading the document through ``nodes`` and ``bytes``.
    private mutating func holds(_ test: CompiledTest, for value: JSONDocument.Index?) -> Bool {
        switch test.kind {
        case .absent: return value == nil
        case .null: return value.map { nodes[$0].kind == .null } ?? false
        case .present: return value.map { nodes[$0].kind != .null } ?? false
        case .oneOfStrings:
            guard let value, nodes[value].kind == .string, let table = test.tableRef else { return false }
            return table._withUnsafeGuaranteedRef { lookUpKey(at: value, in: $0) } != nil
        case .matches:
            guard let value, nodes[value].kind == .string, let pattern = test.patternRef else { return false }
            let scratch = matchScratch()
            return document.withStringBytes(at: value) { bytes in
                pattern._withUnsafeGuaranteedRef { $0.match(bytes: bytes, knownValidUTF8: true, scratch: scratch) } == .match
            }
        case .equals, .oneOf:
            guard let value else { return false }
            return test.values.contains { $0.matches(document, at: value) }
        }
    }

    /// The entry of a table whose bytes are a string node's text.
    private mutating func lookUpKey(at index: JSONDocument.Index, in table: KeyTable) -> Int? {
        let node = nodes[index]
        guard !node.flag else { return document.lookUpKey(at: index, in: table) }
        return table.lookup(rawText(of: index))
    }

    /// Follows a condition's pointer; `nil` when the value does not exist.
    private mutating func resolve(up: Int, tokens: ConditionProgram.Tokens) -> JSONDocument.Index? {
        var current: JSONDocument.Index
        if up >= 0 {
            guard up < work.containers.count else { return nil }
            current = work.containers[work.containers.count - 1 - up]
        } else {
            current = document.root
        }
        for offset in tokens.tables.indices {
            switch nodes[current].kind {
            case .object:
                var next: JSONDocument.Index?
                var cursor = current + 1
                let end = Int(nodes[current].end)
                while cursor < end {
                    if tokens.tables[offset]._withUnsafeGuaranteedRef({ lookUpKey(at: cursor, in: $0) }) != nil {
                        next = cursor + 1
                        break
                    }
                    cursor = Int(nodes[cursor + 1].end)
                }
                guard let next else { return nil }
                current = next
            case .array:
                let position = tokens.indices[offset]
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

    // MARK: - Reporting

    /// A violation's message: the field's own message for the rule in the catalogue's language, else the schema's
    /// older `message` / validation `message` (`fallback`), else the catalogue's.
    private mutating func text(
        _ rule: ViolationCode, _ attributes: AttributeSet?, variant: String? = nil, fallback: String? = nil,
        _ parameters: MessageParameters
    ) -> String {
        if let template = attributes?.messages?.template(for: rule, language: plan.messages.language) { return template.render(parameters) }
        if let fallback { return fallback }
        return plan.messages.message(rule, variant: variant, parameters)
    }

    /// The JSON Pointer of the value being checked, written straight into the string's storage: one allocation
    /// (none up to 15 bytes) instead of a string per token.
    private var pointer: String {
        mutating get {
            var escapedKeys: [String] = []  // member names with JSON escapes, decoded and escaped (rare)
            var length = 0
            for token in work.path {
                length += 1
                switch token {
                case .member(let keyNode):
                    let node = nodes[keyNode]
                    if node.flag {
                        let key = JSONPointer.escape(document.string(at: keyNode))
                        escapedKeys.append(key)
                        length += key.utf8.count
                    } else {
                        length += Int(node.length) + Self.escapes(in: rawText(of: keyNode))
                    }
                case .missing(let field): length += field._withUnsafeGuaranteedRef { $0.pointerToken.utf8.count }
                case .index(let index): length += Self.digits(index)
                }
            }
            var escapedKey = 0
            return String(unsafeUninitializedCapacity: length) { buffer in
                var at = 0
                for token in work.path {
                    buffer[at] = UInt8(ascii: "/")
                    at += 1
                    switch token {
                    case .member(let keyNode):
                        if nodes[keyNode].flag {
                            for byte in escapedKeys[escapedKey].utf8 {
                                buffer[at] = byte
                                at += 1
                            }
                            escapedKey += 1
                            continue
                        }
                        for byte in rawText(of: keyNode) {
                            if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") {
                                buffer[at] = UInt8(ascii: "~")
                                buffer[at + 1] = byte == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1")
                                at += 2
                            } else {
                                buffer[at] = byte
                                at += 1
                            }
                        }
                    case .missing(let field):
                        for byte in field.takeUnretainedValue().pointerToken.utf8 {
                            buffer[at] = byte
                            at += 1
                        }
                    case .index(let index):
                        var rest = index
                        let end = at + Self.digits(index)
                        at = end
                        repeat {
                            at -= 1
                            buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                            rest /= 10
                        } while rest > 0
                        at = end
                    }
                }
                return at
            }
        }
    }

    /// The bytes of a string node as they stand in the document: its text, when it has no escapes.
    private func rawText(of node: JSONDocument.Index) -> UnsafeBufferPointer<UInt8> {
        let start = Int(nodes[node].start)
        return UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(nodes[node].length))])
    }

    /// How many bytes of a name a JSON Pointer escapes (`~` and `/` each become two).
    private static func escapes(in name: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in name where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { count += 1 }
        return count
    }

    /// Whether text is one line of ASCII, where a byte's column is its offset + 1: a payload on one NDJSON line
    /// usually is. Eight bytes at a time.
    private static func isSingleLineASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let newlines = word ^ 0x0A0A_0A0A_0A0A_0A0A  // a zero byte where the text has a newline
            let zeroByte = (newlines &- 0x0101_0101_0101_0101) & ~newlines & 0x8080_8080_8080_8080
            if word & 0x8080_8080_8080_8080 != 0 || zeroByte != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 || bytes[index] == UInt8(ascii: "\n") { return false }
            index += 1
        }
        return true
    }

    /// The number of decimal digits of a non-negative number.
    private static func digits(_ number: Int) -> Int {
        var count = 1
        var rest = number / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// The line and column of a node, counted on from the last position found when it lies further on (the walk
    /// reports violations mostly in document order), else from the start.
    private mutating func position(of node: JSONDocument.Index) -> SourcePosition {
        let offset = Int(nodes[node].start) - (nodes[node].kind == .string ? 1 : 0)
        let end = min(max(offset, 0), bytes.count)
        if singleLineASCII == nil { singleLineASCII = Self.isSingleLineASCII(bytes) }
        if singleLineASCII == true { return SourcePosition(line: 1, column: end + 1, offset: end) }
        located = SourcePosition.locate(offset: end, in: bytes, from: end >= located.offset ? located : nil)
        return located
    }

    private mutating func add(
        _ field: CompiledField, _ rule: ViolationCode, at node: JSONDocument.Index, _ message: (inout Evaluation) -> String
    ) {
        add(key: field.key ?? "", rule, at: node, message)
    }

    /// Adds a violation, its message built by `message`; past ``maxErrors`` only counts it, building nothing.
    private mutating func add(key: String, _ rule: ViolationCode, at node: JSONDocument.Index, _ message: (inout Evaluation) -> String) {
        guard violations.count < maxErrors else {
            omitted += 1
            return
        }
        var violation = Violation(
            path: pointer, key: key, rule: rule, message: message(&self), position: positions ? position(of: node) : nil)
        if let fingerprinter = plan.fingerprinter, rule != .unknownField, rule != .duplicateKey, rule != .required {
            switch document.kind(of: node) {
            case .string: violation.fingerprint = document.withStringBytes(at: node) { fingerprinter.fingerprint($0) }
            case .number:
                var text = document.numberLexeme(at: node)
                violation.fingerprint = text.withUTF8 { fingerprinter.fingerprint($0) }
            default: break
            }
        }
        if violations.isEmpty { violations.reserveCapacity(4) }
        violations.append(violation)
    }
}
