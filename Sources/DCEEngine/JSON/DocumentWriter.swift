public import Foundation

/// A value that writes itself as the document the engine reads, member by member, with no `Encoder` in between.
///
/// The models `dce-validate generate swift` writes conform, in the order their schema declares its fields, and so do
/// the scalars they are made of. A ``ValidatableRequest`` that does not implement it is written through its
/// `Encodable` conformance instead.
///
/// ```swift
/// extension Nickname: DocumentWritable {
///     func write(to writer: inout DocumentWriter) {
///         writer.beginObject()
///         writer.member("nickname", nickname)
///         writer.member("note", note)  // an optional left out when nil
///         writer.endObject()
///     }
/// }
/// ```
public protocol DocumentWritable {
    /// Writes this value as one JSON value.
    ///
    /// - Parameter writer: The writer, which records a misuse (a key twice, a member outside an object) and fails
    ///   when the document is taken from it.
    func write(to writer: inout DocumentWriter)
}

/// Writes one JSON value as the engine's document: its text, and beside it the nodes the engine walks, so that a
/// typed request is never read back.
///
/// Calls nest as the JSON does: ``beginObject()``, then a `key(_:)` and a value for each member, then
/// ``endObject()``; in an array, each value is an item. A misuse is not a crash: the first one is kept, and the
/// request is refused with it when it is validated (``ValidatorError/Code/encoding``).
public struct DocumentWriter: ~Copyable {
    /// An open object or array.
    fileprivate struct Container {
        /// Its node.
        var node: Int
        var isArray: Bool
        var count = 0
        /// A bit for each ASCII name's length and first byte (worked out as a key is finished): a name whose bit is
        /// clear was not written before, and is not compared with the others.
        var signatures: UInt64 = 0
        /// Whether a name beyond ASCII was written, which only unescaping compares.
        var beyondASCII = false
    }

    /// The memory written into, one field so that it is taken and given back in one move.
    private var memory: Storage
    /// The document's text.
    private var bytes: ByteStore {
        _read { yield memory.bytes }
        _modify { yield &memory.bytes }
    }
    /// The document's nodes, in the reader's layout (``JSONDocument/Node``).
    private var nodes: ContiguousArray<JSONDocument.Node> {
        get { memory.nodes }
        _modify { yield &memory.nodes }
    }
    /// The document's text as the document holds it, copied from ``bytes`` when the document is taken.
    private var text: ContiguousArray<UInt8> {
        get { memory.text }
        _modify { yield &memory.text }
    }
    /// The innermost open container, kept apart from the ones around it so that writing into it changes no array.
    private var current: Container?
    /// The containers around ``current``, outermost first.
    private var outer: [Container] {
        get { memory.outer }
        _modify { yield &memory.outer }
    }
    /// Whether a value is due: at the start, and after a key.
    private var expectingValue = true
    /// Whether the text must be read rather than its nodes taken: a scalar whose text is not JSON.
    private var mustRead = false
    /// The deepest nesting and the longest string: past the reader's limits, the text is read, and refused as the
    /// reader refuses it.
    private var deepest = 0
    private var longestString = 0
    /// The document a value made through its `Encodable` conformance, whole (``encode(_:)`` at the top).
    private var whole: JSONDocument?
    /// The first thing that went wrong; nothing is written after it.
    private var failure: (any Error)?

    /// A writer of one value.
    public init() { self.init(reusing: Storage()) }

    /// The memory a writer writes into, kept between documents so that writing a typed request allocates nothing once
    /// a few have been written: four allocations cost about a fifth of validating a small request (``Validator``
    /// keeps one per thread, `WriterMemory`).
    package struct Storage: ~Copyable, Sendable {
        fileprivate var bytes = ByteStore()
        fileprivate var nodes: ContiguousArray<JSONDocument.Node> = []
        fileprivate var text: ContiguousArray<UInt8> = []
        fileprivate var outer: [Container] = []

        /// Empty memory for a small document; it grows as documents need.
        package init() {
            nodes.reserveCapacity(48)
        }

        /// Whether it is small enough to keep: memory a large document made grow is given back.
        package var isWorthKeeping: Bool { text.capacity <= 1 << 16 && nodes.capacity <= 1 << 12 }
    }

    /// A writer of one value into memory kept from an earlier one.
    ///
    /// - Parameter storage: The memory, as ``storage(recycling:)`` gave it back; what it held is forgotten.
    package init(reusing storage: consuming Storage) {
        memory = storage
    }

