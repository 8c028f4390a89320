/// Finds a field by the raw UTF-8 bytes of a member name, without building a `String`.
///
/// The keys are stored end to end in one byte array. Small tables compare lengths and bytes in a linear scan;
/// larger ones hash the bytes first. A class, so that sharing one costs a single reference (or none, unmanaged).
final class KeyTable: Sendable {
    private let bytes: [UInt8]
    /// Start and length of each key in `bytes`; a `nil` key gets length -1 and never matches.
    private let spans: [(start: Int, length: Int)]
    private let buckets: [UInt64: [Int]]?

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
        self.bytes = bytes
        self.spans = spans
        if keys.count > 12 {
            var buckets: [UInt64: [Int]] = [:]
            bytes.withUnsafeBufferPointer { storage in
                for (offset, span) in spans.enumerated() where span.length >= 0 {
                    buckets[Self.hash(UnsafeBufferPointer(rebasing: storage[span.start..<(span.start + span.length)])), default: []].append(offset)
                }
            }
            self.buckets = buckets
        } else {
            self.buckets = nil
        }
    }

    /// The offset of the key that is exactly these bytes.
    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { storage in
            if let buckets {
                for offset in buckets[Self.hash(name)] ?? [] where equal(storage, spans[offset], name) { return offset }
                return nil
            }
            for offset in spans.indices where equal(storage, spans[offset], name) { return offset }
            return nil
        }
    }

    private func equal(_ storage: UnsafeBufferPointer<UInt8>, _ span: (start: Int, length: Int), _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard span.length == name.count else { return false }
        var index = 0
        while index < name.count {
            if storage[span.start + index] != name[index] { return false }
            index += 1
        }
        return true
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
