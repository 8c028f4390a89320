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
