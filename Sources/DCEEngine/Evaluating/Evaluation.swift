internal import DCEPattern

/// One run of a compiled schema over one request: walks the value tree once and collects every violation.
///
/// The walk builds no string: member names are matched on their bytes, strings are checked on their UTF-8 bytes, and
/// a violation is recorded as a ``Finding`` (rule, field, node, attribute set, path tokens). When the walk is done,
/// ``writeViolations()`` writes each finding's message, JSON Pointer, line and column once. The evaluation
/// reads the schema as the records of its ``RuleProgram``, and the plan without a reference count (see
/// ``EvaluationPlan``): both are valid only inside ``EvaluationPlan/evaluate(_:positions:month:finish:)`` and
/// ``EvaluationPlan/check(_:against:)``, the only places an evaluation is made.
struct Evaluation: ConditionReader {
    /// The attributes in force for a value: a record in the program's table, or of a set computed for this value,
    /// read in place (a record is too large to copy at every field).
    typealias Attributes = UnsafePointer<AttributeSet.Record>

    let document: JSONDocument
    /// What every evaluation of the prepared schema shares; kept alive by the entry point that made this evaluation.
    private unowned(unsafe) let plan: EvaluationPlan
    /// The schema's rules, valid while the entry point that made this evaluation runs.
    private let tables: RuleProgram.Tables
    /// The code lists and card brands of the schema, kept alive by the plan's schema.
    private unowned(unsafe) let reference: ReferenceData
    /// Whether `Boolean` fields also accept 0 and 1 (the schema's setting).
    private let numericBooleans: Bool
    /// Whether violations carry line and column (not for requests encoded from Swift values).
    private let positions: Bool
    /// The current month (`year × 12 + month − 1`, UTC) for date-dependent formats; 0 when the schema has none.
    private let month: Int
    /// Whether the walk is outside every selected field (only while a subset is set).
    private var selecting = false
    /// The tender type a field above binds for its value (``withBindings(of:value:_:)``), as its place among the
    /// schema's tender types; -1 when none does and the plan's holds. (An index, not a string: a string stored in
    /// the evaluation made every payload about 5 % slower to check.)
    private var boundTenderType = -1
    /// The tender type in force.
    private var tenderType: String? { boundTenderType < 0 ? plan.tenderType : plan.schema.tenderTypes[boundTenderType] }
    /// The last pointer from the root a condition followed (its tokens), and where it led.
    private var lastResolved: (tokens: Range<Int>?, value: JSONDocument.Index?) = (nil, nil)
    /// The last string node whose card brand was found, and the brand's place in the reference data (-1: none).
    private var lastCardBrand: (node: JSONDocument.Index, brand: Int) = (-1, -1)
    /// Whether the document is one line of ASCII (see ``position(of:)``), once known.
    private var singleLineASCII: Bool?
    /// The last position ``position(of:)`` found, where the next search starts when it lies further on.
    private var located = SourcePosition(line: 1, column: 1, offset: 0)
    /// The violations, written from the walk's findings once it is done (``writeViolations()``).
    private(set) var violations: [Violation] = []
    /// Attribute sets computed while walking (for a field with more overrides than are computed ahead) that a
    /// finding refers to.
    private var computedSets: [AttributeSet] = []
    /// The most violations kept (the plan's); past it they are counted in ``omitted``.
    private let maxErrors: Int
    /// Violations found past ``maxErrors``, counted instead of recorded.
    private(set) var omitted = 0
    /// The value whose rules in force are asked for (``probed``), or -1: validation of a form's draft while a field
    /// is typed asks this walk, so that the rules it applies there are exactly the rules a whole payload gets.
    private let probe: JSONDocument.Index
    /// The rules in force at ``probe`` when the walk reached it; `nil` when it did not (a field ignored for
    /// provisioning is never reached).
    private(set) var probed: RulesInForce?
    /// The path and container stacks and other working storage, borrowed from the thread while the evaluation
    /// runs (see ``EvaluationScratch``).
    private var work = EvaluationScratch()
    /// The document's nodes and bytes, valid while the evaluation runs: reading through them costs no reference count.
    private var nodes = UnsafeBufferPointer<JSONDocument.Node>(start: nil, count: 0)
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    /// A step of the path: a member (by its name's node in the document), an array element, or a field that is
    /// missing (by its place in the program; only pushed to report it).
    enum PathToken {
        case member(JSONDocument.Index)
        case index(Int)
        case missing(Int)
    }

    fileprivate init(
        document: JSONDocument, plan: EvaluationPlan, tables: RuleProgram.Tables, positions: Bool, month: Int,
        probe: JSONDocument.Index = -1
    ) {
        self.document = document
        self.probe = probe
        self.plan = plan
        self.tables = tables
        self.reference = plan.schema.reference
        self.numericBooleans = plan.schema.numericBooleans
        self.positions = positions
        self.month = month
        self.maxErrors = plan.maxErrors
    }

    /// Runs `body` with ``nodes`` and ``bytes`` pointing into the document and the thread's working storage, then
    /// `finish` with the context values in force (supplied or derived) before the storage goes back to the thread.
    fileprivate mutating func withDocument<Result>(_ body: (inout Evaluation) -> Void, finish: ([String?]) -> Result)
        -> Result
    {
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
        let result = finish(work.context)
        work.giveBack()
        return result
    }