    /// The writer's memory, with the memory of the document it wrote given back, for the next writer.
    ///
    /// - Parameter document: The document ``document(limits:)`` returned, no longer needed; `nil` when none was.
    /// - Returns: The memory.
    package consuming func storage(recycling document: consuming JSONDocument?) -> Storage {
        // Moved, not bound: a binding would be a second reference, and the arrays then not the writer's alone.
        if let document = consume document {
            (memory.text, memory.nodes) = document.storage()
        }
        // Each emptying is a uniqueness check and a generic replacement, a few hundred instructions a typed request:
        // the text is emptied when it is next copied into, the containers are left empty by every finished document.
        bytes.removeAll()
        nodes.removeAll(keepingCapacity: true)
        if !outer.isEmpty { outer.removeAll(keepingCapacity: true) }
        return memory
    }

    /// Why a document could not be written: a misuse of the writer, named without any value.
    struct Misuse: Error, CustomStringConvertible {
        var description: String
    }

    private mutating func fail(_ description: @autoclosure () -> String) {
        if failure == nil { failure = Misuse(description: description()) }
    }

    /// Starts a value: a new item in an array; `false`, after recording why, when no value is due.
    private mutating func startValue(_ what: StaticString) -> Bool {
        guard failure == nil else { return false }
        if current?.isArray == true {
            if current!.count > 0 { bytes.append(UInt8(ascii: ",")) }
            current!.count += 1
            expectingValue = true
        }
        guard expectingValue else {
            fail("\(what) where no value was due")
            return false
        }
        expectingValue = false
        return true
    }

    private mutating func appendNode(_ kind: JSONDocument.Kind, flag: Bool, start: Int, length: Int) {
        nodes.append(
            JSONDocument.Node(
                kind: kind, flag: flag, start: UInt32(truncatingIfNeeded: start),
                length: UInt32(truncatingIfNeeded: length), end: UInt32(truncatingIfNeeded: nodes.count + 1)))
    }

    /// Writes a string literal and its node.
    private mutating func appendString(_ value: String) {
        let start = bytes.count + 1
        var (length, appended) = bytes.appendPlainJSONString(value)
        if !appended {
            var escaped = ByteBuilder(capacity: length + 8)
            length = value.withUTF8Span { utf8 in
                escaped.appendJSONString(utf8)
                return utf8.count
            }
            bytes.append(escaped.bytes)
        }
        let written = bytes.count - 1 - start
        longestString = max(longestString, written)
        // An escape always lengthens the text: a string written longer than its UTF-8 holds one.
        appendNode(.string, flag: written != length, start: start, length: written)
    }

    /// Opens an object; its members follow, each a `key(_:)` and a value.
    public mutating func beginObject() { begin(isArray: false) }

    /// Opens an array; each value written until ``endArray()`` is an item.
    public mutating func beginArray() { begin(isArray: true) }

    private mutating func begin(isArray: Bool) {
        guard startValue(isArray ? "an array" : "an object") else { return }
        if let current { outer.append(current) }
        current = Container(node: nodes.count, isArray: isArray)
        deepest = max(deepest, outer.count + 1)
        appendNode(isArray ? .array : .object, flag: false, start: bytes.count, length: 0)
        bytes.append(isArray ? UInt8(ascii: "[") : UInt8(ascii: "{"))
    }

    /// Closes the innermost object.
    public mutating func endObject() { end(isArray: false) }

    /// Closes the innermost array.
    public mutating func endArray() { end(isArray: true) }

