/// Finds a field by the raw UTF-8 bytes of a member name, without building a `String`.
///
/// The keys are stored end to end in one byte buffer. Tables of up to four keys compare lengths and bytes in a
/// linear scan; larger ones hash the name (its length and three bytes) into an open-addressed slot array at most half full, and compare
/// bytes only when the stored hash is equal. The buffers are raw so that a lookup touches no reference count, no
/// `Dictionary` and no `Hasher`: with the `Dictionary` it replaced, hashing a name cost more than checking its value.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`.
final class KeyTable: @unchecked Sendable {
    /// The table's buffers, in one allocation that ``View`` points at.
    private let buffers: UnsafeMutablePointer<Buffers>

    /// The buffers of a table.
    fileprivate struct Buffers {
        /// The keys' bytes, end to end.
        let bytes: UnsafeMutableBufferPointer<UInt8>
        /// Start and length of each key in `bytes`; a `nil` key gets length -1 and never matches.
        let spans: UnsafeMutableBufferPointer<(start: Int, length: Int)>
        /// Each key's hash (unused by a linear table).
        let hashes: UnsafeMutableBufferPointer<UInt64>
        /// For a hashed table: a power of two of slots, each a key's offset or -1; empty for a linear table.
        let slots: UnsafeMutableBufferPointer<Int32>
    }

    /// Tables with more keys than this are hashed.
    private static let linearLimit = 4

    init(keys: [String?]) {
        var storage: [UInt8] = []
        var spans: [(start: Int, length: Int)] = []
        for key in keys {
            guard let key else {
                spans.append((storage.count, -1))
                continue
            }
            spans.append((storage.count, key.utf8.count))
            storage.append(contentsOf: key.utf8)
        }
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(storage.count, 1))
        _ = bytes.initialize(from: storage)
        let spanBuffer = UnsafeMutableBufferPointer<(start: Int, length: Int)>.allocate(capacity: spans.count)
        _ = spanBuffer.initialize(from: spans)
        let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: spans.count)
        hashes.initialize(repeating: 0)
        var capacity = 0
        if keys.count > Self.linearLimit {
            capacity = 8
            while capacity < keys.count * 2 { capacity *= 2 }
        }
        let slots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: capacity)
        slots.initialize(repeating: -1)
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: Buffers(bytes: bytes, spans: spanBuffer, hashes: hashes, slots: slots))
        guard capacity > 0 else { return }
        for (offset, span) in spans.enumerated() where span.length >= 0 {
            let hash = View.hash(UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.length)]))
            hashes[offset] = hash
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] >= 0 {
                // A later duplicate key is never found, as in a scan that stops at the first match.
                if view.equal(
                    spans[Int(slots[slot])],
                    UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.length)]))
                {
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            if slots[slot] < 0 { slots[slot] = Int32(offset) }
        }
    }

    deinit {
        buffers.pointee.bytes.deallocate()
        buffers.pointee.spans.deallocate()
        buffers.pointee.hashes.deallocate()
        buffers.pointee.slots.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
    }

    /// The offset of the key that is exactly these bytes.
    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        view.lookup(name)  // this table is alive while its method runs
    }

    /// The table as plain values, for a table of rules that must not take a reference count to look a name up:
    /// valid only while this table is alive, which whoever stores the view guarantees (``RuleProgram``).
    var view: View { View(buffers: UnsafePointer(buffers)) }

    /// A pointer to the buffers of a ``KeyTable`` (one word, cheap to copy), and the lookup over them.
    struct View {
        fileprivate let buffers: UnsafePointer<Buffers>

        private var spans: UnsafeMutableBufferPointer<(start: Int, length: Int)> { buffers.pointee.spans }
        private var hashes: UnsafeMutableBufferPointer<UInt64> { buffers.pointee.hashes }
        private var slots: UnsafeMutableBufferPointer<Int32> { buffers.pointee.slots }

        /// The offset of the key that is exactly these bytes.
        func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
            if slots.isEmpty {
                for offset in spans.indices where equal(spans[offset], name) { return offset }
                return nil
            }
            let hash = Self.hash(name)
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let offset = Int(slots[slot])
                if offset < 0 { return nil }
                if hashes[offset] == hash && equal(spans[offset], name) { return offset }
                slot = (slot + 1) & mask
            }
        }

        /// Whether a key is exactly these bytes: compared eight bytes at a time (the last load overlapping the one
        /// before), or four, since field names are mostly 4 to 24 bytes.
        fileprivate func equal(_ span: (start: Int, length: Int), _ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = span.length
            guard count == name.count else { return false }
            guard count > 0, let storage = buffers.pointee.bytes.baseAddress, let other = name.baseAddress else {
                return true
            }
            let key = UnsafeRawPointer(storage + span.start)
            let text = UnsafeRawPointer(other)
            if count >= 8 {
                var index = 0
                while index + 8 < count {
                    if key.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        != text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    {
                        return false
                    }
                    index += 8
                }
                return key.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            }
            if count >= 4 {
                return key.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self)
                    && key.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                        == text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            }
            for index in 0..<count where storage[span.start + index] != other[index] { return false }
            return true
        }

        /// A hash of the length and three bytes (first, middle, last): enough to spread a schema's field names over
        /// the slots, and far cheaper than hashing every byte; the stored full comparison settles collisions.
        fileprivate static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let count = bytes.count
            guard count > 0 else { return 0 }
            let mixed =
                UInt64(count) | UInt64(bytes[0]) << 8 | UInt64(bytes[count / 2]) << 16 | UInt64(bytes[count - 1]) << 24
            return (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32
        }
    }
}
