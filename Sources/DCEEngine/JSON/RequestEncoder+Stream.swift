import Foundation

/// The fast path: JSON written as the value encodes, in one buffer, for the orderly use synthesized conformances make
/// (each value's containers filled before the next member). Anything else — a key encoded twice, a container written
/// after a later member, a super encoder — makes it give up (``Restart``), and the value is encoded again as nodes.
final class RequestStream {
    /// Why the stream gave up.
    struct Restart: Error {}

    /// Everything the stream writes, in one value: each call reaches it once (a class's stored properties, read
    /// one by one, paid an exclusivity check for every access).
    struct State {
        struct Frame {
            let id: Int
            let array: Bool
            var count = 0
            var keys: [String] = []
        }

        var bytes = ByteBuilder()
        var frames: [Frame] = []
        /// Whether a value is due: at the start, and after a key or before a list item.
        var expectingValue = true
        /// Whether a container could not be given (the text is then not to be used, even if nothing threw).
        var failed = false
        var nextID = 0

        /// Gives up, for good: even if the value's own code catches the error and goes on, the text is not used.
        mutating func restart() -> Restart {
            failed = true
            return Restart()
        }

        mutating func scalar(_ text: [UInt8]) throws {
            guard expectingValue else { throw restart() }
            expectingValue = false
            bytes.append(text)
        }

        mutating func string(_ text: String) throws {
            guard expectingValue else { throw restart() }
            expectingValue = false
            bytes.appendJSONString(text)
        }

        mutating func open(array: Bool, depth: Int) throws -> Int {
            // The same container asked for again by the value that opened it.
            if !expectingValue, frames.count == depth + 1, frames[depth].array == array, frames[depth].count == 0 {
                return frames[depth].id
            }
            guard expectingValue, frames.count == depth else { throw restart() }
            expectingValue = false
            bytes.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
            nextID += 1
            frames.append(Frame(id: nextID, array: array))
            return nextID
        }

        /// Closes the containers opened above `depth`; a value that asked for none is `{}`, as JSONEncoder writes it.
        mutating func finish(above depth: Int) throws {
            if expectingValue { try scalar(Array("{}".utf8)) }
            while frames.count > depth { close() }
        }

        mutating func close() {
            let frame = frames.removeLast()
            bytes.append(frame.array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        }

        /// Makes the container `id` the innermost open one (closing nested containers its owner has moved past),
        /// and starts its next member or item: a comma, and for a member its key.
        mutating func begin(_ id: Int, key: String?) throws {
            guard let index = frames.lastIndex(where: { $0.id == id }) else { throw restart() }
            while frames.count > index + 1 { close() }
            if let key {
                guard !frames[index].keys.contains(key) else { throw restart() }
                frames[index].keys.append(key)
            }
            if frames[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
            frames[index].count += 1
            if let key {
                bytes.appendJSONString(key)
                bytes.append(UInt8(ascii: ":"))
            }
            expectingValue = true
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
