internal import DCEPattern

/// The walk over a request's values: the attributes in force at each field, and the checks of strings, numbers,
/// options, objects, members, bindings and arrays.
extension Evaluation {
    // MARK: - Values

    /// Calls `body` with the attributes in force for a field: the base, then every override whose condition holds,
    /// in order. They were computed ahead unless the field has more than ``CompiledField/maxPrecomputedOverrides``.
    mutating func withAttributes(of field: Int, _ body: (inout Evaluation, Attributes) -> Void) {
        let overrides = tables.fields[field].overrides
        if overrides.isEmpty {
            let record = attributes(tables.fields[field].base)
            body(&self, record)
        } else if tables.fields[field].variants >= 0 {
            // Decided before `body` has the evaluation: deciding reads it.
            let variant = tables.fields[field].variants + overrideMask(overrides)
            let record = attributes(tables.variants[variant])
            body(&self, record)
        } else {
            withComputed(computedAttributes(of: field), body)
        }
    }

    /// Calls `body` with the record of a set computed for this value, its string checks kept in the walk's storage
    /// while `body` runs (``AttributeSet/Record/checksInWalk``).
    mutating func withComputed(_ set: AttributeSet, _ body: (inout Evaluation, Attributes) -> Void) {
        var record = set.record
        let start = work.computedChecks.count
        work.computedChecks.append(contentsOf: set.stringChecks)
        record.checks = start..<work.computedChecks.count
        record.checksInWalk = true
        body(&self, record)
        work.computedChecks.removeSubrange(start...)
    }

    /// The record of attribute set `index` of the program.
    func attributes(_ index: Int) -> Attributes {
        tables.attributes[index]
    }

    /// The attributes in force for a field whose combinations of overrides were not computed ahead.
    mutating func computedAttributes(of field: Int) -> AttributeSet {
        AttributeSet(rules(of: field), patterns: plan.schema.patterns)
    }

    /// A field's rules in force here: the base, then each override whose condition holds, in order.
    mutating func rules(of field: Int) -> Rules {
        ruling(of: field).rules(of: tables.fieldObjects[field])
    }

    /// What holds at a field here, its bindings applied and provisioning's skip decided by the walk.
    mutating func ruling(of field: Int) -> FieldRuling {
        let tables = tables
        return tables.ruling(of: field, provisioning: false, reading: &self)
    }

    /// Records the rules in force at the probed value (kept out of line: no other value is probed).
    @inline(never)
    mutating func record(probedField field: Int) {
        recorder?.probed = RulesInForce(
            field: tables.fieldObjects[field], ruling: ruling(of: field), context: work.context)
    }

    /// Records the rules in force at a member of the object being checked, present (`value` ≥ 0) or missing, by its
    /// JSON Pointer, when the walk records every field's (kept out of line: only a form's draft asks).
    @inline(never)
    mutating func record(member field: Int, value: JSONDocument.Index, ignored: Bool = false) {
        guard let recorder, recorder.recordsFields else { return }
        work.path.append(value >= 0 ? .member(value - 1) : .missing(field))
        let start = work.pathArena.count
        work.pathArena.append(contentsOf: work.path)
        let pointer = pointer(start..<work.pathArena.count)
        work.pathArena.removeSubrange(start...)
        work.path.removeLast()
        if ignored {
            recorder.ignored.insert(pointer)
        } else {
            recorder.fields[pointer] = RulesInForce(
                field: tables.fieldObjects[field], ruling: ruling(of: field), context: work.context)
        }
    }

    /// The attribute set behind a record, for what a violation says.
    mutating func attributeSet(_ attributes: Attributes, of field: Int) -> AttributeSet {
        attributes.object >= 0 ? tables.attributeObjects[attributes.object] : computedAttributes(of: field)
    }

    /// Which of a field's overrides hold, as a bitmask (bit *i* for override *i*): the index of its variant.
    mutating func overrideMask(_ overrides: Range<Int>) -> Int {
        let tables = tables
        return tables.overrideMask(overrides, reading: &self)
    }

