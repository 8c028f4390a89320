import Foundation

/// The fast path: JSON written as the value encodes, in one buffer, for the orderly use synthesized conformances make
/// (each value's containers filled before the next member). Anything else — a key encoded twice, a container written
/// after a later member, a super encoder — makes it give up (``Restart``), and the value is encoded again as nodes.
///
/// Beside the text it makes the document's nodes, as ``JSONReader`` would read them from that text, so that a typed
/// request is not read back: the engine walks what was written.
final class RequestStream {
    /// Why the stream gave up.
    struct Restart: Error {}

    /// Everything the stream writes, in one value: each call reaches it once (a class's stored properties, read
    /// one by one, paid an exclusivity check for every access).
    struct State {
        struct Frame {
            let id: Int
            let array: Bool
            /// The container's node.
            let node: Int
            /// Where the nodes of its members' names start in ``State/keyNodes``.
            let keys: Int
            var count = 0
        }

        var bytes = ByteBuilder()
        /// The document's nodes, in the reader's layout (``JSONDocument/Node``).
        var nodes: [JSONDocument.Node] = []
        var frames: [Frame] = []
        /// The nodes of the member names of the open objects, innermost last: what a key is compared with to find one
        /// encoded twice.
        var keyNodes: [Int] = []
        /// Whether a value is due: at the start, and after a key or before a list item.
        var expectingValue = true
        /// Whether a container could not be given (the text is then not to be used, even if nothing threw).
        var failed = false
        var nextID = 0
        /// Whether the text must be read instead of taking ``nodes``: a scalar whose text is not JSON (a `Decimal`
        /// that is not a number), so that it fails as the reader makes any such text fail.
        var mustRead = false
        /// The deepest nesting and the longest string as written: beyond the reader's limits, the text is read, and
        /// refused as the reader refuses it.
        var deepest = 0
        var longestString = 0

        init() {
            nodes.reserveCapacity(32)
            frames.reserveCapacity(8)
            keyNodes.reserveCapacity(16)
        }

        /// Gives up, for good: even if the value's own code catches the error and goes on, the text is not used.
        mutating func restart() -> Restart {
            failed = true
            return Restart()
        }

        mutating func scalar(_ text: [UInt8]) throws {
            guard expectingValue else { throw restart() }
            expectingValue = false
            let start = bytes.bytes.count
            bytes.append(text)
            appendNode(scalar: text, at: start)
        }

        mutating func string(_ text: String) throws {
            guard expectingValue else { throw restart() }
            expectingValue = false
            appendString(text)
        }

        /// Writes a string literal (a value or a member's name) and its node.
        private mutating func appendString(_ text: String) {
            let start = bytes.bytes.count + 1
            bytes.appendJSONString(text)
            let length = bytes.bytes.count - 1 - start
            // An escape always lengthens the text: a string written longer than its UTF-8 holds one.
            appendNode(.string, escaped: length != text.utf8.count, start: start, length: length)
        }

        private mutating func appendNode(_ kind: JSONDocument.Kind, escaped flag: Bool, start: Int, length: Int) {
            if kind == .string { longestString = max(longestString, length) }
            nodes.append(
                JSONDocument.Node(
                    kind: kind, flag: flag, start: UInt32(truncatingIfNeeded: start),
                    length: UInt32(truncatingIfNeeded: length), end: UInt32(truncatingIfNeeded: nodes.count + 1)))
        }

        /// The node of a scalar written whole (a literal, a number, a quoted string, or `{}` for a value that asked
        /// for no container), told by its text as the reader tells it.
        private mutating func appendNode(scalar text: [UInt8], at start: Int) {
            if text.count == 2, text.first == UInt8(ascii: "{") {
                deepest = max(deepest, frames.count + 1)
                appendNode(.object, escaped: false, start: start, length: 0)
                return
            }
            guard let scalar = Self.scalar(text) else {
                mustRead = true
                return
            }
            appendNode(scalar.kind, escaped: scalar.flag, start: start + scalar.offset, length: scalar.length)
        }

