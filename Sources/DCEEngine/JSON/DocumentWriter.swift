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
/// Calls nest as the JSON does: ``beginObject()``, then a ``key(_:)`` and a value for each member, then
/// ``endObject()``; in an array, each value is an item. A misuse is not a crash: the first one is kept, and the
/// request is refused with it when it is validated (``ValidatorError/Code/encoding``).
public struct DocumentWriter {
    var state = RequestStream.State()
    /// The document a value made through its `Encodable` conformance, whole (``encode(_:)`` at the top).
    private var whole: JSONDocument?
    /// The first thing that went wrong; nothing is written after it.
    private var failure: (any Error)?

    /// A writer of one value.
    public init() {}

    /// Why a document could not be written: a misuse of the writer, named without any value.
    struct Misuse: Error, CustomStringConvertible {
        var description: String
    }

    private mutating func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    private mutating func run(_ what: String, _ body: (inout RequestStream.State) throws -> Void) {
        guard failure == nil else { return }
        do {
            try body(&state)
        } catch {
            fail(Misuse(description: what))
        }
    }

    /// Starts a value: in an array, a new item.
    private mutating func startValue() {
        guard failure == nil, let frame = state.frames.last, frame.array else { return }
        run("an array item after an unfinished one") { try $0.begin(frame.id, key: nil) }
    }

    /// Opens an object; its members follow, each a ``key(_:)`` and a value.
    public mutating func beginObject() {
        startValue()
        run("an object where no value was due") { _ = try $0.open(array: false, depth: $0.frames.count) }
    }

    /// Closes the innermost object.
    public mutating func endObject() { end(array: false) }

    /// Opens an array; each value written until ``endArray()`` is an item.
    public mutating func beginArray() {
        startValue()
        run("an array where no value was due") { _ = try $0.open(array: true, depth: $0.frames.count) }
    }

    /// Closes the innermost array.
    public mutating func endArray() { end(array: true) }

    private mutating func end(array: Bool) {
        guard failure == nil else { return }
        guard let frame = state.frames.last, frame.array == array, !state.expectingValue else {
            fail(
                Misuse(
                    description: array ? "an array closed where none was open" : "an object closed where none was open")
            )
            return
        }
        state.close()
    }

    /// Starts a member of the innermost object: its value is written next.
    ///
    /// - Parameter name: The member's name; a name written twice in one object is a misuse.
    public mutating func key(_ name: String) {
        guard failure == nil else { return }
        guard let frame = state.frames.last, !frame.array else {
            fail(Misuse(description: "a member outside an object"))
            return
        }
        run("the member '\(name)' twice, or after one with no value") { try $0.begin(frame.id, key: name) }
    }

    /// Writes a string.
    ///
    /// - Parameter value: The string.
    public mutating func string(_ value: String) {
        startValue()
        run("a string where no value was due") { try $0.string(value) }
    }

    /// Writes `true` or `false`.
    ///
    /// - Parameter value: The Boolean.
    public mutating func bool(_ value: Bool) {
        startValue()
        run("a Boolean where no value was due") { try $0.scalar(value ? Self.trueText : Self.falseText) }
    }

    /// Writes an integer.
    ///
    /// - Parameter value: The integer.
    public mutating func number(_ value: Int) {
        startValue()
        var text = ByteBuilder(capacity: 20)
        text.append(value)
        run("a number where no value was due") { try $0.scalar(text.bytes) }
    }

    /// Writes a number as `JSONEncoder` writes it: an integral value without a fraction. A value that is not
    /// finite is a failure, as it is there.
    ///
    /// - Parameter value: The number.
    public mutating func number(_ value: Double) {
        startValue()
        guard failure == nil else { return }
        do {
            let text = try Node.number(value, at: [])
            run("a number where no value was due") { try $0.scalar(text) }
        } catch {
            fail(error)
        }
    }

    /// Writes a decimal number, every digit as it is.
    ///
    /// - Parameter value: The number.
    public mutating func number(_ value: Decimal) {
        startValue()
        run("a number where no value was due") { try $0.scalar(Array(value.description.utf8)) }
    }

    /// Writes `null`.
    public mutating func null() {
        startValue()
        run("null where no value was due") { try $0.scalar(Node.null) }
    }

    /// Writes a member of the innermost object.
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value.
    public mutating func member<Value: DocumentWritable>(_ key: String, _ value: Value) {
        self.key(key)
        value.write(to: &self)
    }

    /// Writes a member of the innermost object when it has a value, and leaves it out when it is `nil` (as a
    /// synthesized `Encodable` conformance does).
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - value: Its value, or `nil`.
    public mutating func member<Value: DocumentWritable>(_ key: String, _ value: Value?) {
        guard let value else { return }
        member(key, value)
    }

    /// Writes a value through its `Encodable` conformance, as `JSONEncoder` with its default strategies would: the
    /// way in for a type that does not write itself.
    ///
    /// - Parameter value: The value.
    public mutating func encode<Value: Encodable>(_ value: Value) {
        guard failure == nil else { return }
        do {
            if state.nodes.isEmpty, state.frames.isEmpty, whole == nil {
                whole = try RequestEncoder.document(value)
                state.expectingValue = false
            } else {
                write(try Node.encoding(value, at: []))
            }
        } catch {
            fail(error)
        }
    }

    /// Writes a value encoded as ``Node``s.
    private mutating func write(_ node: Node) {
        switch node.content {
        case .scalar(let text):
            startValue()
            run("a value where none was due") { try $0.scalar(text) }
        case .empty:
            beginObject()
            endObject()
        case .object(let keys, let values):
            beginObject()
            for (key, value) in zip(keys, values) {
                self.key(key)
                write(value)
            }
            endObject()
        case .array(let items):
            beginArray()
            for item in items { write(item) }
            endArray()
        }
    }

    /// The document written.
    ///
    /// - Throws: The first misuse, the error a value's encoding threw, or the reader's error for text past its
    ///   limits.
    package func document() throws -> JSONDocument {
        if let failure { throw failure }
        if let whole { return whole }
        guard state.frames.isEmpty, !state.expectingValue else {
            throw Misuse(description: state.frames.isEmpty ? "no value was written" : "a value left unfinished")
        }
        return try state.document()
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
}

extension String: DocumentWritable {
    /// Writes the string.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.string(self) }
}

extension Bool: DocumentWritable {
    /// Writes `true` or `false`.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.bool(self) }
}

extension Int: DocumentWritable {
    /// Writes the integer.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

extension Double: DocumentWritable {
    /// Writes the number (a value that is not finite fails).
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

extension Decimal: DocumentWritable {
    /// Writes the number, every digit as it is.
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) { writer.number(self) }
}

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

extension Dictionary: DocumentWritable where Key == String, Value: DocumentWritable {
    /// Writes the entries as a JSON object, in the dictionary's order (as `JSONEncoder` does, so nothing may depend
    /// on it).
    ///
    /// - Parameter writer: The writer.
    public func write(to writer: inout DocumentWriter) {
        writer.beginObject()
        for (key, value) in self { writer.member(key, value) }
        writer.endObject()
    }
}