    private mutating func end(isArray: Bool) {
        guard failure == nil else { return }
        guard let container = current, container.isArray == isArray, !expectingValue else {
            fail(isArray ? "an array closed where none was open" : "an object closed where none was open")
            return
        }
        current = outer.popLast()
        bytes.append(isArray ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        nodes[container.node].length = UInt32(truncatingIfNeeded: container.count)
        nodes[container.node].end = UInt32(truncatingIfNeeded: nodes.count)
    }

    /// Starts a member of the innermost object: its value is written next.
    ///
    /// - Parameter name: The member's name; a name written twice in one object is a misuse.
    public mutating func key(_ name: String) {
        guard startKey(name) else { return }
        appendString(name)
        finishKey(name, ascii: !name.utf8.contains { $0 >= 0x80 })
    }

    /// Starts a member whose name is known when the code is compiled, as generated models' names are.
    ///
    /// - Parameter name: The member's name; a name written twice in one object is a misuse.
    public mutating func key(_ name: StaticString) {
        guard startKey(name) else { return }
        let start = bytes.count + 1
        let (length, appended) = bytes.appendPlainJSONString(name)
        if appended {
            appendNode(.string, flag: false, start: start, length: length)
        } else {
            appendString(name.description)
        }
        finishKey(name, ascii: name.hasPointerRepresentation ? name.isASCII : name.unicodeScalar.isASCII)
    }

    /// Writes the separator before a member of the innermost object; `false`, after recording why, outside one.
    private mutating func startKey(_ name: @autoclosure () -> Any) -> Bool {
        guard failure == nil else { return false }
        guard current?.isArray == false, !expectingValue else {
            let inObject = current?.isArray == false
            fail(inObject ? "the member '\(name())' after one with no value" : "a member outside an object")
            return false
        }
        if current!.count > 0 { bytes.append(UInt8(ascii: ",")) }
        current!.count += 1
        return true
    }

    private mutating func finishKey(_ name: @autoclosure () -> Any, ascii: Bool) {
        let node = nodes.count - 1
        let start = Int(nodes[node].start)
        let length = Int(nodes[node].length)
        // An ASCII name is compared only with names of its length and first byte, and only when one was written.
        let signature = length == 0 ? 1 : UInt64(1) << UInt64((length &* 7 &+ Int(bytes[start])) & 63)
        let mayRepeat = !ascii || current!.beyondASCII || current!.signatures & signature != 0
        current!.signatures |= signature
        if !ascii { current!.beyondASCII = true }
        if mayRepeat, isWrittenBefore(node, in: current!.node) {
            fail("the member '\(name())' twice")
            return
        }
        bytes.append(UInt8(ascii: ":"))
        expectingValue = true
    }

    /// Whether the name at a node is among the open object's names already: the same bytes, or, for names beyond
    /// ASCII, the same `String` (Swift, and `JSONEncoder`'s dictionary, take "é" and "e" with a combining accent for
    /// one name).
    private mutating func isWrittenBefore(_ node: Int, in object: Int) -> Bool {
        let run = Int(nodes[node].start)..<Int(nodes[node].start + nodes[node].length)
        let ascii = bytes.isASCII(run)
        // The object's members so far, each a name and its value, which is closed: the next name is past its end.
        var other = object + 1
        while other < node {
            let otherRun = Int(nodes[other].start)..<Int(nodes[other].start + nodes[other].length)
            if bytes.same(run, otherRun) { return true }
            if !ascii, !bytes.isASCII(otherRun),
                JSONReader.unescape(bytes.bytes(otherRun)[...]) == JSONReader.unescape(bytes.bytes(run)[...])
            {
                return true
            }
            other = Int(nodes[other + 1].end)
        }
        return false
    }

    /// Writes a string.
    ///
    /// - Parameter value: The string.
    public mutating func string(_ value: String) {
        guard startValue("a string") else { return }
        appendString(value)
    }

    /// Writes `true` or `false`.
    ///
    /// - Parameter value: The Boolean.
    public mutating func bool(_ value: Bool) {
        guard startValue("a Boolean") else { return }
        appendNode(.boolean, flag: value, start: bytes.count, length: value ? 4 : 5)
        bytes.append(value ? Self.trueText : Self.falseText)
    }

    /// Writes an integer.
    ///
    /// - Parameter value: The integer.
    public mutating func number(_ value: Int) {
        guard startValue("a number") else { return }
        let start = bytes.count
        bytes.append(decimal: value)
        appendNode(.number, flag: false, start: start, length: bytes.count - start)
    }

    /// Writes a number as `JSONEncoder` writes it: an integral value without a fraction. A value that is not
    /// finite is a failure, as it is there.
    ///
    /// - Parameter value: The number.
    public mutating func number(_ value: Double) {
        guard failure == nil else { return }
        do {
            let written = try Node.number(value, at: [])
            scalar(written)
        } catch {
            failure = error
        }
    }

    /// Writes a decimal number, every digit as it is.
    ///
    /// - Parameter value: The number.
    public mutating func number(_ value: Decimal) { scalar(Array(value.description.utf8)) }

    /// Writes `null`.
    public mutating func null() {
        guard startValue("null") else { return }
        appendNode(.null, flag: false, start: bytes.count, length: 4)
        bytes.append(Node.null)
    }

    /// Writes a scalar's whole JSON text, told by its text as the reader tells it.
    private mutating func scalar(_ written: [UInt8]) {
        guard startValue("a value") else { return }
        let start = bytes.count
        bytes.append(written)
        guard let scalar = RequestStream.State.scalar(written) else {
            mustRead = true
            return
        }
        if scalar.kind == .string { longestString = max(longestString, scalar.length) }
        appendNode(scalar.kind, flag: scalar.flag, start: start + scalar.offset, length: scalar.length)
    }

    /// Writes a member of the innermost object.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member<Value: DocumentWritable>(_ key: StaticString, _ value: Value) {
        self.key(key)
        value.write(to: &self)
    }

