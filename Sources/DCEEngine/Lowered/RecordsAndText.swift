/// Plain records and the bytes of their text in one allocation, never changed once made: what a report keeps of the
/// violations one validation found (``FoundViolations``), so that a report costs one allocation however many
/// violations it holds.
///
/// Read through bounds-checked accessors only; the records are copied in as bytes and never deinitialized, so
/// `Record` must hold no reference (`BitwiseCopyable`).
///
/// `@safe`: it owns its memory (a `ManagedBuffer`'s), written once in ``make(header:records:text:)`` and read only
/// through the checked accessors below, none of which hands out a pointer.
@safe
final class RecordsAndText<Header, Record: BitwiseCopyable>: ManagedBuffer<
    RecordsAndTextLayout<Header>, Record
>
{
    /// Copies records and their text into a new buffer.
    ///
    /// - Parameters:
    ///   - header: What every record shares.
    ///   - records: The records.
    ///   - text: The bytes their ranges of text refer to.
    /// - Returns: The buffer.
    static func make(header: Header, records: Span<Record>, text: Span<UInt8>) -> RecordsAndText {
        let stride = MemoryLayout<Record>.stride
        let textRecords = (text.count + stride - 1) / stride
        let count = records.count
        let buffer = create(minimumCapacity: count + textRecords) { _ in
            RecordsAndTextLayout(header: header, count: count, textCount: text.count)
        }
        // SAFETY: the buffer has room for `count` records and then `textCount` bytes (rounded up to whole records);
        // the records are plain bytes (`BitwiseCopyable`), so copying their memory initializes them, and the text
        // is read back only as bytes. The spans' memory is alive for the closures.
        unsafe buffer.withUnsafeMutablePointerToElements { elements in
            unsafe records.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { unsafe elements.initialize(from: base, count: count) }
            }
            unsafe text.withUnsafeBufferPointer { source in
                if let base = source.baseAddress {
                    unsafe UnsafeMutableRawPointer(elements + count).copyMemory(from: base, byteCount: source.count)
                }
            }
        }
        // SAFETY: `create` on this class makes an instance of it.
        return unsafe unsafeDowncast(buffer, to: RecordsAndText.self)
    }

    /// What every record shares.
    var shared: Header { header.header }

    /// The number of records.
    var count: Int { header.count }

    /// The record at `index`.
    func record(at index: Int) -> Record {
        precondition(index >= 0 && index < header.count, "a record of the buffer")
        // SAFETY: `index` is within the records, which `make` initialized.
        return unsafe withUnsafeMutablePointerToElements { unsafe $0[index] }
    }

    /// Calls `body` with the bytes of `range` of the text.
    func withText<Result>(_ range: Range<Int>, _ body: (Span<UInt8>) -> Result) -> Result {
        let layout = header
        precondition(range.lowerBound >= 0 && range.upperBound <= layout.textCount, "a range of the buffer's text")
        // SAFETY: the text lies after the last record and `range` is within it (checked above); the buffer is alive
        // while its method runs, and the span borrows the pointer, so it cannot outlive the closure.
        return unsafe withUnsafeMutablePointerToElements { elements in
            let start = unsafe UnsafeRawPointer(elements + layout.count).assumingMemoryBound(to: UInt8.self)
            let bytes = unsafe UnsafeBufferPointer(start: start + range.lowerBound, count: range.count)
            return unsafe body(bytes.span)
        }
    }

    /// Every byte kept: the records' memory, then the text (what tests search for values a report must not keep).
    var keptBytes: [UInt8] {
        let layout = header
        // SAFETY: the records and the text are initialized memory of this buffer, copied out while it is alive.
        return unsafe withUnsafeMutablePointerToElements { elements in
            let records = unsafe UnsafeRawBufferPointer(
                start: elements, count: layout.count * MemoryLayout<Record>.stride)
            let text = unsafe UnsafeRawBufferPointer(start: elements + layout.count, count: layout.textCount)
            return unsafe Array(records) + Array(text)
        }
    }
}

/// The header of a ``RecordsAndText``: what its records share, and how many records and bytes of text it holds.
struct RecordsAndTextLayout<Header> {
    let header: Header
    let count: Int
    let textCount: Int
}
