/// Finds a member by the raw UTF-8 bytes of its name, without building a `String`: the keys of many tables, stored
/// end to end in one byte array, each table a range of them.
///
/// Tables of up to four keys compare lengths and bytes in a linear scan; larger ones hash the name (its length and
/// three bytes) into an open-addressed run of slots at most half full, and compare bytes only when the stored hash
/// is equal. A lookup touches no `Dictionary` and no `Hasher`: with the `Dictionary` this replaced, hashing a name
/// cost more than checking its value. A ``RuleProgram`` keeps every table of its fields and conditions in one store,
/// so that evaluation names a table by plain values (``Table``) and looks a name up with no reference count.
struct KeyStore: Sendable {
    /// One table of a store: its keys and its slots, as ranges of the store's arrays.
    struct Table: Sendable {
        /// The table's keys among the store's (``KeyStore/spans``).
        let keys: Range<Int>
        /// For a hashed table, its slots (a power of two of them); empty for a linear table.
        let slots: Range<Int>
    }

    /// Where a key's bytes lie in ``bytes``, and its hash (unused by a linear table): read together, from one
    /// array. A `nil` key gets length -1 and never matches.
    struct KeyPlace: Sendable {
        let start: Int32
        let length: Int32
        let hash: UInt64
    }

    /// Every key's bytes, end to end.
    private(set) var bytes: ContiguousArray<UInt8> = []
    /// Each key's place in ``bytes``, and its hash.
    private(set) var spans: ContiguousArray<KeyPlace> = []
    /// The slots of every hashed table, end to end: each the offset of a key in its table, or -1.
    private(set) var slots: ContiguousArray<Int32> = []

    /// Tables with more keys than this are hashed.
    private static let linearLimit = 4

    /// Adds a table of keys; a lookup finds a key's offset among them.
    ///
    /// - Parameter keys: The keys, in order; a `nil` key is never found.
    /// - Returns: The table.
    mutating func add(_ keys: [String?]) -> Table {
        let first = spans.count
        for key in keys {
            guard let key else {
                spans.append(KeyPlace(start: Int32(bytes.count), length: -1, hash: 0))
                continue
            }
            let start = bytes.count
            bytes.append(contentsOf: key.utf8)
            let hash = Self.hash(bytes.span.extracting(start..<bytes.count))
            spans.append(KeyPlace(start: Int32(start), length: Int32(bytes.count - start), hash: hash))
        }
        let table = first..<spans.count
        guard keys.count > Self.linearLimit else { return Table(keys: table, slots: slots.count..<slots.count) }
        var capacity = 8
        while capacity < keys.count * 2 { capacity *= 2 }
        let slotStart = slots.count
        slots.append(contentsOf: repeatElement(-1, count: capacity))
        for offset in 0..<keys.count where spans[first + offset].length >= 0 {
            var slot = Int(truncatingIfNeeded: spans[first + offset].hash) & (capacity - 1)
            while slots[slotStart + slot] >= 0 {
                // A later duplicate key is never found, as in a scan that stops at the first match.
                if key(first + Int(slots[slotStart + slot])) == key(first + offset) { break }
                slot = (slot + 1) & (capacity - 1)
            }
            if slots[slotStart + slot] < 0 { slots[slotStart + slot] = Int32(offset) }
        }
        return Table(keys: table, slots: slotStart..<slots.count)
    }

    /// A key's bytes, for building.
    private func key(_ place: Int) -> ArraySlice<UInt8> {
        bytes[Int(spans[place].start)..<Int(spans[place].start + max(spans[place].length, 0))]
    }

    /// The offset of the key of `table` that is exactly these bytes.
    func lookup(_ name: Span<UInt8>, in table: Table) -> Int? {
        let store = bytes.span
        if table.slots.isEmpty {
            for place in table.keys where equal(spans[place], name, in: store) { return place - table.keys.lowerBound }
            return nil
        }
        let hash = Self.hash(name)
        let mask = table.slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let offset = Int(slots[table.slots.lowerBound + slot])
            if offset < 0 { return nil }
            let place = table.keys.lowerBound + offset
            let key = spans[place]
            if key.hash == hash && equal(key, name, in: store) { return offset }
            slot = (slot + 1) & mask
        }
    }

    /// Whether a key is exactly these bytes.
    @inline(__always)
    private func equal(_ key: KeyPlace, _ name: Span<UInt8>, in store: Span<UInt8>) -> Bool {
        Int(key.length) == name.count && store.hasSameBytes(at: Int(key.start), as: name)
    }

    /// A hash of the length and three bytes (first, middle, last): enough to spread a schema's field names over
    /// the slots, and far cheaper than hashing every byte; the full comparison settles collisions.
    private static func hash(_ bytes: Span<UInt8>) -> UInt64 {
        let count = bytes.count
        guard count > 0 else { return 0 }
        let mixed =
            UInt64(count) | UInt64(bytes[0]) << 8 | UInt64(bytes[count / 2]) << 16 | UInt64(bytes[count - 1]) << 24
        return (mixed &* 0x9E37_79B9_7F4A_7C15) >> 32
    }
}

/// One table of keys in a store of its own: what a compiled field, a test and a pointer token keep (a
/// ``RuleProgram`` adds their ``keys`` to its own store).
struct KeyTable: Sendable {
    /// The keys, in order.
    let keys: [String?]
    private let store: KeyStore
    private let table: KeyStore.Table

    init(keys: [String?]) {
        self.keys = keys
        var store = KeyStore()
        table = store.add(keys)
        self.store = store
    }

    /// The offset of the key that is exactly these bytes.
    func lookup(_ name: Span<UInt8>) -> Int? { store.lookup(name, in: table) }
}
