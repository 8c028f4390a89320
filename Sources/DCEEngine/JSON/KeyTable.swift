/// Finds a field by the raw UTF-8 bytes of a member name, without building a `String`.
///
/// The keys are stored end to end in one byte buffer. Tables of up to four keys compare lengths and bytes in a
/// linear scan; larger ones hash the name (its length and three bytes) into an open-addressed slot array at most half full, and compare
/// bytes only when the stored hash is equal. The buffers are raw so that a lookup touches no reference count, no
/// `Dictionary` and no `Hasher`: with the `Dictionary` it replaced, hashing a name cost more than checking its value.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed only in `deinit`.
final class KeyTable: @unchecked Sendable {
    /// The keys' bytes, end to end.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Start and length of each key in `bytes`; a `nil` key gets length -1 and never matches.
    private let spans: UnsafeMutableBufferPointer<(start: Int, length: Int)>
    /// Each key's hash (unused by a linear table).
    private let hashes: UnsafeMutableBufferPointer<UInt64>
    /// For a hashed table: a power of two of slots, each a key's offset or -1; empty for a linear table.
    private let slots: UnsafeMutableBufferPointer<Int32>

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
        bytes = .allocate(capacity: max(storage.count, 1))
        _ = bytes.initialize(from: storage)
        self.spans = .allocate(capacity: spans.count)
        _ = self.spans.initialize(from: spans)
        hashes = .allocate(capacity: spans.count)
        hashes.initialize(repeating: 0)
        guard keys.count > Self.linearLimit else {
            slots = .allocate(capacity: 0)
            return
        }
        var capacity = 8
        while capacity < keys.count * 2 { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: -1)
        for (offset, span) in spans.enumerated() where span.length >= 0 {
            let hash = Self.hash(UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.length)]))
            hashes[offset] = hash
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] >= 0 {
                // A later duplicate key is never found, as in a scan that stops at the first match.
                if equal(spans[Int(slots[slot])], UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.length)])) { break }
                slot = (slot + 1) & (capacity - 1)
            }
            if slots[slot] < 0 { slots[slot] = Int32(offset) }
        }
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
        hashes.deallocate()
        slots.deallocate()
    }

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
    private func equal(_ span: (start: Int, length: Int), _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = span.length
        guard count == name.count else { return false }
        guard count > 0, let storage = bytes.baseAddress, let other = name.baseAddress else { return true }
        let key = UnsafeRawPointer(storage + span.start)
        let text = UnsafeRawPointer(other)
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                if key.loadUnaligned(fromByteOffset: index, as: UInt64.self) != text.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                    return false
                }
                index += 8
            }
            return key.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return key.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self)
                && key.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for index in 0..<count where storage[span.start + index] != other[index] { return false }
        return true
    }

    /// A hash of the length and three bytes (first, middle, last): enough to spread a schema's field names over
    /// the slots, and far cheaper than hashing every byte; the stored full comparison settles collisions.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        guard count > 0 else { return 0 }
        let mixed = UInt64(count) | UInt64(bytes[0]) << 8 | UInt64(bytes[count / 2]) << 16 | UInt64(bytes[count - 1]) << 24
        return (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32
    }
}
