/// A JSON text read into a compact, immutable value tree that remembers where each value was written.
///
/// The tree is a flat array of nodes in document order over a copy of the input bytes: strings and numbers are
/// kept as the bytes that were written (a 19-digit card number sent as a number stays exact), and every node
/// knows its byte offset, from which ``position(of:)`` gives the line and column.
///
/// ```swift
/// let document = try JSONDocument(bytes: Array(#"{"currency": "EUR"}"#.utf8))
/// ```
public struct JSONDocument: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The size of the document, never its text (it may hold a PIN).
    public var description: String { "JSONDocument(\(bytes.count) bytes)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// No children, so `dump` shows nothing of the payload.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// A node's index in the document; the root is ``root``.
    public typealias Index = Int

    /// The kinds of JSON value.
    public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
        /// `null`.
        case null
        /// `true` or `false`.
        case boolean
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object

        /// The kind's name, as messages print it.
        public var description: String {
            switch self {
            case .null: "null"
            case .boolean: "boolean"
            case .number: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        }
    }

    struct Node {
        var kind: Kind
        /// For strings: the raw bytes contain an escape. For booleans: the value is `true`. For numbers: the lexeme
        /// has a fraction or an exponent.
        var flag: Bool
        /// Offset of the value's first byte (for strings, the first byte after the opening quote).
        var start: UInt32
        /// Byte length of a scalar's lexeme (a string's raw content, without quotes); members or elements of a
        /// container.
        var length: UInt32
        /// The index just past this node's subtree.
        var end: UInt32
    }

    let bytes: ContiguousArray<UInt8>
    var nodes: ContiguousArray<Node>
    /// Whether the text is one line of ASCII, where a byte's column is its offset + 1 (a payload on one NDJSON line
    /// usually is): known when the text was read, `nil` for a document made as it was written.
    let singleLineASCII: Bool?

    /// The index of the top-level value.
    public var root: Index { 0 }

    /// Reads a JSON text.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 text.
    ///   - limits: Bounds on size, depth and string length.
    /// - Throws: ``JSONReadError`` with the line and column of the first problem.
    public init(bytes: [UInt8], limits: JSONLimits = .default) throws(JSONReadError) {
        let bytes = ContiguousArray(bytes)  // the array's own storage, not a copy
        self.bytes = bytes
        (self.nodes, self.singleLineASCII) = try JSONReader(limits: limits).readNodes(bytes)
    }

    /// A document whose nodes were made as its text was written (``RequestEncoder``): they must be what
    /// ``JSONReader`` reads from `bytes`, which `RequestEncoderTests` holds them to.
    init(bytes: [UInt8], nodes: [Node]) {
        self.init(text: ContiguousArray(bytes), nodes: ContiguousArray(nodes))
    }

    /// A document made as it was written, over the writer's arrays (not copied).
    init(text: ContiguousArray<UInt8>, nodes: ContiguousArray<Node>) {
        self.bytes = text
        self.nodes = nodes
        self.singleLineASCII = nil
    }

    /// The document's text and nodes, given up so that their memory can hold the next document
    /// (`DocumentWriter.Storage`).
    consuming func storage() -> (text: ContiguousArray<UInt8>, nodes: ContiguousArray<Node>) { (bytes, nodes) }

    /// The kind of value at an index.
    ///
    /// - Parameter index: A node index.
    /// - Returns: The node's kind.
    public func kind(of index: Index) -> Kind { nodes[index].kind }

    /// Where a value starts in the text.
    ///
    /// - Parameter index: A node index.
    /// - Returns: The line and column of the value's first character (a string's opening quote).
    public func position(of index: Index) -> SourcePosition {
        SourcePosition.locate(offset: startOffset(of: index), in: bytes)
    }

    /// Where a value starts, found through the document's ``LineIndex`` (for callers that locate many values).
    func position(of index: Index, lines: LineIndex) -> SourcePosition {
        lines.position(of: startOffset(of: index))
    }

    /// The byte offset of a value's first character (a string's opening quote).
    private func startOffset(of index: Index) -> Int {
        let node = nodes[index]
        return Int(node.start) - (node.kind == .string ? 1 : 0)
    }

    /// The line index of the document's text.
    func lineIndex() -> LineIndex { LineIndex(Array(bytes)) }  // the same storage, not a copy

    /// The index just past a value and everything inside it.
    func next(after index: Index) -> Index { Int(nodes[index].end) }

    /// The number of members of an object or elements of an array.
    func count(of index: Index) -> Int { Int(nodes[index].length) }

    /// Where a scalar node's text stands in ``bytes``: a string's between its quotes (escapes as written), a number's
    /// lexeme, a literal's word.
    @inline(__always)
    func textRange(of index: Index) -> Range<Int> {
        let node = nodes[index]
        let start = Int(node.start)
        return start..<(start + Int(node.length))
    }

    /// The decoded text of a string node.
    package func string(at index: Index) -> String {
        let range = textRange(of: index)
        if !nodes[index].flag { return String(decoding: bytes[range], as: UTF8.self) }
        return JSONReader.unescape(bytes[range])
    }

    /// Whether a string node holds exactly the given text, compared without decoding when it has no escapes.
    func string(at index: Index, equals text: String) -> Bool {
        guard !nodes[index].flag else { return string(at: index) == text }
        let range = textRange(of: index)
        return text.withUTF8Span { utf8 in
            utf8.count == range.count && bytes.span.extracting(range).elementsEqual(utf8)
        }
    }

    /// Where a string node's decoded text stands in ``bytes`` as it is: its text range when it has no escape, `nil`
    /// when it has one (its text is then ``string(at:)``).
    @inline(__always)
    func unescapedRange(of index: Index) -> Range<Int>? {
        nodes[index].flag ? nil : textRange(of: index)
    }

    /// Calls `body` with the UTF-8 bytes of a string node's decoded text; without escapes, straight from the input.
    @inline(__always)
    func withStringBytes<Result>(at index: Index, _ body: (Span<UInt8>) -> Result) -> Result {
        guard let range = unescapedRange(of: index) else { return string(at: index).withUTF8Span(body) }
        return body(bytes.span.extracting(range))
    }

    /// Calls `body` with the bytes of a scalar node as they stand in the text: a string's without its quotes and
    /// with its escapes as written, a number's lexeme.
    func withRawText<Result>(at index: Index, _ body: (Span<UInt8>) -> Result) -> Result {
        body(bytes.span.extracting(textRange(of: index)))
    }

    /// Whether two string nodes hold the same text.
    func sameString(at index: Index, and other: Index) -> Bool {
        withStringBytes(at: index) { first in withStringBytes(at: other) { first.elementsEqual($0) } }
    }

    /// The JSON Pointer of a node (of the member, for a key's node), found by walking down from the root: no node
    /// keeps its parent, so this costs a walk over the siblings on the way, which suits a message, not a loop.
    func pointer(to target: Index) -> String {
        var pointer = ""
        var index = root
        while index != target {
            var next: Index?
            switch nodes[index].kind {
            case .object:
                for (key, value) in members(of: index)
                where key == target || (value <= target && target < self.next(after: value)) {
                    pointer = JSONPointer.appending(string(at: key), to: pointer)
                    next = key == target ? target : value
                    break
                }
            case .array:
                for (offset, element) in elements(of: index).enumerated()
                where element <= target && target < self.next(after: element) {
                    pointer += "/\(offset)"
                    next = element
                    break
                }
            default:
                break
            }
            guard let next else { return pointer }
            index = next
        }
        return pointer
    }

    /// The table entry whose bytes equal a string node's decoded text.
    func lookUpKey(at index: Index, in table: KeyTable) -> Int? {
        withStringBytes(at: index) { table.lookup($0) }
    }

    /// A number node's lexeme, exactly as written.
    package func numberLexeme(at index: Index) -> String {
        String(decoding: bytes[textRange(of: index)], as: UTF8.self)
    }

    /// Whether a number node is written as an integer literal (no fraction, no exponent).
    func isIntegerLiteral(at index: Index) -> Bool { !nodes[index].flag }

    /// The value of a boolean node.
    func boolean(at index: Index) -> Bool { nodes[index].flag }

    /// The members of an object: each key's node index and its value's node index.
    package func members(of index: Index) -> MemberSequence { MemberSequence(document: self, object: index) }

    /// The element node indices of an array.
    package func elements(of index: Index) -> ElementSequence { ElementSequence(document: self, array: index) }

    /// The value of a member of an object, by key; `nil` when absent. With duplicate keys, the first.
    func member(_ key: String, of object: Index) -> Index? {
        for (keyIndex, valueIndex) in members(of: object) where string(at: keyIndex, equals: key) {
            return valueIndex
        }
        return nil
    }

    /// Iterates the members of an object.
    package struct MemberSequence: Sequence, IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        init(document: JSONDocument, object: Index) {
            self.document = document
            self.cursor = object + 1
            self.end = document.next(after: object)
        }

        package mutating func next() -> (key: Index, value: Index)? {
            guard cursor < end else { return nil }
            let key = cursor
            let value = cursor + 1
            cursor = document.next(after: value)
            return (key, value)
        }
    }

    /// Iterates the elements of an array.
    package struct ElementSequence: Sequence, IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        init(document: JSONDocument, array: Index) {
            self.document = document
            self.cursor = array + 1
            self.end = document.next(after: array)
        }

        package mutating func next() -> Index? {
            guard cursor < end else { return nil }
            defer { cursor = document.next(after: cursor) }
            return cursor
        }
    }
}
