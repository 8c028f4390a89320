/// The violations of a report, sorted by JSON Pointer and then rule.
///
/// Validation keeps what it found as data (the rule, the field, the check broken, a length or count, the line and
/// column, the pointer's bytes) in one buffer, and writes a violation's message only when the violation is read:
/// `count` and `isEmpty` write nothing, and the report writers of `dce-validate` write each message straight into
/// their output. Reading an element writes its text anew each time, so keep the element when you read it more than
/// once:
///
/// ```swift
/// let report = prepared.validate(json: payload)
/// if !report.errors.isEmpty {
///     for error in report.errors { show(error.path, error.message) }   // each written once, here
/// }
/// ```
///
/// It holds none of the payload's values, only member names (in pointers and keys): a report may be kept after the
/// payload is gone. It holds the prepared schema's rules and messages, which word its violations.
///
/// A collection, not an array: `Array(report.errors)` makes one, and ``init(_:)`` a list of violations made elsewhere.
public struct ViolationList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible, CustomReflectable
{
    /// `@unchecked Sendable` because the standard library makes no `ManagedBuffer` sendable: a ``FoundViolations``
    /// is never changed once made, so it is safe to share.
    private enum Storage: @unchecked Sendable {
        case written([Violation])
        case found(FoundViolations)
    }

    private var storage: Storage
    /// For the violations of an NDJSON record: the line of the file every violation with a position is on.
    private var placedLine: Int?

    /// A list of violations as given, in that order.
    ///
    /// - Parameter violations: The violations.
    public init(_ violations: [Violation] = []) {
        storage = .written(violations)
    }

    /// A list of violations as given, in that order.
    ///
    /// - Parameter elements: The violations.
    public init(arrayLiteral elements: Violation...) {
        storage = .written(elements)
    }

    /// The violations one validation found, kept as data.
    init(found: FoundViolations) {
        storage = .found(found)
    }

    /// The position of the first violation: 0.
    public var startIndex: Int { 0 }

    /// One past the last violation's position: the number of violations.
    public var endIndex: Int {
        switch storage {
        case .written(let violations): violations.count
        case .found(let found): found.count
        }
    }

    /// The violation at `position`, its message written now when the list was found by validation.
    ///
    /// - Parameter position: A place from 0 to `count - 1`.
    public subscript(position: Int) -> Violation {
        switch storage {
        case .written(let violations): return placed(violations[position])
        case .found(let found):
            precondition(position >= 0 && position < found.count, "index out of range")
            return placed(found.violation(at: position))
        }
    }

    /// Goes through the violations in order; the first step writes them all at once (one writer for the list, not one
    /// per element), so a loop that stops early has still paid for every message.
    public struct Iterator: IteratorProtocol {
        private let list: ViolationList
        private var written: [Violation]?
        private var position = 0

        fileprivate init(_ list: ViolationList) { self.list = list }

        /// The next violation, or `nil` past the last.
        ///
        /// - Returns: The violation.
        public mutating func next() -> Violation? {
            guard position < list.count else { return nil }
            if written == nil { written = list.writtenOut() }
            defer { position += 1 }
            return written?[position]
        }
    }

    /// An iterator over the violations, which writes them all when it first steps.
    ///
    /// - Returns: The iterator.
    public func makeIterator() -> Iterator { Iterator(self) }

    /// Every violation written out, under one writer.
    private func writtenOut() -> [Violation] {
        var violations: [Violation]
        switch storage {
        case .written(let given): violations = given
        case .found(let found):
            violations = found.withWriter { writer in (0..<found.count).map { writer.violation(at: $0) } }
        }
        if placedLine != nil {
            for index in violations.indices { violations[index] = placed(violations[index]) }
        }
        return violations
    }

    /// A violation with a position moved onto ``placedLine``, when the list has one.
    private func placed(_ violation: Violation) -> Violation {
        guard let placedLine, violation.line != nil else { return violation }
        var moved = violation
        moved.line = placedLine
        return moved
    }

    /// The violations, each written out, as an array describes them.
    public var description: String { Array(self).description }

    /// The violations, as `dump` and debuggers show a list: never the schema and plan that word them.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }

    /// Whether two lists hold the same violations in the same order, however each was made.
    ///
    /// - Parameters:
    ///   - lhs: A list.
    ///   - rhs: Another list.
    /// - Returns: `true` when every violation is equal to the one at its place in the other.
    public static func == (lhs: ViolationList, rhs: ViolationList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the violations, each written out, so that equal lists hash alike however each was made.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for violation in self { hasher.combine(violation) }
    }

    /// Every byte a list found by validation keeps (its records, then its text); `nil` for violations given written.
    /// What the tests search for values a report must not keep.
    var keptBytes: [UInt8]? {
        guard case .found(let found) = storage else { return nil }
        return found.keptBytes
    }

    /// This list with every violation that has a position moved onto `line`: an NDJSON record's positions are
    /// relative to the record, which is one line of its file.
    package func placed(onLine line: Int) -> ViolationList {
        var copy = self
        copy.placedLine = line
        return copy
    }

