/// Finds a field by the raw UTF-8 bytes of a member name, without building a `String`.
///
/// Small objects compare lengths and bytes in a linear scan; larger ones hash the bytes first.
struct KeyTable: Sendable {
    private let keys: [[UInt8]]
    private let buckets: [UInt64: [Int]]?

    init(keys: [String?]) {
        self.keys = keys.map { Array(($0 ?? "").utf8) }
        if keys.count > 12 {
            var buckets: [UInt64: [Int]] = [:]
            for (offset, key) in self.keys.enumerated() where keys[offset] != nil {
                buckets[key.withUnsafeBufferPointer(Self.hash), default: []].append(offset)
            }
            self.buckets = buckets
        } else {
            self.buckets = nil
        }
    }

    /// The offset of the field whose key is exactly these bytes.
    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        if let buckets {
            for offset in buckets[Self.hash(name)] ?? [] where equal(offset, name) { return offset }
            return nil
        }
        for offset in keys.indices where equal(offset, name) { return offset }
        return nil
    }

    private func equal(_ offset: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = keys[offset]
        guard key.count == name.count else { return false }
        return key.withUnsafeBufferPointer { stored in
            var index = 0
            while index < name.count {
                if stored[index] != name[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// FNV-1a over the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
