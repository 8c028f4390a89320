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
/// `@unchecked Sendable`: that one owner may hand it to another task, as it hands any value it owns; it cannot share it.
@safe
struct ByteStore: ~Copyable, @unchecked Sendable {
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

    /// Appends an integer in decimal.
    mutating func append(decimal value: Int) {
        reserve(20)  // "-9223372036854775808"
        if value < 0 {
            // SAFETY: `reserve` made room for twenty bytes at offset `count`.
            unsafe base.storeBytes(of: UInt8(ascii: "-"), toByteOffset: count, as: UInt8.self)
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        magnitude = value.magnitude
        // The last digit first, from the end of the number's room.
        for offset in stride(from: count + digits - 1, through: count, by: -1) {
            // SAFETY: the offsets run over the number's digits, within the twenty bytes `reserve` made room for.
            unsafe base.storeBytes(
                of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), toByteOffset: offset,
                as: UInt8.self)
            magnitude /= 10
        }
        count += digits
    }

    /// Forgets what was written, keeping the memory for what is written next.
    mutating func removeAll() { count = 0 }

    /// Copies everything written into an array, in place of what it held (its memory kept).
    func copy(into array: inout ContiguousArray<UInt8>) {
        array.removeAll(keepingCapacity: true)
        // SAFETY: the first `count` bytes are written; they are copied into the array.
        unsafe array.append(
            contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
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
        reserve(length + 2)
        guard let source = utf8.baseAddress, length > 0 else {
            append(UInt8(ascii: "\""))
            append(UInt8(ascii: "\""))
            return (0, true)
        }
        // SAFETY: the buffer's `length` bytes are alive for the call; every load below is within them.
        let text = unsafe UnsafeRawPointer(source)
        // Eight bytes at a time, the last eight overlapping the word before; four and four overlapping below eight; a
        // name or a value is mostly shorter than sixteen bytes, and a byte-by-byte tail was a fifth of writing it.
        if length >= 8 {
            var index = 0
            while index + 8 < length {
                if Self.needsEscape(unsafe text.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    return (length, false)
                }
                index += 8
            }
            // SAFETY: the last eight bytes, within the buffer's `length` ≥ 8.
            if Self.needsEscape(unsafe text.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)) {
                return (length, false)
            }
        } else if length >= 4 {
            // SAFETY: the first and the last four bytes, within the buffer's `length` ≥ 4.
            let first = UInt64(unsafe text.loadUnaligned(as: UInt32.self))
            let last = UInt64(unsafe text.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self))
            if Self.needsEscape(first | last << 32) { return (length, false) }
        } else {
            for index in 0..<length {
                // SAFETY: `index` is within the buffer.
                let byte = unsafe text.load(fromByteOffset: index, as: UInt8.self)
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return (length, false) }
            }
        }
        // SAFETY: `reserve` made room for the quotes and `length` bytes at offset `count`; every store below is
        // within them, and every load within the buffer.
        let target = unsafe base + count
        unsafe target.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        let contents = unsafe target + 1
        switch length {
        case 8...16:
            let first = unsafe text.loadUnaligned(as: UInt64.self)
            let last = unsafe text.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            unsafe contents.storeBytes(of: first, as: UInt64.self)
            unsafe contents.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            // SAFETY: the first and the last four bytes of the buffer, stored at the same offsets of the room made.
            let first = unsafe text.loadUnaligned(as: UInt32.self)
            let last = unsafe text.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            unsafe contents.storeBytes(of: first, as: UInt32.self)
            unsafe contents.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
        case 0..<4:
            for index in 0..<length {
                // SAFETY: `index` is within the buffer and the room made.
                unsafe contents.storeBytes(
                    of: text.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self)
            }
        default:
            // SAFETY: `length` bytes from the buffer into the room made for them.
            unsafe contents.copyMemory(from: text, byteCount: length)
        }
        // SAFETY: the closing quote's place, the last of the room made.
        unsafe contents.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length, as: UInt8.self)
        count += length + 2
        return (length, true)
    }

    /// Whether any of eight bytes is below 0x20, a quote or a backslash (each test exact for "any byte", as the bit
    /// tricks for a zero byte are).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        return (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ (ones &* 0x22))
            || hasZero(word ^ (ones &* 0x5C))
    }
}