    /// Calls `body` with each violation as a report writer reads it: its pointer, key and message written straight
    /// into the report's bytes when the list was found by validation, with no string made of them.
    package func forEachReported(_ body: (ReportedViolation) -> Void) {
        switch storage {
        case .found(let found):
            found.withWriter { writer in
                for index in 0..<found.count {
                    body(ReportedViolation(found: found.record(at: index), writer: writer, line: placedLine))
                }
            }
        case .written(let violations):
            for violation in violations { body(ReportedViolation(written: placed(violation))) }
        }
    }

    /// Whether one record comes before another in a report: by JSON Pointer, then by rule, as `String` compares them
    /// (the order of ``ValidationReport/errors`` however it was made). Pointers of ASCII compare by their bytes,
    /// which is the same order; others as strings, which compare canonically equivalent text as equal.
    static func precedes(_ lhs: FoundViolation, _ rhs: FoundViolation, in text: [UInt8]) -> Bool {
        let order = text.withSpan { text in
            let left = text.extracting(lhs.pointer)
            let right = text.extracting(rhs.pointer)
            if left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) { return left.compared(to: right) }
            let leftText = left.decoded
            let rightText = right.decoded
            return leftText < rightText ? -1 : leftText == rightText ? 0 : 1
        }
        return order < 0 || (order == 0 && lhs.rule < rhs.rule)
    }
}

extension ViolationList: Codable {
    /// Decodes a JSON array of violations.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the value is not an array of violations.
    public init(from decoder: any Decoder) throws {
        storage = .written(try decoder.singleValueContainer().decode([Violation].self))
    }

    /// Encodes the violations as a JSON array, each written out.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }
}

/// One violation as a report writer reads it (``ViolationList/forEachReported(_:)``), valid only during the call that
/// gives it: its rule, line, column and fingerprint, and its pointer, key and message written into the report's bytes.
package struct ReportedViolation {
    private enum Source {
        case written(Violation)
        case found(FoundViolation, ViolationWriter)
    }

    private let source: Source
    package let rule: ViolationCode
    package let line: Int?
    package let column: Int?
    package let fingerprint: String?

    fileprivate init(written violation: Violation) {
        source = .written(violation)
        rule = violation.rule
        line = violation.line
        column = violation.column
        fingerprint = violation.fingerprint
    }

    fileprivate init(found record: FoundViolation, writer: ViolationWriter, line placedLine: Int?) {
        source = .found(record, writer)
        rule = record.rule
        let position = writer.position(of: record)
        line = position.map { placedLine ?? $0.line }
        column = position?.column
        fingerprint = writer.fingerprint(of: record)
    }

    /// Whether the JSON Pointer is the empty one (the whole payload).
    package var isAtRoot: Bool {
        switch source {
        case .written(let violation): violation.path.isEmpty
        case .found(let record, _): record.pointer.isEmpty
        }
    }

    /// Appends the JSON Pointer, escaped as the report's format needs.
    package func appendPath(to output: inout ByteBuilder, escaping: ReportEscaping) {
        switch source {
        case .written(let violation): output.append(violation.path, escaping: escaping)
        case .found(let record, let writer):
            writer.found.withText(record.pointer) { output.append($0, escaping: escaping) }
        }
    }

    /// Appends `:line:column`, as a location after a file name: the line when known, and the column when known and,
    /// unless `columnAlone`, when the line is too. (Validation finds both or neither; a `Violation` made by hand may
    /// have a column alone.)
    package func appendLineAndColumn(to output: inout ByteBuilder, columnAlone: Bool) {
        if let line {
            output.append(UInt8(ascii: ":"))
            output.append(line)
        }
        if let column, line != nil || columnAlone {
            output.append(UInt8(ascii: ":"))
            output.append(column)
        }
    }

    /// Appends `pointer: message`, or the message alone for the whole payload, escaped as the report's format needs.
    package func appendPathAndMessage(to output: inout ByteBuilder, escaping: ReportEscaping) {
        if !isAtRoot {
            appendPath(to: &output, escaping: escaping)
            output.append(": ")
        }
        appendMessage(to: &output, escaping: escaping)
    }

    /// Appends the key, escaped as the report's format needs.
    package func appendKey(to output: inout ByteBuilder, escaping: ReportEscaping) {
        switch source {
        case .written(let violation): output.append(violation.key, escaping: escaping)
        case .found(let record, let writer):
            if record.keyIsMemberName {
                writer.found.withText(record.key) { output.append($0, escaping: escaping) }
            } else {
                output.append(writer.tables.fieldObjects[record.field].key ?? "", escaping: escaping)
            }
        }
    }

    /// Appends the message, escaped as the report's format needs. A violation found by validation writes its message
    /// piece by piece into the bytes.
    package func appendMessage(to output: inout ByteBuilder, escaping: ReportEscaping) {
        switch source {
        case .written(let violation): output.append(violation.message, escaping: escaping)
        case .found(let record, let writer):
            let literal = escaping == .jsonLiteral
            if literal { output.append(UInt8(ascii: "\"")) }
            // Moved in and out of the sink, not copied: a copy would make the bytes grow anew.
            var sink = ReportBytes(escaping: escaping)
            swap(&sink.output, &output)
            writer.message(for: record, into: &sink)
            swap(&sink.output, &output)
            if literal { output.append(UInt8(ascii: "\"")) }
        }
    }
}