    /// Writes a member of the innermost object when it has a value, and leaves it out when it is `nil` (as a
    /// synthesized `Encodable` conformance does).
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member<Value: DocumentWritable>(_ key: StaticString, _ value: Value?) {
        guard let value else { return }
        member(key, value)
    }

    // The scalars a model's members mostly are, without a generic call: a value passed to one is copied (retained
    // and released) on the way.

    /// Writes a string member.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        string(value)
    }

    /// Writes a string member, left out when it is `nil`.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    /// Writes a Boolean member.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// Writes a Boolean member, left out when it is `nil`.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        bool(value)
    }

    /// Writes an integer member.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        number(value)
    }

    /// Writes an integer member, left out when it is `nil`.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        number(value)
    }

    /// Writes a number member.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member(_ key: StaticString, _ value: Double) {
        self.key(key)
        number(value)
    }

    /// Writes a number member, left out when it is `nil`.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        self.key(key)
        number(value)
    }

    /// Writes a value through its `Encodable` conformance, as `JSONEncoder` with its default strategies would: the
    /// way in for a type that does not write itself.
    ///
    /// - Parameter value: The value.
    public mutating func encode<Value: Encodable>(_ value: Value) {
        guard failure == nil else { return }
        do {
            if nodes.isEmpty, whole == nil {
                whole = try RequestEncoder.document(value)
                expectingValue = false
            } else {
                write(try Node.encoding(value, at: []))
            }
        } catch {
            failure = error
        }
    }

    /// Writes a value encoded as ``Node``s.
    private mutating func write(_ node: Node) {
        switch node.content {
        case .scalar(let written): scalar(written)
        case .empty:
            beginObject()
            endObject()
        case .object(let names, let values):
            beginObject()
            for (name, value) in zip(names, values) {
                key(name)
                write(value)
            }
            endObject()
        case .array(let items):
            beginArray()
            for item in items { write(item) }
            endArray()
        }
    }

    /// The document written, which takes the writer's memory with it (``storage(recycling:)`` takes it back).
    ///
    /// - Throws: The first misuse, the error a value's encoding threw, or the reader's error for text past its
    ///   limits.
    package mutating func document(limits: JSONLimits = .default) throws -> JSONDocument {
        if let failure { throw failure }
        if let whole { return whole }
        guard current == nil, !expectingValue else {
            throw Misuse(description: current == nil ? "no value was written" : "a value left unfinished")
        }
        if mustRead || deepest > limits.maxDepth || bytes.count > limits.maxDocumentBytes
            || longestString > limits.maxStringBytes
        {
            return try JSONDocument(bytes: bytes.array(), limits: limits)
        }
        memory.bytes.copy(into: &memory.text)
        defer {
            memory.text = []
            memory.nodes = []
        }
        return JSONDocument(text: memory.text, nodes: memory.nodes)
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
}

/// A string writes itself as a JSON string.
extension String: DocumentWritable {
    /// Writes the string.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.string(self) }
}

/// A Boolean writes itself as `true` or `false`.
extension Bool: DocumentWritable {
    /// Writes `true` or `false`.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.bool(self) }
}

/// An integer writes itself as a JSON number.
extension Int: DocumentWritable {
    /// Writes the integer.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

/// A number writes itself as `JSONEncoder` writes it.
extension Double: DocumentWritable {
    /// Writes the number (a value that is not finite fails).
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

/// A decimal writes itself with every digit.
extension Decimal: DocumentWritable {
    /// Writes the number, every digit as it is.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

/// An array of writable values writes itself as a JSON array.
extension Array: DocumentWritable where Element: DocumentWritable {
    /// Writes the elements as a JSON array, in order.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) {
        writer.beginArray()
        for element in self { element.write(to: &writer) }
        writer.endArray()
    }
}

/// A dictionary of writable values by string writes itself as a JSON object.
extension Dictionary: DocumentWritable where Key == String, Value: DocumentWritable {
    /// Writes the entries as a JSON object, in the dictionary's order (as `JSONEncoder` does, so nothing may depend
    /// on it).
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) {
        writer.beginObject()
        for (key, value) in self {
            writer.key(key)
            value.write(to: &writer)
        }
        writer.endObject()
    }
}