    fileprivate mutating func evaluate() {
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
    fileprivate mutating func check(_ value: JSONDocument.Index, of field: Int) {
        let object = tables.fieldObjects[field]
        let entries = object.overrides.filter { $0.tenderType != nil && $0.tenderType == tenderType }
        guard !entries.isEmpty else {
            return checkValue(value, of: field, attributes: attributes(tables.fields[field].base))
        }
        let set = AttributeSet(
            entries.reduce(object.base) { $0.overlaid(with: $1.patch) }, patterns: plan.schema.patterns)
        withExtendedLifetime(set) {
            withUnsafePointer(to: set.record) { checkValue(value, of: field, attributes: $0) }
        }
    }

    /// Walks an object or array that encloses selected fields without checking it: only what is selected inside
    /// it is checked (and missing selected fields are reported), so one step of a form can be validated alone.
    private mutating func walkThrough(_ value: JSONDocument.Index, of field: Int) {
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
    private mutating func deriveContexts() {
        let derive = tables.derive
        guard derive.count > 0 else { return }
        work.containers.append(document.root)
        defer { work.containers.removeAll(keepingCapacity: true) }
        // The rules of all contexts are numbered in order in the program: a rule fills its slot when the slot is
        // still empty (neither supplied nor filled by an earlier rule) and its condition holds.
        for index in derive.indices
        where work.context[derive[index].slot] == nil && holds(tables.deriveConditions + index) {
            work.context[derive[index].slot] = derive[index].value
        }
    }

    // MARK: - Values

    /// Calls `body` with the attributes in force for a field: the base, then every override whose condition holds,
    /// in order. They were computed ahead unless the field has more than ``CompiledField/maxPrecomputedOverrides``.
    private mutating func withAttributes(of field: Int, _ body: (inout Evaluation, Attributes) -> Void) {
        let overrides = tables.fields[field].overrides
        if overrides.isEmpty {
            body(&self, attributes(tables.fields[field].base))
        } else if tables.fields[field].variants >= 0 {
            body(&self, attributes(tables.variants[tables.fields[field].variants + overrideMask(overrides)]))
        } else {
            let set = computedAttributes(of: field)
            withExtendedLifetime(set) {
                let record = set.record
                withUnsafePointer(to: record) { body(&self, $0) }
            }
        }
    }

    /// The record of attribute set `index` of the program.
    private func attributes(_ index: Int) -> Attributes {
        tables.attributes.baseAddress.unsafelyUnwrapped + index
    }

    /// The attributes in force for a field whose combinations of overrides were not computed ahead.
    private mutating func computedAttributes(of field: Int) -> AttributeSet {
        AttributeSet(rules(of: field), patterns: plan.schema.patterns)
    }

    /// A field's rules in force here: the base, then each override whose condition holds, in order.
    private mutating func rules(of field: Int) -> Rules {
        let object = tables.fieldObjects[field]
        var rules = object.base
        for (offset, condition) in tables.fields[field].overrides.enumerated() where holds(condition) {
            rules = rules.overlaid(with: object.overrides[offset].patch)
        }
        return rules
    }

    /// Records the rules in force at the probed value (kept out of line: no other value is probed).
    @inline(never)
    private mutating func record(probedField field: Int) {
        probed = RulesInForce(
            field: tables.fieldObjects[field], rules: rules(of: field), tenderType: tenderType, context: work.context)
    }

    /// The attribute set behind a record, for what a violation says.
    private mutating func attributeSet(_ attributes: Attributes, of field: Int) -> AttributeSet {
        attributes.pointee.object >= 0
            ? tables.attributeObjects[attributes.pointee.object] : computedAttributes(of: field)
    }

    /// Which of a field's overrides hold, as a bitmask (bit *i* for override *i*): the index of its variant.
    private mutating func overrideMask(_ overrides: Range<Int>) -> Int {
        var mask = 0
        for condition in overrides where holds(condition) { mask |= 1 << (condition - overrides.lowerBound) }
        return mask
    }

    /// Checks a present value (possibly `null`) against a field; the path stack already ends with its token.
    private mutating func checkValue(_ value: JSONDocument.Index, of field: Int, attributes: Attributes) {
        if value == probe { record(probedField: field) }
        if attributes.pointee.mustBeAbsent {
            find(.forbidden, field: field, at: value, attributes)
            return
        }
        let kind = nodes[value].kind
        if kind == .null {
            if attributes.pointee.mustBePresent {
                find(.required, field: field, at: value, attributes, detail: Finding.nullValue)
            } else if !attributes.pointee.acceptsNull {
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

    private mutating func checkString(_ value: JSONDocument.Index, field: Int, attributes: Attributes) {
        if nodes[value].flag {  // escaped: check the decoded text
            document.withStringBytes(at: value) { checkStringBytes($0, field: field, attributes: attributes) }
        } else {
            checkStringBytes(rawText(of: value), field: field, attributes: attributes)
        }
        if attributes.pointee.hasEnum { checkEnum(value, field: field, attributes: attributes) }
        if !work.failures.isEmpty { reportStringFailures(value, field: field, attributes: attributes) }
    }

    /// The string checks on a value's bytes: records the failed rules in `failures`.
    private mutating func checkStringBytes(_ bytes: UnsafeBufferPointer<UInt8>, field: Int, attributes: Attributes) {
        let length = Self.codePoints(in: bytes)
        let lengths = attributes.pointee.lengths
        if lengths.isBelow(length) { work.failures.append((.minLength, StringFailure.attribute)) }
        if lengths.isAbove(length) { work.failures.append((.maxLength, StringFailure.attribute)) }
        let dataType = tables.fields[field].dataType
        if let implied = dataType.impliedFormat, !implied.accepts(bytes, reference: reference) {
            work.failures.append((.format, StringFailure.impliedFormat))
        }
        let formats = attributes.pointee.formats
        if !formats.isEmpty {
            var accepted = false
            for format in formats where format.accepts(bytes, month: month, reference: reference) {
                accepted = true
                break
            }
            if !accepted { work.failures.append((.format, StringFailure.attribute)) }
        }
        let checks = attributes.pointee.checks
        let scratch = attributes.pointee.hasPatterns ? matchScratch() : nil
        for offset in checks.indices {
            let broken = checks[offset].check(bytes, length: length, scratch: scratch)
            if !broken.isEmpty { broken.forEachRule { work.failures.append(($0, offset)) } }
        }
    }

    /// What a card number of a known brand must be, naming the brand (never the number): "a Visa card number of 13,
    /// 16, or 19 digits with a valid check digit"; `nil` when the number has no brand the reference data knows.
    private func cardNumberTerm(at node: JSONDocument.Index) -> String? {
        guard nodes[node].kind == .string,
            case .brand(let index) = document.withStringBytes(at: node, { reference.cardBrands.detect(digitsOf: $0) })
        else { return nil }
        let brand = reference.cardBrands.brands[index]
        let lengths = brand.lengths.map(String.init)
        let list =
            lengths.count == 1
            ? lengths[0] : lengths.dropLast().joined(separator: ", ") + plan.messages.term("or") + lengths.last!
        let key = brand.luhn ? "format.card-number.brand" : "format.card-number.brand-without-check-digit"
        return plan.messages.phrase(key, ["brand": brand.name, "lengths": list])
    }

    /// The number of code points in UTF-8 text: its lead bytes.
    private static func codePoints(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Which check of a string failed, beside its rule: an `additionalDataValidations` offset (≥ 0) or one of these.
    fileprivate enum StringFailure {
        /// The field's own attribute (`minLength`, `maxLength`, `format`).
        static let attribute = -1
        /// The format the data type implies (``DataType/impliedFormat``).
        static let impliedFormat = -2
    }

    /// Records a finding for each entry of `failures`, then empties it.
    private mutating func reportStringFailures(_ value: JSONDocument.Index, field: Int, attributes: Attributes) {
        for (code, detail) in work.failures { find(code, field: field, at: value, attributes, detail: detail) }
        work.failures.removeAll(keepingCapacity: true)
    }

    private mutating func checkNumber(_ value: JSONDocument.Index, field: Int, attributes record: Attributes) {
        if record.pointee.hasValueRange {
            let range = attributeSet(record, of: field).valueRange
            let number = DecimalNumber(lexeme: document.numberLexeme(at: value))
            if range.isBelow(number) { find(.minimum, field: field, at: value, record) }
            if range.isAbove(number) { find(.maximum, field: field, at: value, record) }
        }
        checkEnum(value, field: field, attributes: record)
    }

    private mutating func checkEnum(_ value: JSONDocument.Index, field: Int, attributes record: Attributes) {
        guard record.pointee.hasEnum else { return }
        guard let options = attributeSet(record, of: field).options, !options.accepts(document, at: value) else {
            return
        }
        find(.enum, field: field, at: value, record)
    }

    private mutating func checkObject(_ object: JSONDocument.Index, of field: Int) {
        // One slot per member field, on the stack: the node of the member's value, or -1 while none is found.
        withUnsafeTemporaryAllocation(of: JSONDocument.Index.self, capacity: tables.fields[field].children.count) {
            found in
            found.initialize(repeating: -1)
            checkObject(object, of: field, found: found)
        }
    }

    private mutating func checkObject(
        _ object: JSONDocument.Index, of field: Int, found: UnsafeMutableBufferPointer<JSONDocument.Index>
    ) {
        let record = tables.fields.baseAddress.unsafelyUnwrapped + field  // read in place, not copied
        var unknownSeen: Set<String>?
        var cursor = object + 1
        let end = Int(nodes[object].end)
        while cursor < end {
            let keyIndex = cursor
            let valueIndex = cursor + 1
            cursor = Int(nodes[valueIndex].end)
            if let offset = lookUpKey(at: keyIndex, in: record.pointee.keys) {
                if found[offset] >= 0 {
                    work.path.append(.member(keyIndex))
                    find(
                        .duplicateKey, field: tables.children[record.pointee.children.lowerBound + offset],
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
            } else if !record.pointee.additionalFields {
                find(.unknownField, field: field, at: keyIndex, nil, detail: Finding.unknownMember)
            }
            work.path.removeLast()
        }
        if record.pointee.hasAddress && !selecting { return checkAddress(object, of: field, found: found) }
        let children = record.pointee.children
        for offset in children.indices {
            let child = tables.children[offset]
            let value = found[offset - children.lowerBound]
            if selecting {
                walkMember(child, value: value, in: object)
            } else {
                checkMember(child, value: value, in: object)
            }
        }
    }

    /// Checks the members of an address object (`postalAddress`), then what the country it names asks of them: the
    /// parts it requires, its postal-code pattern, its subdivisions, and the postal-code prefix of the subdivision
    /// named. A member that broke its own rules is not judged again by the country's, so that each gets one message.
    @inline(never)
    private mutating func checkAddress(
        _ object: JSONDocument.Index, of field: Int, found: UnsafeMutableBufferPointer<JSONDocument.Index>
    ) {
        let children = tables.fields[field].children
        // Bit i set when member i broke none of its own rules.
        var clean: UInt64 = 0
        for offset in children.indices {
            let member = offset - children.lowerBound
            let before = work.findings.count + omitted
            checkMember(tables.children[offset], value: found[member], in: object)
            if member < 64 && work.findings.count + omitted == before { clean |= 1 << UInt64(member) }
        }
        guard let address = tables.fieldObjects[field].address else { return }
        let countryValue = found[address.country]
        func isClean(_ member: Int) -> Bool { member < 64 && clean & (1 << UInt64(member)) != 0 }
        guard countryValue >= 0, isClean(address.country), nodes[countryValue].kind == .string,
            let countryIndex = document.withStringBytes(at: countryValue, { reference.addresses.index(of: $0) })
        else { return }  // no country, or one its own rules refuse or the data does not know: nothing to follow
        let country = reference.addresses.countries[countryIndex]
        // Which subdivision the state names, when the country has them: its postal-code prefix applies even where the
        // country's addresses do not show the state (Andorra's parishes), as in the data's own validator.
        var subdivision: Int?
        let stateMember = address.member(.state)
        let stateValue = stateMember >= 0 ? found[stateMember] : -1
        if stateValue >= 0, !country.subdivisions.isEmpty, nodes[stateValue].kind == .string,
            nodes[stateValue].length > 0
        {
            subdivision = document.withStringBytes(at: stateValue) { country.subdivision(named: $0) }
            if subdivision == nil && country.uses(.state) && isClean(stateMember) {
                report(
                    .enum, member: stateMember, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: -1))
            }
        }
        for part in AddressFormats.Part.allCases {
            let member = address.member(part)
            guard member >= 0, country.uses(part), isClean(member) else { continue }
            let value = found[member]
            let isEmpty =
                value < 0 || nodes[value].kind == .null || (nodes[value].kind == .string && nodes[value].length == 0)
            if isEmpty {
                if country.requires(part) {
                    report(
                        .required, member: member, of: field, in: object, found: found,
                        detail: Finding.address(country: countryIndex, subdivision: -1))
                }
                continue
            }
            guard part == .postalCode, nodes[value].kind == .string else { continue }
            let scratch = matchScratch()
            let subdivisionPrefix = subdivision.flatMap { country.subdivisions[$0].prefix }
            let verdict: (whole: Bool?, prefix: Bool?) = document.withStringBytes(at: value) { bytes in
                (
                    country.postalCode?.matches(bytes, scratch: scratch),
                    subdivisionPrefix?.matches(bytes, scratch: scratch)
                )
            }
            if verdict.whole == false {
                report(
                    .format, member: member, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: -1))
            } else if verdict.prefix == false, let subdivision {
                report(
                    .format, member: member, of: field, in: object, found: found,
                    detail: Finding.address(country: countryIndex, subdivision: subdivision))
            }
        }
    }

    /// Records an address finding on a member of an address object, present or missing.
    private mutating func report(
        _ rule: ViolationCode, member: Int, of field: Int, in object: JSONDocument.Index,
        found: UnsafeMutableBufferPointer<JSONDocument.Index>,
        detail: Int
    ) {
        let child = tables.children[tables.fields[field].children.lowerBound + member]
        let value = found[member]
        let attributes = attributes(tables.fields[child].base)
        if value >= 0 {
            work.path.append(.member(value - 1))
            find(rule, field: child, at: value, attributes, detail: detail)
        } else {
            work.path.append(.missing(child))
            find(rule, field: child, at: object, attributes, detail: detail)
        }
        work.path.removeLast()
    }

    /// Checks a field of an object when it is selected, or walks through it when it encloses selected fields.
    private mutating func walkMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        if plan.provisioning && ignoredForProvisioning(child) { return }
        guard let subset = plan.subset else { return }
        let id = ObjectIdentifier(tables.fieldObjects[child])
        if subset.selected.contains(id) {
            selecting = false
            checkMember(child, value: value, in: object)
            selecting = true
        } else if value >= 0, subset.enclosing.contains(id) {
            work.path.append(.member(value - 1))
            withBindingsIfAny(of: child, value: value) { $0.walkThrough(value, of: child) }
            work.path.removeLast()
        }
    }

    /// Checks one field of an object: its value when present (`value` ≥ 0), or whether it may be missing.
    @inline(__always)
    private mutating func checkMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        if tables.fields[child].hasBindings { return checkBindingMember(child, value: value, in: object) }
        if plan.provisioning && ignoredForProvisioning(child) { return }
        withAttributes(of: child) { $0.checkMember(child, value: value, in: object, attributes: $1) }
    }

    /// ``checkMember(_:value:in:)`` for a field that binds contexts, kept out of line: most fields bind none.
    @inline(never)
    private mutating func checkBindingMember(_ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index) {
        withBindings(of: child, value: value) { evaluation in
            if evaluation.plan.provisioning && evaluation.ignoredForProvisioning(child) { return }
            evaluation.withAttributes(of: child) { $0.checkMember(child, value: value, in: object, attributes: $1) }
        }
    }

    /// An array item whose field binds contexts, kept out of line as ``checkBindingMember(_:value:in:)`` is.
    @inline(never)
    private mutating func checkBindingItem(_ element: JSONDocument.Index, of items: Int) {
        withBindings(of: items, value: element) {
            $0.withAttributes(of: items) { $0.checkValue(element, of: items, attributes: $1) }
        }
    }

    /// Whether a field is marked `ignoreForProvisioning` under the tender type in force.
    private func ignoredForProvisioning(_ field: Int) -> Bool {
        boundTenderType >= 0
            ? tables.fieldObjects[field].metadata(for: tenderType).ignoreForProvisioning == true
            : plan.ignoredForProvisioning[field]
    }

    /// Runs `body` with the field's bindings in force when it has any (off the hot path: one-step form checks).
    private mutating func withBindingsIfAny(
        of field: Int, value: JSONDocument.Index, _ body: (inout Evaluation) -> Void
    ) {
        if tables.fields[field].hasBindings { withBindings(of: field, value: value, body) } else { body(&self) }
    }

    /// Runs `body` with the contexts and tender type a field binds in force for its value (`value` ≥ 0 when present),
    /// then restores what was in force outside it. A member or `derive` binding reads the field's own object (a
    /// relative pointer's `0`); when it finds no value, or the field is missing, the value from outside stays.
    private mutating func withBindings(of field: Int, value: JSONDocument.Index, _ body: (inout Evaluation) -> Void) {
        let savedContext = work.context
        let savedTenderType = boundTenderType
        var condition = tables.fields[field].bindingConditions
        let isObject = value >= 0 && nodes[value].kind == .object
        if isObject { work.containers.append(value) }
        for binding in tables.fieldObjects[field].bindings {
            var bound: String?
            switch binding.source {
            case .value(let fixed):
                bound = fixed
            case .member:
                bound = binding.memberValue(in: document, at: isObject ? value : nil)
            case .derive(let rules):
                for rule in rules.indices {
                    if bound == nil && isObject && holds(condition + rule) { bound = rules[rule].value }
                }
                condition += rules.count
            }
            guard let bound else { continue }
            if let slot = binding.slot {
                work.context[slot] = bound
            } else if let index = plan.schema.tenderTypes.firstIndex(of: bound) {
                boundTenderType = index
            }
        }
        if isObject { work.containers.removeLast() }
        body(&self)
        work.context = savedContext
        boundTenderType = savedTenderType
    }

    private mutating func checkMember(
        _ child: Int, value: JSONDocument.Index, in object: JSONDocument.Index, attributes: Attributes
    ) {
        if value >= 0 {
            work.path.append(.member(value - 1))  // in the tape, a member's name node directly precedes its value
            checkValue(value, of: child, attributes: attributes)
            work.path.removeLast()
        } else if attributes.pointee.mustBePresent {
            work.path.append(.missing(child))
            find(.required, field: child, at: object, attributes)
            work.path.removeLast()
        }
    }

    private mutating func checkArray(_ array: JSONDocument.Index, of field: Int, attributes: Attributes) {
        let count = document.count(of: array)
        let counts = attributes.pointee.itemCounts
        if counts.isBelow(count) { find(.minItems, field: field, at: array, attributes) }
        if counts.isAbove(count) { find(.maxItems, field: field, at: array, attributes) }
        checkEnum(array, field: field, attributes: attributes)
        let items = tables.fields[field].items
        guard items >= 0 else { return }
        let bound = tables.fields[items].hasBindings
        for (offset, element) in document.elements(of: array).enumerated() {
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
    private mutating func matchScratch() -> MatchScratch {
        if let scratch = work.match { return scratch }
        let created = MatchScratch()
        work.match = created
        return created
    }

    // MARK: - Conditions

    /// Whether condition `index` of the program holds for this request.
    private mutating func holds(_ index: Int) -> Bool {
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
        program.tests[test].holds(forContext: work.context[slot])
    }

    mutating func testTenderType(_ test: Int, in program: RuleProgram.Tables) -> Bool? {
        program.tests[test].holds(forContext: tenderType)
    }

    /// Tests a request value found by a pointer, reading the document through ``nodes`` and ``bytes``.
    private mutating func holds(_ test: Int, for value: JSONDocument.Index?) -> Bool {
        let record = tables.tests.baseAddress.unsafelyUnwrapped + test  // read in place, not copied
        switch record.pointee.kind {
        case .absent: return value == nil
        case .null: return value.map { nodes[$0].kind == .null } ?? false
        case .present: return value.map { nodes[$0].kind != .null } ?? false
        case .oneOfStrings:
            guard let value, nodes[value].kind == .string else { return false }
            return lookUpKey(at: value, in: record.pointee.keys) != nil
        case .matches:
            guard let value, nodes[value].kind == .string, let pattern = record.pointee.pattern else { return false }
            let scratch = matchScratch()
            return document.withStringBytes(at: value) { bytes in
                pattern.match(bytes: bytes, knownValidUTF8: true, scratch: scratch) == .match
            }
        case .equals, .oneOf:
            guard let value else { return false }
            return tables.testObjects[test].values.contains { $0.matches(document, at: value) }
        case .cardBrand:
            guard let value, nodes[value].kind == .string else { return false }
            // A `cardBrandOf` rule is one test per brand on the same number: the brand is found once.
            if lastCardBrand.node != value {
                let detection = document.withStringBytes(at: value) { reference.cardBrands.detect(digitsOf: $0) }
                if case .brand(let index) = detection {
                    lastCardBrand = (value, index)
                } else {
                    lastCardBrand = (value, -1)
                }
            }
            return lastCardBrand.brand >= 0 && record.pointee.brandMask & (1 << UInt64(lastCardBrand.brand)) != 0
        }
    }

    /// The entry of a table whose bytes are a string node's text.
    private mutating func lookUpKey(at index: JSONDocument.Index, in table: KeyTable.View) -> Int? {
        let node = nodes[index]
        guard !node.flag else { return document.lookUpKey(at: index, in: table) }
        return table.lookup(rawText(of: index))
    }

    /// Follows a condition's pointer; `nil` when the value does not exist.
    private mutating func resolve(up: Int, tokens: Range<Int>) -> JSONDocument.Index? {
        var current: JSONDocument.Index
        if up >= 0 {
            guard up < work.containers.count else { return nil }
            current = work.containers[work.containers.count - 1 - up]
        } else {
            current = document.root
        }
        for offset in tokens {
            let token = tables.tokens[offset]
            switch nodes[current].kind {
            case .object:
                var next: JSONDocument.Index?
                var cursor = current + 1
                let end = Int(nodes[current].end)
                while cursor < end {
                    if lookUpKey(at: cursor, in: token.keys) != nil {
                        next = cursor + 1
                        break
                    }
                    cursor = Int(nodes[cursor + 1].end)
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

    // MARK: - Findings

    /// Records a violation of `rule` by `field` at `node` (the path stack already ends with its token); its text is
    /// written when the walk is done. Past ``maxErrors`` it is only counted.
    private mutating func find(
        _ rule: ViolationCode, field: Int, at node: JSONDocument.Index, _ attributes: Attributes?, detail: Int = 0
    ) {
        assert(rule.ordinal >= 0, "a finding's rule is one of the engine's own codes")
        guard work.findings.count < maxErrors else {
            omitted += 1
            return
        }
        var set = Finding.noAttributes
        if let attributes {
            if attributes.pointee.object >= 0 {
                set = attributes.pointee.object
            } else {
                // Computed for this value only: kept now, while the conditions that chose it read the same containers.
                computedSets.append(computedAttributes(of: field))
                set = -computedSets.count
            }
        }
        let start = work.pathArena.count
        work.pathArena.append(contentsOf: work.path)
        work.findings.append(
            Finding(
                ruleOrdinal: rule.ordinal, field: field, node: node, attributes: set, detail: detail,
                path: start..<work.pathArena.count))
    }

    // MARK: - Reporting

    /// Turns the walk's findings into violations: message, JSON Pointer, line and column, fingerprint.
    fileprivate mutating func writeViolations() {
        guard !work.findings.isEmpty else { return }
        violations.reserveCapacity(work.findings.count)
        for index in work.findings.indices {
            let finding = work.findings[index]
            let set: AttributeSet? =
                finding.attributes == Finding.noAttributes
                ? nil
                : finding.attributes >= 0
                    ? tables.attributeObjects[finding.attributes] : computedSets[-finding.attributes - 1]
            let key =
                finding.detail == Finding.unknownMember
                ? document.string(at: finding.node) : tables.fieldObjects[finding.field].key ?? ""
            let rule = finding.rule
            var violation = Violation(
                path: pointer(finding.path), key: key, rule: rule, message: message(for: finding, rule, set, key: key),
                position: positions ? position(of: finding.node) : nil)
            if let fingerprinter = plan.fingerprinter, rule != .unknownField, rule != .duplicateKey, rule != .required {
                switch document.kind(of: finding.node) {
                case .string:
                    violation.fingerprint = document.withStringBytes(at: finding.node) { fingerprinter.fingerprint($0) }
                case .number:
                    var text = document.numberLexeme(at: finding.node)
                    violation.fingerprint = text.withUTF8 { fingerprinter.fingerprint($0) }
                default: break
                }
            }
            violations.append(violation)
        }
    }

    /// A finding's message in the plan's language.
    private mutating func message(for finding: Finding, _ rule: ViolationCode, _ set: AttributeSet?, key: String)
        -> String
    {
        let node = finding.node
        let name = set?.name.text(in: plan.messages.language) ?? ""
        if let (countryIndex, subdivision) = Finding.address(finding.detail) {
            return addressMessage(
                rule, set, country: reference.addresses.countries[countryIndex], subdivision: subdivision)
        }
        switch rule {
        case .forbidden:
            return text(.forbidden, set, fallback: set?.message, .init(name: name))
        case .required:
            if finding.detail == Finding.nullValue { return text(.required, set, variant: "null", .init(name: name)) }
            return text(.required, set, fallback: set?.message, .init(name: name))
        case .null:
            return text(.null, set, .init(name: name))
        case .type:
            let kind = nodes[node].kind
            let dataType = tables.fields[finding.field].dataType
            let messages = plan.messages
            let found =
                kind == .number && dataType == .integer
                ? messages.term("kind.fraction")
                : messages.term("kind.\(kind.description)")
            let expected = messages.term("type.\(dataType.rawValue)")
            return text(.type, set, .init(name: name, expected: expected, found: found))
        case .minimum, .maximum:
            let bound = set?.valueRange.bound(for: rule)?.description
            return text(
                rule, set, fallback: set?.message,
                rule == .minimum ? .init(name: name, min: bound) : .init(name: name, max: bound))
        case .enum:
            let list = set?.options?.labels ?? []
            return text(
                .enum, set, variant: list.count == 1 ? nil : "list", fallback: set?.message,
                .init(name: name, expected: list.joined(separator: ", ")))
        case .duplicateKey:
            if finding.detail == Finding.unknownMember {
                return text(.duplicateKey, nil, variant: "unknown", .init(key: key))
            }
            return text(
                .duplicateKey, nil,
                .init(name: tables.fieldObjects[finding.field].label.text(in: plan.messages.language)))
        case .unknownField:
            let object = tables.fieldObjects[finding.field]
            let suggestion = Suggestion.closest(to: key, in: object.fields.compactMap(\.key))
            return text(
                .unknownField, nil, variant: suggestion == nil ? nil : "suggestion",
                .init(name: object.label.text(in: plan.messages.language), key: key, suggestion: suggestion))
        case .minItems, .maxItems:
            let count = String(document.count(of: node))
            let bound = set?.itemCounts.bound(for: rule) ?? 0
            return text(
                rule, set, variant: bound == 1 ? "one" : nil, fallback: set?.message,
                rule == .minItems
                    ? .init(name: name, min: String(bound), count: count)
                    : .init(name: name, max: String(bound), count: count))
        default:
            return stringMessage(for: finding, rule, set)
        }
    }

    /// The message of a failed string check (`minLength`, `maxLength`, `format`, `regex`, `regexLimit`).
    private mutating func stringMessage(for finding: Finding, _ code: ViolationCode, _ set: AttributeSet?) -> String {
        guard let attributes = set else { return text(code, nil, .init()) }
        let name = attributes.name.text(in: plan.messages.language)
        let detail = finding.detail
        // The length of a sensitive value is not shown: a PIN's length is a clue to it.
        let count: String? =
            tables.fields[finding.field].sensitive
            ? nil
            : String(
                nodes[finding.node].flag
                    ? document.withStringBytes(at: finding.node) { Self.codePoints(in: $0) }
                    : Self.codePoints(in: rawText(of: finding.node)))
        let variant = count == nil ? nil : "count"
        let validation = (code == .format || detail < 0) ? nil : attributes.validations[detail]
        switch code {
        case .minLength, .maxLength:
            let bound = String((validation?.lengths ?? attributes.lengths).bound(for: code) ?? 0)
            return text(
                code, attributes, variant: variant, fallback: validation?.message ?? attributes.message,
                code == .minLength
                    ? .init(name: name, min: bound, count: count) : .init(name: name, max: bound, count: count))
        case .format:
            let implied = tables.fields[finding.field].dataType.impliedFormat
            let formats = detail == StringFailure.impliedFormat ? Array(implied.map { [$0] } ?? []) : attributes.formats
            let expected = formats.map { format in
                (format.isCardNumber ? cardNumberTerm(at: finding.node) : nil) ?? plan.messages.formatTerms[format]
                    ?? format.article
            }.joined(separator: plan.messages.term("or"))
            return text(
                .format, attributes,
                fallback: tables.fields[finding.field].dataType == .string ? attributes.message : nil,
                .init(name: name, expected: expected))
        case .regex:
            return text(
                .regex, attributes, fallback: validation?.message, .init(name: name, pattern: validation?.regex ?? ""))
        default:
            return text(code, attributes, .init(name: name, pattern: validation?.regex ?? ""))
        }
    }

    /// The message of what an address's country asks of a part, naming the country (by its ISO 3166-1 name) and
    /// giving an example from the data: "Postal code must look like 1000 for Bulgaria".
    private func addressMessage(
        _ rule: ViolationCode, _ set: AttributeSet?, country: AddressFormats.Country, subdivision: Int
    ) -> String {
        let name = set?.name.text(in: plan.messages.language) ?? ""
        let countryName = reference.countries.name(of: country.code, in: plan.messages.language)
        switch rule {
        case .required:
            return text(.required, set, variant: "country", .init(name: name, detail: countryName))
        case .enum:
            let first = country.subdivisions[0]
            let example = first.names.first.map { "\(first.key) (\($0))" } ?? first.key
            let kind = plan.messages.term("subdivision.\(country.subdivisionName)")
            return text(
                .enum, set, variant: "subdivision",
                .init(name: name, expected: example, found: kind, detail: countryName))
        default:
            guard subdivision >= 0 else {
                return text(
                    .format, set, variant: "postalCode",
                    .init(name: name, expected: country.examples.first ?? "", detail: countryName))
            }
            let region = country.subdivisions[subdivision]
            let place = "\(region.names.first ?? region.key), \(countryName)"
            if let example = region.examples.first {
                return text(.format, set, variant: "postalCode", .init(name: name, expected: example, detail: place))
            }
            return text(
                .format, set, variant: "postalCodePrefix",
                .init(name: name, pattern: region.postalCodePrefix ?? "", detail: place))
        }
    }

    /// A violation's message: the field's own message for the rule in the catalogue's language, else the schema's
    /// older `message` / validation `message` (`fallback`), else the catalogue's.
    private func text(
        _ rule: ViolationCode, _ attributes: AttributeSet?, variant: String? = nil, fallback: LocalizedText? = nil,
        _ parameters: MessageParameters
    ) -> String {
        if let template = attributes?.messages?.template(for: rule, language: plan.messages.language) {
            return template.render(parameters)
        }
        if let fallback { return fallback.text(in: plan.messages.language) }
        return plan.messages.message(rule, variant: variant, parameters)
    }

    /// The JSON Pointer of a finding's path tokens, written straight into the string's storage: one allocation
    /// (none up to 15 bytes) instead of a string per token.
    private func pointer(_ tokens: Range<Int>) -> String {
        let path = work.pathArena[tokens]
        var escapedKeys: [String] = []  // member names with JSON escapes, decoded and escaped (rare)
        var length = 0
        for token in path {
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
            case .missing(let field): length += tables.fieldObjects[field].pointerToken.utf8.count
            case .index(let index): length += Self.digits(index)
            }
        }
        var escapedKey = 0
        return String(unsafeUninitializedCapacity: length) { buffer in
            var at = 0
            for token in path {
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
                    for byte in tables.fieldObjects[field].pointerToken.utf8 {
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
}

extension EvaluationPlan {
    /// Checks a whole request: its violations (at most ``maxErrors``), how many more were found, and what `finish`
    /// makes of the context values in force (supplied or derived).
    ///
    /// One of the two places an ``Evaluation`` is made: the plan and the schema's ``RuleProgram``, which the
    /// evaluation reads without reference counts, stay alive until it returns.
    func evaluate<Context>(
        _ document: JSONDocument, positions: Bool, month: Int, finish: ([String?]) -> Context
    ) -> (violations: [Violation], omitted: Int, context: Context) {
        withExtendedLifetime(self) {
            schema.program.withTables { tables in
                var evaluation = Evaluation(
                    document: document, plan: self, tables: tables, positions: positions, month: month)
                let context = evaluation.withDocument(
                    {
                        $0.evaluate()
                        $0.writeViolations()
                    }, finish: finish)
                return (evaluation.violations, evaluation.omitted, context)
            }
        }
    }

    /// Checks a whole request as ``evaluate(_:positions:month:finish:)`` does, keeping every violation, and says
    /// which rules held at one of its values (`nil` when the walk did not reach it). What a form's draft is checked
    /// with while a field is typed; one of the places an ``Evaluation`` is made.
    func evaluate(_ document: JSONDocument, probing node: JSONDocument.Index, month: Int)
        -> (violations: [Violation], probed: RulesInForce?)
    {
        withExtendedLifetime(self) {
            schema.program.withTables { tables in
                var evaluation = Evaluation(
                    document: document, plan: self, tables: tables, positions: false, month: month, probe: node)
                evaluation.withDocument(
                    {
                        $0.evaluate()
                        $0.writeViolations()
                    }, finish: { _ in })
                return (evaluation.violations, evaluation.probed)
            }
        }
    }

    /// Checks one value against a field's base rules alone (a field's `defaultValue`); the other place an
    /// ``Evaluation`` is made.
    func check(_ document: JSONDocument, against field: CompiledField) -> [Violation] {
        withExtendedLifetime(self) {
            schema.program.withTables { tables in
                guard let id = schema.program.id(of: field) else { return [] }
                var evaluation = Evaluation(document: document, plan: self, tables: tables, positions: false, month: 0)
                evaluation.withDocument(
                    {
                        $0.check(document.root, of: id)
                        $0.writeViolations()
                    }, finish: { _ in })
                return evaluation.violations
            }
        }
    }
}
