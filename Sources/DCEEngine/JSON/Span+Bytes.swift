/// What the engine asks of a string's bytes borrowed as a `Span`, which is no `Sequence`.
extension Span where Element == UInt8 {
    /// Whether every byte satisfies `predicate`.
    func allSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        for index in indices where !predicate(self[index]) { return false }
        return true
    }

    /// Whether the bytes are those of `other`, in order.
    func elementsEqual(_ other: Span<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in indices where self[index] != other[index] { return false }
        return true
    }

    /// Whether the bytes are those of `other`, in order.
    func elementsEqual(_ other: some Collection<UInt8>) -> Bool {
        guard count == other.count else { return false }
        var index = 0
        for byte in other {
            if self[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// -1, 0 or 1 as these bytes come before `other`, are the same, or come after it, byte by byte.
    func compared(to other: Span<UInt8>) -> Int {
        for index in 0..<Swift.min(count, other.count) where self[index] != other[index] {
            return self[index] < other[index] ? -1 : 1
        }
        return count < other.count ? -1 : count == other.count ? 0 : 1
    }

    /// The bytes, copied into an array.
    var array: [UInt8] {
        var copy: [UInt8] = []
        copy.reserveCapacity(count)
        for index in indices { copy.append(self[index]) }
        return copy
    }

    /// The bytes decoded as UTF-8 (invalid sequences become U+FFFD).
    var decoded: String { String(decoding: array, as: UTF8.self) }
}

extension Array where Element: BitwiseCopyable {
    /// Calls `body` with the elements as a span (`Array.span` needs macOS and iOS 26; a slice's does not).
    ///
    /// - Parameter body: What reads the elements; the span is valid only during the call.
    /// - Returns: What `body` returns.
    package func withSpan<Result>(_ body: (Span<Element>) -> Result) -> Result {
        let slice = self[...]
        return body(slice.span)
    }
}