    /// Checks a present value (possibly `null`) against a field; the path stack already ends with its token.
    mutating func checkValue(_ value: JSONDocument.Index, of field: Int, attributes: Attributes) {
        if value == probe { record(probedField: field) }
        if attributes.mustBeAbsent {
            find(.forbidden, field: field, at: value, attributes)
            return
        }
        let kind = document.nodes[value].kind
        if kind == .null {
            if attributes.mustBePresent {
                find(.required, field: field, at: value, attributes, detail: Finding.nullValue)
            } else if !attributes.acceptsNull {
                find(.null, field: field, at: value, attributes)
            }
            return
        }
        let dataType = tables.fields[field].dataType
        guard dataType.accepts(kind, at: value, in: document, numericBooleans: numericBooleans) else {
            find(.type, field: field, at: value, attributes)
            return
        }
        switch dataType {
        case .string, .date, .dateTime:
            checkString(value, field: field, attributes: attributes)
        case .integer, .number:
            checkNumber(value, field: field, attributes: attributes)
        case .boolean:
            checkEnum(value, field: field, attributes: attributes)
        case .object:
            checkEnum(value, field: field, attributes: attributes)
            work.containers.append(value)
            checkObject(value, of: field)
            work.containers.removeLast()
        case .array:
            work.containers.append(value)
            checkArray(value, of: field, attributes: attributes)
            work.containers.removeLast()
        }
    }

    mutating func checkString(_ value: JSONDocument.Index, field: Int, attributes: Attributes) {
        let checks = attributes.checks.count
        if attributes.hasPatterns { prepareMatchData() }
        var first = 0
        repeat {  // the string's own rules, then its checks, so many at a time as a result holds
            let last = min(checks, first + StringFailures.checksAtOnce)
            // Not through a closure: one capturing this evaluation's walk costs a copy of what it captures.
            let failures =
                if let range = document.unescapedRange(of: value) {
                    stringFailures(
                        document.bytes.span.extracting(range), field: field, attributes: attributes,
                        checks: first..<last)
                } else {
                    Array(document.string(at: value).utf8).withSpan {
                        stringFailures($0, field: field, attributes: attributes, checks: first..<last)
                    }
                }
            if !failures.isEmpty {
                report(failures, firstCheck: first, at: value, field: field, attributes: attributes)
            }
            first = last
        } while first < checks
        if attributes.hasEnum { checkEnum(value, field: field, attributes: attributes) }
    }

    /// The rules a string breaks: its own (on the first run of checks only) and those of the checks `checks` of its
    /// attributes. Reads the bytes without changing the evaluation, so that the bytes may be the document's own.
    @inline(__always)
    func stringFailures(
        _ bytes: Span<UInt8>, field: Int, attributes: Attributes, checks: Range<Int>
    ) -> StringFailures {
        var failures = StringFailures()
        let length = Self.codePoints(in: bytes)
        if checks.lowerBound == 0 {
            let lengths = attributes.lengths
            if lengths.isBelow(length) { failures.insert(StringFailures.minLength) }
            if lengths.isAbove(length) { failures.insert(StringFailures.maxLength) }
            let dataType = tables.fields[field].dataType
            if let implied = dataType.impliedFormat, !implied.accepts(bytes, reference: reference) {
                failures.insert(StringFailures.impliedFormat)
            }
            let formats = attributes.formats
            if !formats.isEmpty && !formats.contains(where: { $0.accepts(bytes, month: month, reference: reference) }) {
                failures.insert(StringFailures.format)
            }
        }
        let first = attributes.checks.lowerBound
        for offset in checks {
            // Each check called where it is stored: a copy would retain its pattern.
            let failure =
                attributes.checksInWalk
                ? work.computedChecks[first + offset].check(bytes, length: length, scratch: work.match)
                : tables.checks[first + offset].check(bytes, length: length, scratch: work.match)
            failures.insert(failure, at: offset - checks.lowerBound)
        }
        return failures
    }

    /// Records a finding for each rule a string broke, in order: its own, then each check's (the first being check
    /// `firstCheck` of its attributes).
    mutating func report(
        _ failures: StringFailures, firstCheck: Int, at value: JSONDocument.Index, field: Int, attributes: Attributes
    ) {
        failures.forEach(firstCheck: firstCheck) { code, detail in
            find(code, field: field, at: value, attributes, detail: detail)
        }
    }