        /// What the reader makes of a scalar's whole text: its kind, its node's flag, and where its lexeme is in the
        /// text (a string's is inside the quotes); `nil` for text that is not a JSON scalar.
        static func scalar(_ text: [UInt8]) -> (kind: JSONDocument.Kind, flag: Bool, offset: Int, length: Int)? {
            let count = text.count
            switch text.first {
            case UInt8(ascii: "\""): return (.string, text.contains(UInt8(ascii: "\\")), 1, count - 2)
            case UInt8(ascii: "t") where text.elementsEqual("true".utf8): return (.boolean, true, 0, count)
            case UInt8(ascii: "f") where text.elementsEqual("false".utf8): return (.boolean, false, 0, count)
            case UInt8(ascii: "n") where text.elementsEqual("null".utf8): return (.null, false, 0, count)
            default:
                guard isNumber(text) else { return nil }
                let fraction = text.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
                return (.number, fraction, 0, count)
            }
        }

        /// Whether a text is a JSON number: `-`? int frac? exp? (RFC 8259, section 6).
        static func isNumber(_ text: [UInt8]) -> Bool {
            var index = 0
            func digits() -> Int {
                let first = index
                while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                    index += 1
                }
                return index - first
            }
            if index < text.count, text[index] == UInt8(ascii: "-") { index += 1 }
            let integer = index
            let count = digits()
            guard count > 0, count == 1 || text[integer] != UInt8(ascii: "0") else { return false }
            if index < text.count, text[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { return false }
            }
            return index == text.count
        }

        mutating func open(array: Bool, depth: Int) throws -> Int {
            // The same container asked for again by the value that opened it.
            if !expectingValue, frames.count == depth + 1, frames[depth].array == array, frames[depth].count == 0 {
                return frames[depth].id
            }
            guard expectingValue, frames.count == depth else { throw restart() }
            expectingValue = false
            let start = bytes.bytes.count
            bytes.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
            nextID += 1
            frames.append(Frame(id: nextID, array: array, node: nodes.count, keys: keyNodes.count))
            deepest = max(deepest, frames.count)
            appendNode(array ? .array : .object, escaped: false, start: start, length: 0)
            return nextID
        }

        /// Closes the containers opened above `depth`; a value that asked for none is `{}`, as JSONEncoder writes it.
        mutating func finish(above depth: Int) throws {
            if expectingValue { try scalar(Array("{}".utf8)) }
            while frames.count > depth { close() }
        }

