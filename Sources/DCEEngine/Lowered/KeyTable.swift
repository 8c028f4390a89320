/// Finds a field by the raw UTF-8 bytes of a member name, without building a `String`.
///
/// The keys are stored end to end in one byte buffer. Tables of up to four keys compare lengths and bytes in a
/// linear scan; larger ones hash the name (its length and three bytes) into an open-addressed slot array at most half full, and compare
/// bytes only when the stored hash is equal. The buffers are raw so that a lookup touches no reference count, no
/// `Dictionary` and no `Hasher`: with the `Dictionary` it replaced, hashing a name cost more than checking its value.
///
/// `@unchecked Sendable`: the buffers are written only in `init` and freed with the table.
///
/// `@safe`: it owns its buffers (``FrozenBuffer``s), which live as long as it does; a ``View`` of them is `@unsafe`.
@safe final class KeyTable: @unchecked Sendable {
    /// The keys' bytes, start and length of each key, the hashes and the slots, owned here and viewed by ``buffers``.
    private let storage:
        (
            bytes: FrozenBuffer<UInt8>, spans: FrozenBuffer<(start: Int, length: Int)>,
            hashes: FrozenBuffer<UInt64>, slots: FrozenBuffer<Int32>
        )
    /// The views of the buffers, in one value that ``View`` points at.
    private let buffers: FrozenBuffer<Buffers>

    /// The buffers of a table: views of memory the table owns, `@unsafe` as any view is.
    @unsafe fileprivate struct Buffers {
        /// The keys' bytes, end to end.
        let bytes: UnsafeBufferPointer<UInt8>
        /// Start and length of each key in `bytes`; a `nil` key gets length -1 and never matches.
        let spans: UnsafeBufferPointer<(start: Int, length: Int)>
        /// Each key's hash (unused by a linear table).
        let hashes: UnsafeBufferPointer<UInt64>
        /// For a hashed table: a power of two of slots, each a key's offset or -1; empty for a linear table.
        let slots: UnsafeBufferPointer<Int32>
    }

    /// Tables with more keys than this are hashed.
    private static let linearLimit = 4

    init(keys: [String?]) {
        var bytes: [UInt8] = []
        var spans: [(start: Int, length: Int)] = []
        for key in keys {
            guard let key else {
                spans.append((bytes.count, -1))
                continue
            }
            spans.append((bytes.count, key.utf8.count))
            bytes.append(contentsOf: key.utf8)
        }
        var hashes = [UInt64](repeating: 0, count: spans.count)
        var capacity = 0
        if keys.count > Self.linearLimit {
            capacity = 8
            while capacity < keys.count * 2 { capacity *= 2 }
        }
        var slots = [Int32](repeating: -1, count: capacity)
        if capacity > 0 {
            unsafe bytes.withUnsafeBufferPointer { bytes in
                func name(_ span: (start: Int, length: Int)) -> UnsafeBufferPointer<UInt8> {
                    unsafe UnsafeBufferPointer(rebasing: bytes[span.start..<(span.start + span.length)])
                }
                for (offset, span) in spans.enumerated() where span.length >= 0 {
                    let hash = unsafe View.hash(name(span))
                    hashes[offset] = hash
                    var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                    while slots[slot] >= 0 {
                        // A later duplicate key is never found, as in a scan that stops at the first match.
                        if unsafe name(spans[Int(slots[slot])]).elementsEqual(name(span)) { break }
                        slot = (slot + 1) & (capacity - 1)
                    }
                    if slots[slot] < 0 { slots[slot] = Int32(offset) }
                }
            }
        }
        storage = (
            FrozenBuffer(bytes.isEmpty ? [0] : bytes), FrozenBuffer(spans), FrozenBuffer(hashes), FrozenBuffer(slots)
        )
        // SAFETY: the views are of `storage`'s buffers, which this table keeps as long as `buffers`.
        unsafe buffers = FrozenBuffer([
            Buffers(
                bytes: storage.bytes.view, spans: storage.spans.view, hashes: storage.hashes.view,
                slots: storage.slots.view)
        ])
    }

    /// The offset of the key that is exactly these bytes.
    func lookup(_ name: Span<UInt8>) -> Int? {
        unsafe view.lookup(name)  // this table is alive while its method runs
    }

    /// The table as plain values, for a table of rules that must not take a reference count to look a name up:
    /// valid only while this table is alive, which whoever stores the view guarantees (``RuleProgram``).
    var view: View { unsafe View(buffers: buffers.first) }

    /// A pointer to the buffers of a ``KeyTable`` (one word, cheap to copy), and the lookup over them: `@unsafe`, valid
    /// while its table is alive.
    @unsafe struct View {
        fileprivate let buffers: UnsafePointer<Buffers>

        private var spans: UnsafeBufferPointer<(start: Int, length: Int)> { unsafe buffers.pointee.spans }
        private var hashes: UnsafeBufferPointer<UInt64> { unsafe buffers.pointee.hashes }
        private var slots: UnsafeBufferPointer<Int32> { unsafe buffers.pointee.slots }

        /// The offset of the key that is exactly these bytes.
        func lookup(_ name: Span<UInt8>) -> Int? {
            // SAFETY: the span's bytes are alive for the closure, and the lookup keeps no pointer to them.
            unsafe name.withUnsafeBufferPointer { unsafe lookup(bytes: $0) }
        }

        /// ``lookup(_:)`` on the bytes' buffer, alive for the call.
        private func lookup(bytes name: UnsafeBufferPointer<UInt8>) -> Int? {
            if unsafe slots.isEmpty {
                for offset in unsafe spans.indices where unsafe equal(spans[offset], name) { return offset }
                return nil
            }
            let hash = unsafe Self.hash(name)
            let mask = unsafe slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let offset = unsafe Int(slots[slot])
                if offset < 0 { return nil }
                if unsafe hashes[offset] == hash && equal(spans[offset], name) { return offset }
                slot = (slot + 1) & mask
            }
        }

        /// Whether a key is exactly these bytes: compared eight bytes at a time (the last load overlapping the one
        /// before), or four, since field names are mostly 4 to 24 bytes.
        fileprivate func equal(_ span: (start: Int, length: Int), _ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = span.length
            guard count == name.count else { return false }
            guard count > 0, let storage = unsafe buffers.pointee.bytes.baseAddress, let other = name.baseAddress else {
                return true
            }
            let key = unsafe UnsafeRawPointer(storage + span.start)
            let text = unsafe UnsafeRawPointer(other)
            if count >= 8 {
                var index = 0
                while index + 8 < count {
                    if unsafe key.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        != text.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    {
                        return false
                    }
                    index += 8
                }
                return unsafe key.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            }
            if count >= 4 {
                return unsafe key.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self)
                    && key.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                        == text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            }
            for index in 0..<count where unsafe storage[span.start + index] != other[index] { return false }
            return true
        }

        /// A hash of the length and three bytes (first, middle, last): enough to spread a schema's field names over
        /// the slots, and far cheaper than hashing every byte; the stored full comparison settles collisions.
        fileprivate static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let count = bytes.count
            guard count > 0 else { return 0 }
            let (first, middle, last) = unsafe (bytes[0], bytes[count / 2], bytes[count - 1])
            let mixed = UInt64(count) | UInt64(first) << 8 | UInt64(middle) << 16 | UInt64(last) << 24
            return (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32
        }
    }
}