    /// The number of code points in UTF-8 text: its lead bytes.
    static func codePoints(in bytes: Span<UInt8>) -> Int {
        var count = 0
        for index in bytes.indices where bytes[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Which check of a string failed, beside its rule: an `additionalDataValidations` offset (≥ 0) or one of these.
    enum StringFailure {
        /// The field's own attribute (`minLength`, `maxLength`, `format`).
        static let attribute = -1
        /// The format the data type implies (``DataType/impliedFormat``).
        static let impliedFormat = -2
    }

    /// The rules a string broke, as bits, in the order they are reported: its own `minLength`, `maxLength`, the format
    /// its data type implies and its `format`, then four for each of up to ``checksAtOnce`` checks (``StringCheck``).
    /// A plain value, so that checking a string changes nothing and may read the document's own bytes.
    struct StringFailures {
        private var bits: UInt64 = 0

        static let minLength: UInt64 = 1
        static let maxLength: UInt64 = 2
        static let impliedFormat: UInt64 = 4
        static let format: UInt64 = 8
        /// The checks one value holds the outcome of; a string with more is checked in runs.
        static let checksAtOnce = 15

        var isEmpty: Bool { bits == 0 }

        mutating func insert(_ bit: UInt64) { bits |= bit }

        /// Records what the check at `place` of this run broke.
        mutating func insert(_ broken: StringCheck.Broken, at place: Int) {
            bits |= UInt64(broken.rawValue) << UInt64(4 + 4 * place)
        }

        /// Calls `body` with each rule broken and its detail (``StringFailure``, or the check's offset among the
        /// attributes' checks, the first of this run being `firstCheck`), in report order.
        func forEach(firstCheck: Int, _ body: (ViolationCode, Int) -> Void) {
            if bits & Self.minLength != 0 { body(.minLength, StringFailure.attribute) }
            if bits & Self.maxLength != 0 { body(.maxLength, StringFailure.attribute) }
            if bits & Self.impliedFormat != 0 { body(.format, StringFailure.impliedFormat) }
            if bits & Self.format != 0 { body(.format, StringFailure.attribute) }
            var rest = bits >> 4
            var place = 0
            while rest != 0 {
                let broken = StringCheck.Broken(rawValue: UInt8(rest & 0xF))
                broken.forEachRule { body($0, firstCheck + place) }
                rest >>= 4
                place += 1
            }
        }
    }

    mutating func checkNumber(_ value: JSONDocument.Index, field: Int, attributes record: Attributes) {
        if record.hasValueRange {
            let range = attributeSet(record, of: field).valueRange
            let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
            if range.isBelow(number) { find(.minimum, field: field, at: value, record) }
            if range.isAbove(number) { find(.maximum, field: field, at: value, record) }
        }
        checkEnum(value, field: field, attributes: record)
    }

    mutating func checkEnum(_ value: JSONDocument.Index, field: Int, attributes record: Attributes) {
        guard record.hasEnum else { return }
        guard let options = attributeSet(record, of: field).options, !options.accepts(document, at: value) else {
            return
        }
        find(.enum, field: field, at: value, record)
    }

    mutating func checkObject(_ object: JSONDocument.Index, of field: Int) {
        // One slot per member field, on the stack: the node of the member's value, or -1 while none is found.
        withTemporarySlots(tables.fields[field].children.count, initial: -1) { found in
            checkObject(object, of: field, found: &found)
        }
    }

    /// ``checkObject(_:of:)`` with a slot for each member field.
    mutating func checkObject(_ object: JSONDocument.Index, of field: Int, found: inout MutableSpan<Int>) {
        let record = tables.fields[field]
        var unknownSeen: Set<String>?
        var cursor = object + 1
        let end = Int(document.nodes[object].end)
        while cursor < end {
            let keyIndex = cursor
            let valueIndex = cursor + 1
            cursor = Int(document.nodes[valueIndex].end)
            if let offset = lookUpKey(at: keyIndex, in: record.keys) {
                if found[offset] >= 0 {
                    work.path.append(.member(keyIndex))
                    find(
                        .duplicateKey, field: tables.children[record.children.lowerBound + offset],
                        at: keyIndex, nil)
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
                find(.duplicateKey, field: field, at: keyIndex, nil, detail: Finding.unknownMember)
            } else if !record.additionalFields {
                find(.unknownField, field: field, at: keyIndex, nil, detail: Finding.unknownMember)
            }
            work.path.removeLast()
        }
        if record.hasObjectRules && !selecting { return checkObjectRules(object, of: field, found: &found) }
        let children = record.children
        for offset in children.indices {
            if decided { return }
            let child = tables.children[offset]
            let value = found[offset - children.lowerBound]
            if selecting {
                walkMember(child, value: value, in: object)
            } else {
                checkMember(child, value: value, in: object)
            }
        }
    }

    /// Checks a field of an object when it is selected, or walks through it when it encloses selected fields.
    mutating func walkMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        guard let subset = plan.subset else { return }
        let id = ObjectIdentifier(tables.fieldObjects[child])
        if subset.selected.contains(id) {
            selecting = false
            checkMember(child, value: value, in: object)
            selecting = true
        } else if value >= 0, subset.enclosing.contains(id) {
            work.path.append(.member(value - 1))
            withBindingsIfAny(of: child, value: value) {
                // Skipped under the tender type in force inside the field, as checkMember decides it.
                if $0.provisioning && $0.ignoredForProvisioning(child) { return }
                $0.walkThrough(value, of: child)
            }
            work.path.removeLast()
        }
    }

    /// Checks one field of an object: its value when present (`value` ≥ 0), or whether it may be missing.
    @inline(__always)
    mutating func checkMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        if tables.fields[child].hasBindings { return checkBindingMember(child, value: value, in: object) }
        if provisioning && ignoredForProvisioning(child) {
            if recorder != nil { record(member: child, value: value, ignored: true) }
            return
        }
        withAttributes(of: child) { $0.checkMember(child, value: value, in: object, attributes: $1) }
    }

    /// ``checkMember(_:value:in:)`` for a field that binds contexts, kept out of line: most fields bind none.
    @inline(never)
    mutating func checkBindingMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        withBindings(of: child, value: value) { evaluation in
            if evaluation.provisioning && evaluation.ignoredForProvisioning(child) {
                if evaluation.recorder != nil { evaluation.record(member: child, value: value, ignored: true) }
                return
            }
            evaluation.withAttributes(of: child) { $0.checkMember(child, value: value, in: object, attributes: $1) }
        }
    }