        mutating func close() {
            let frame = frames.removeLast()
            keyNodes.removeSubrange(frame.keys...)
            bytes.append(frame.array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
            nodes[frame.node].length = UInt32(truncatingIfNeeded: frame.count)
            nodes[frame.node].end = UInt32(truncatingIfNeeded: nodes.count)
        }

        /// Makes the container `id` the innermost open one (closing nested containers its owner has moved past),
        /// and starts its next member or item: a comma, and for a member its key.
        mutating func begin(_ id: Int, key: String?) throws {
            // A member or item whose value never came (it threw, and the value's own code went on) would leave a
            // key with no value in the text: the nodes follow that no further.
            guard !expectingValue, let index = frames.lastIndex(where: { $0.id == id }) else { throw restart() }
            while frames.count > index + 1 { close() }
            if frames[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
            frames[index].count += 1
            if let key {
                appendString(key)
                guard !isWrittenBefore(nodes.count - 1, since: frames[index].keys) else { throw restart() }
                keyNodes.append(nodes.count - 1)
                bytes.append(UInt8(ascii: ":"))
            }
            expectingValue = true
        }

        /// Whether the name at node `key` was written already among ``keyNodes`` from `first` on: the same bytes, or,
        /// for names beyond ASCII, the same `String` (Swift, and `JSONEncoder`'s dictionary, take "é" and "e" with a
        /// combining accent for one name).
        private func isWrittenBefore(_ key: Int, since first: Int) -> Bool {
            let written = bytes.bytes
            func name(_ node: Int) -> ArraySlice<UInt8> {
                written[Int(nodes[node].start)..<Int(nodes[node].start + nodes[node].length)]
            }
            let bytes = name(key)
            let ascii = bytes.allSatisfy { $0 < 0x80 }
            let text = ascii ? nil : JSONReader.unescape(bytes)
            return keyNodes[first...].contains { other in
                let otherBytes = name(other)
                if otherBytes.elementsEqual(bytes) { return true }
                guard let text, !otherBytes.allSatisfy({ $0 < 0x80 }) else { return false }
                return JSONReader.unescape(otherBytes) == text
            }
        }

        /// The document written: its nodes as they were made, or, for text the reader must judge (past its limits,
        /// or not JSON), what reading it gives.
        func document(limits: JSONLimits = .default) throws -> JSONDocument {
            if mustRead || deepest > limits.maxDepth || bytes.bytes.count > limits.maxDocumentBytes
                || longestString > limits.maxStringBytes
            {
                return try JSONDocument(bytes: bytes.bytes, limits: limits)
            }
            return JSONDocument(bytes: bytes.bytes, nodes: nodes)
        }
    }

    var state = State()

    var failed: Bool {
        get { state.failed }
        set { state.failed = newValue }
    }

    func encode<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws {
        let base = state.frames.count
        if Value.self == String.self, let text = value as? String {
            try state.string(text)
        } else if let text = try Node.specialScalar(value, at: path) {
            try state.scalar(text)
        } else {
            try value.encode(to: StreamEncoder(stream: self, depth: base, codingPath: path))
        }
        try state.finish(above: base)
    }

    func scalar(_ text: [UInt8]) throws { try state.scalar(text) }
    func string(_ text: String) throws { try state.string(text) }
    func open(array: Bool, depth: Int) throws -> Int { try state.open(array: array, depth: depth) }
    func begin(_ id: Int, key: String?) throws { try state.begin(id, key: key) }
    var depth: Int { state.frames.count }
    func count(of id: Int) -> Int { state.frames.last { $0.id == id }?.count ?? 0 }
}

extension Node {
    /// A scalar's text for the types JSONEncoder writes its own way (and `String`, the commonest); `nil` for the rest.
    /// They are told apart by their metatypes: a cast on every value cost more.
    static func specialScalar<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws -> [UInt8]? {
        if Value.self == String.self, let text = value as? String { return string(text) }
        if Value.self == Date.self, let date = value as? Date {
            return try number(date.timeIntervalSinceReferenceDate, at: path)
        }
        if Value.self == Data.self, let data = value as? Data { return string(data.base64EncodedString()) }
        if Value.self == URL.self, let url = value as? URL { return string(url.absoluteString) }
        if Value.self == Decimal.self, let decimal = value as? Decimal { return Array(decimal.description.utf8) }
        return nil
    }
}

private struct StreamEncoder: Encoder {
    let stream: RequestStream
    /// How many containers were open when this value began.
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let id = (try? stream.open(array: false, depth: depth)) ?? -1
        return KeyedEncodingContainer(KeyedStreamContainer<Key>(stream: stream, id: id, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let id = (try? stream.open(array: true, depth: depth)) ?? -1
        return UnkeyedStreamContainer(stream: stream, id: id, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueStreamContainer(stream: stream, codingPath: codingPath)
    }
}

extension NodeWriting {
    func json(_ value: Bool) -> [UInt8] { Array((value ? "true" : "false").utf8) }
    func json<Integer: BinaryInteger>(_ value: Integer) -> [UInt8] { Array(String(value).utf8) }
}

private struct KeyedStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, NodeWriting {
    let stream: RequestStream
    /// The container's place among the stream's open ones; -1 when it could not be opened (the stream restarts).
    let id: Int
    let codingPath: [any CodingKey]

    private func member(_ key: Key, _ text: [UInt8]) throws {
        try stream.begin(id, key: key.stringValue)
        try stream.scalar(text)
    }

    mutating func encodeNil(forKey key: Key) throws { try member(key, Node.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try stream.begin(id, key: key.stringValue)
        try stream.string(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key, try Node.number(value, at: codingPath + [key]))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try member(key, try Node.number(Double(value), at: codingPath + [key]))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key, json(value)) }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try stream.begin(id, key: key.stringValue)
        try stream.encode(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        if (try? stream.begin(id, key: key.stringValue)) == nil { stream.failed = true }
        return StreamEncoder(stream: stream, depth: stream.depth, codingPath: codingPath + [key])
            .container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if (try? stream.begin(id, key: key.stringValue)) == nil { stream.failed = true }
        return StreamEncoder(stream: stream, depth: stream.depth, codingPath: codingPath + [key])
            .unkeyedContainer()
    }

    // A super encoder is left to the nodes.
    mutating func superEncoder() -> any Encoder {
        stream.failed = true
        return StreamEncoder(stream: stream, depth: -1, codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

private struct UnkeyedStreamContainer: UnkeyedEncodingContainer, NodeWriting {
    let stream: RequestStream
    let id: Int
    let codingPath: [any CodingKey]
    var count: Int { stream.count(of: id) }

    private func item(_ text: [UInt8]) throws {
        try stream.begin(id, key: nil)
        try stream.scalar(text)
    }

    mutating func encodeNil() throws { try item(Node.null) }
    mutating func encode(_ value: Bool) throws { try item(json(value)) }
    mutating func encode(_ value: String) throws {
        try stream.begin(id, key: nil)
        try stream.string(value)
    }
    mutating func encode(_ value: Double) throws {
        try item(try Node.number(value, at: codingPath + [IndexKey(intValue: count)]))
    }
    mutating func encode(_ value: Float) throws {
        try item(try Node.number(Double(value), at: codingPath + [IndexKey(intValue: count)]))
    }
    mutating func encode(_ value: Int) throws { try item(json(value)) }
    mutating func encode(_ value: Int8) throws { try item(json(value)) }
    mutating func encode(_ value: Int16) throws { try item(json(value)) }
    mutating func encode(_ value: Int32) throws { try item(json(value)) }
    mutating func encode(_ value: Int64) throws { try item(json(value)) }
    mutating func encode(_ value: UInt) throws { try item(json(value)) }
    mutating func encode(_ value: UInt8) throws { try item(json(value)) }
    mutating func encode(_ value: UInt16) throws { try item(json(value)) }
    mutating func encode(_ value: UInt32) throws { try item(json(value)) }
    mutating func encode(_ value: UInt64) throws { try item(json(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let path = codingPath + [IndexKey(intValue: count)]
        try stream.begin(id, key: nil)
        try stream.encode(value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [IndexKey(intValue: count)]
        if (try? stream.begin(id, key: nil)) == nil { stream.failed = true }
        return StreamEncoder(stream: stream, depth: stream.depth, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(intValue: count)]
        if (try? stream.begin(id, key: nil)) == nil { stream.failed = true }
        return StreamEncoder(stream: stream, depth: stream.depth, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        stream.failed = true
        return StreamEncoder(stream: stream, depth: -1, codingPath: codingPath)
    }
}

private struct SingleValueStreamContainer: SingleValueEncodingContainer, NodeWriting {
    let stream: RequestStream
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { try stream.scalar(Node.null) }
    mutating func encode(_ value: Bool) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: String) throws { try stream.string(value) }
    mutating func encode(_ value: Double) throws { try stream.scalar(try Node.number(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { try stream.scalar(try Node.number(Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: Int8) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: Int16) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: Int32) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: Int64) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: UInt) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: UInt8) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: UInt16) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: UInt32) throws { try stream.scalar(json(value)) }
    mutating func encode(_ value: UInt64) throws { try stream.scalar(json(value)) }
    mutating func encode<Value: Encodable>(_ value: Value) throws { try stream.encode(value, at: codingPath) }
}
