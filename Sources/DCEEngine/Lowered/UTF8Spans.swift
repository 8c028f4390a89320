#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension String {
    /// Calls `body` with the string's UTF-8 bytes as a span, without copying them where the string is stored as UTF-8
    /// (Swift 6.2's `String.utf8Span` needs macOS and iOS 26; the package supports 13 and 16).
    ///
    /// - Parameter body: What reads the bytes; the span is valid only during the call.
    /// - Returns: What `body` returns.
    func withUTF8Span<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        var text = self
        // SAFETY: `withUTF8` gives the string's own contiguous UTF-8, alive for its closure; the span made from it
        // borrows the buffer, so it cannot outlive the closure (the compiler holds its lifetime).
        return text.withUTF8 { buffer in unsafe body(buffer.span) }
    }
}

extension StaticString {
    /// Calls `body` with the string's UTF-8 bytes as a span (a `StaticString` hands them out as a pointer).
    ///
    /// - Parameter body: What reads the bytes; the span is valid only during the call.
    /// - Returns: What `body` returns.
    func withUTF8Span<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        // SAFETY: a static string's bytes are in the binary, alive for the whole run; the span borrows the buffer,
        // so it cannot outlive the closure.
        withUTF8Buffer { buffer in unsafe body(buffer.span) }
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a span, copied at once (`append(contentsOf:)` takes a sequence, and a span is none).
    ///
    /// - Parameter bytes: The bytes to append.
    mutating func append(_ bytes: Span<UInt8>) {
        // SAFETY: the span's memory is alive for the closure, and the copy keeps no pointer to it.
        unsafe bytes.withUnsafeBufferPointer { buffer in unsafe append(contentsOf: buffer) }
    }
}

/// The description of a C library error number, as `strerror` gives it.
///
/// - Parameter number: An `errno` value.
/// - Returns: Its description.
func systemErrorDescription(_ number: Int32) -> String {
    // SAFETY: `strerror` returns a NUL-terminated string that stays valid until the next call on this thread; it is
    // copied into a Swift string at once.
    unsafe String(cString: strerror(number))
}

extension Span where Element == UInt8 {
    /// Whether the bytes from `start` on begin with those of `other`: compared eight bytes at a time (the last load
    /// overlapping the one before), or four, since member names are mostly 4 to 24 bytes.
    func hasSameBytes(at start: Int, as other: Span<UInt8>) -> Bool {
        let count = other.count
        precondition(start >= 0 && start <= self.count - count, "bytes within the span")
        guard count > 0 else { return true }
        // SAFETY: both spans are alive for the closures; `self` holds `count` bytes from `start` (checked above) and
        // `other` holds `count`; every load reads bytes at offsets below `count` from those starts (8 or 4 bytes
        // ending at or before it), unaligned loads of plain integers.
        return unsafe withUnsafeBufferPointer { mine in
            unsafe other.withUnsafeBufferPointer { theirs in
                // SAFETY: both buffers hold `count` > 0 bytes, so both have a base address.
                let key = unsafe UnsafeRawPointer(mine.baseAddress.unsafelyUnwrapped + start)
                // SAFETY: as above.
                let text = unsafe UnsafeRawPointer(theirs.baseAddress.unsafelyUnwrapped)
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
                    // SAFETY: the last eight bytes, ending at `count`.
                    return unsafe key.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                        == text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                }
                if count >= 4 {
                    // SAFETY: the first and the last four bytes, within `count`.
                    return unsafe key.loadUnaligned(as: UInt32.self) == text.loadUnaligned(as: UInt32.self)
                        && key.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                            == text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                }
                // SAFETY: indices below `count` from each start, within both buffers.
                for index in 0..<count where unsafe mine[start + index] != theirs[index] { return false }
                return true
            }
        }
    }
}

/// Runs `body` with `count` integers on the stack, each `initial` to start with: working slots of one call that
/// allocate nothing (an object's member fields while it is checked).
///
/// - Parameters:
///   - count: How many slots.
///   - initial: Each slot's first value.
///   - body: What uses them; the span is valid only during the call.
/// - Returns: What `body` returns.
func withTemporarySlots<Result>(_ count: Int, initial: Int, _ body: (inout MutableSpan<Int>) -> Result) -> Result {
    // SAFETY: the allocation lives for the closure, which hands out only a span that borrows it.
    unsafe withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { buffer in
        // SAFETY: the buffer is this call's, `count` integers, all initialized here (plain integers need no
        // deinitializing); the span borrows it, so it cannot outlive the closure.
        unsafe buffer.initialize(repeating: initial)
        var slots = unsafe buffer.mutableSpan
        return body(&slots)
    }
}