    /// An array item whose field binds contexts, kept out of line as ``checkBindingMember(_:value:in:)`` is.
    @inline(never)
    mutating func checkBindingItem(_ element: JSONDocument.Index, of items: Int) {
        withBindings(of: items, value: element) {
            $0.withAttributes(of: items) { $0.checkValue(element, of: items, attributes: $1) }
        }
    }

    /// Whether a field is marked `ignoreForProvisioning` under the tender type in force.
    func ignoredForProvisioning(_ field: Int) -> Bool {
        boundTenderType >= 0
            ? tables.fieldObjects[field].isIgnoredForProvisioning(under: tenderType)
            : plan.ignoredForProvisioning[field]
    }

    /// Runs `body` with the field's bindings in force when it has any (off the hot path: one-step form checks).
    mutating func withBindingsIfAny(
        of field: Int, value: JSONDocument.Index, _ body: (inout Evaluation) -> Void
    ) {
        if tables.fields[field].hasBindings { withBindings(of: field, value: value, body) } else { body(&self) }
    }

    /// Runs `body` with the contexts and tender type a field binds in force for its value (`value` ≥ 0 when present),
    /// then restores what was in force outside it. A member or `derive` binding reads the field's own object (a
    /// relative pointer's `0`); when it finds no value, or the field is missing, the value from outside stays.
    mutating func withBindings(of field: Int, value: JSONDocument.Index, _ body: (inout Evaluation) -> Void) {
        let savedContext = work.context
        let savedTenderType = boundTenderType
        let isObject = value >= 0 && document.nodes[value].kind == .object
        if isObject { work.containers.append(value) }
        let tables = tables
        tables.bind(field, objectPresent: isObject, reading: &self)
        if isObject { work.containers.removeLast() }
        if let recorder, recorder.recordsScopes, value >= 0 { recorder.scopes[value] = tenderType }
        body(&self)
        work.context = savedContext
        boundTenderType = savedTenderType
    }

    mutating func checkMember(
        _ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index, attributes: Attributes
    ) {
        if recorder != nil { record(member: child, value: value) }
        if value >= 0 {
            work.path.append(.member(value - 1))  // in the tape, a member's name node directly precedes its value
            checkValue(value, of: child, attributes: attributes)
            work.path.removeLast()
        } else if attributes.mustBePresent {
            work.path.append(.missing(child))
            find(.required, field: child, at: object, attributes)
            work.path.removeLast()
        }
    }

    mutating func checkArray(_ array: JSONDocument.Index, of field: Int, attributes: Attributes) {
        let count = document.count(of: array)
        let counts = attributes.itemCounts
        if counts.isBelow(count) { find(.minItems, field: field, at: array, attributes) }
        if counts.isAbove(count) { find(.maxItems, field: field, at: array, attributes) }
        checkEnum(array, field: field, attributes: attributes)
        let items = tables.fields[field].items
        guard items >= 0 else { return }
        let bound = tables.fields[items].hasBindings
        for (offset, element) in document.elements(of: array).enumerated() {
            if decided { return }
            work.path.append(.index(offset))
            if bound {
                checkBindingItem(element, of: items)
            } else {
                withAttributes(of: items) { $0.checkValue(element, of: items, attributes: $1) }
            }
            work.path.removeLast()
        }
    }

    /// The evaluation's regex match data, created when the first regex runs.
    mutating func matchScratch() -> MatchScratch {
        if let scratch = work.match { return scratch }
        let created = MatchScratch()
        work.match = created
        return created
    }

    /// Makes the thread's regex match data if it has none, for what then reads it where it is kept, `work.match`:
    /// a copy of it, as `matchScratch()` returns, costs a reference count on every string.
    @inline(__always)
    mutating func prepareMatchData() {
        if work.match == nil { _ = matchScratch() }
    }
}
