#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Bytes appended one after another into memory of their own, as ``DocumentWriter`` writes a typed request: an append
/// is a capacity check and a copy, without the uniqueness check an array's append makes through the runtime (a typed
/// request's text is twenty-odd appends, and those checks were a tenth of writing it).
///
/// Not copyable: the memory has one owner, which frees it. `@safe`: every access to it is checked against ``count``.
@safe
struct ByteStore: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    /// An empty store.
    ///
    /// - Parameter capacity: The bytes it holds before it grows.
    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        // SAFETY: a fresh allocation, freed once, in deinit (or when it is replaced by a larger one).
        unsafe base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 1)
    }

    deinit {
        // SAFETY: the allocation this store made; nothing else points into it.
        unsafe base.deallocate()
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        var larger = capacity * 2
        while larger < count + extra { larger *= 2 }
        // SAFETY: the new allocation holds `larger` ≥ `count` bytes; the first `count` are copied from the old one,
        // which is then freed and no longer used.
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 1)
        unsafe moved.copyMemory(from: base, byteCount: count)
        // SAFETY: the old allocation, whose bytes were copied; `base` is replaced at once.
        unsafe base.deallocate()
        unsafe base = moved
        capacity = larger
    }

    /// Appends a byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        // SAFETY: `reserve` made room at offset `count`.
        unsafe base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends bytes.
    mutating func append(_ bytes: [UInt8]) {
        // SAFETY: the array's bytes are alive for the closure and copied.
        unsafe bytes.withUnsafeBytes { unsafe append(raw: $0) }
    }

    private mutating func append(raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        // SAFETY: `reserve` made room for `raw.count` bytes at offset `count`; the source is alive for the call.
        unsafe (base + count).copyMemory(from: source, byteCount: raw.count)
        count += raw.count
    }

    /// The byte at an offset.
    subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "a byte within the store")
        // SAFETY: the offset is within the bytes written.
        return unsafe base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Whether two written runs hold the same bytes.
    func same(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        precondition(first.upperBound <= count && second.upperBound <= count, "runs within the store")
        guard first.count == second.count else { return false }
        // SAFETY: both runs are within the bytes written.
        return unsafe memcmp(base + first.lowerBound, base + second.lowerBound, first.count) == 0
    }

    /// Whether a written run is all ASCII.
    func isASCII(_ run: Range<Int>) -> Bool {
        for offset in run where self[offset] >= 0x80 { return false }
        return true
    }

    /// A written run, copied.
    func bytes(_ run: Range<Int>) -> [UInt8] {
        precondition(run.upperBound <= count, "a run within the store")
        // SAFETY: the run is within the bytes written; the array is filled with exactly its count.
        return unsafe [UInt8](unsafeUninitializedCapacity: run.count) { buffer, initialized in
            unsafe buffer.baseAddress!.initialize(
                from: (base + run.lowerBound).assumingMemoryBound(to: UInt8.self), count: run.count)
            initialized = run.count
        }
    }

    /// Everything written, copied into an array.
    func array() -> [UInt8] { bytes(0..<count) }

    /// Appends a string as a JSON string literal when none of its bytes needs an escape (the common case, copied at
    /// once), and appends nothing otherwise.
    ///
    /// - Parameter text: The string.
    /// - Returns: The length of its UTF-8, and whether it was appended.
    mutating func appendPlainJSONString(_ text: String) -> (utf8Count: Int, appended: Bool) {
        // SAFETY: the string's contiguous UTF-8 is alive for the closure; the bytes are read in it and copied.
        let done = unsafe text.utf8.withContiguousStorageIfAvailable { utf8 in unsafe appendPlain(utf8) }
        if let done { return done }
        var copy = text
        // SAFETY: as above, for the string's own contiguous copy.
        return copy.withUTF8 { utf8 in unsafe appendPlain(utf8) }
    }

    /// ``appendPlainJSONString(_:)`` for a name known when the code is compiled.
    mutating func appendPlainJSONString(_ text: StaticString) -> (utf8Count: Int, appended: Bool) {
        // SAFETY: a static string's bytes are in the binary, alive for the whole run; they are copied.
        text.withUTF8Buffer { utf8 in unsafe appendPlain(utf8) }
    }

    private mutating func appendPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> (utf8Count: Int, appended: Bool) {
        let length = utf8.count
        guard let source = utf8.baseAddress else {
            append(UInt8(ascii: "\""))
            append(UInt8(ascii: "\""))
            return (0, true)
        }
        var index = 0
        // Eight bytes at a time: whether any is below 0x20, or is a quote or a backslash (each test exact for "any
        // byte", as the bit tricks for a zero byte are).
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        while index + 8 <= length {
            // SAFETY: the eight bytes from `index` are within the buffer.
            let word = unsafe UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
            if (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ (ones &* 0x22))
                || hasZero(word ^ (ones &* 0x5C))
            {
                return (length, false)
            }
            index += 8
        }
        while index < length {
            // SAFETY: `index` is within the buffer.
            let byte = unsafe source[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return (length, false) }
            index += 1
        }
        reserve(length + 2)
        append(UInt8(ascii: "\""))
        // SAFETY: the buffer is alive for the call.
        unsafe append(raw: UnsafeRawBufferPointer(utf8))
        append(UInt8(ascii: "\""))
        return (length, true)
    }
}
