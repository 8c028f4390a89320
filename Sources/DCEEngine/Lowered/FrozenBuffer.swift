/// Elements stored once, in memory this object owns, and read through ``view``: a plain pointer and count that the
/// hot path reads without a reference count, a bounds check or an exclusivity check.
///
/// Everything in the engine that allocates memory by hand goes through here (or the other types of this folder), so
/// that the lifetime rule is written in one place: a view is valid while its buffer is alive, and whoever stores a
/// view keeps the buffer alive beside it (``RuleProgram`` holds its buffers; an `AttributeSet` its own).
///
/// `@unchecked Sendable`: the elements are written only in `init` and freed only in `deinit`, and `Element` is
/// `Sendable` wherever a buffer crosses threads (every use in the engine holds plain values or `Sendable` objects).
///
/// `@safe`: it owns its memory, allocated and initialised in `init` and freed once in `deinit`; what reads it through
/// ``view`` or ``first`` takes the pointer's lifetime rule above.
@safe final class FrozenBuffer<Element>: @unchecked Sendable {
    /// The elements, valid while this buffer is alive.
    let view: UnsafeBufferPointer<Element>

    /// Copies the elements into memory this buffer owns.
    init(_ elements: [Element]) {
        // SAFETY: allocated for exactly `elements.count` elements, all initialised on the next line; freed in `deinit`.
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = unsafe storage.initialize(fromContentsOf: elements)
        unsafe view = UnsafeBufferPointer(storage)
    }

    deinit {
        // SAFETY: `view` is the memory `init` allocated and initialised; nothing reads it once the buffer is gone.
        let storage = unsafe UnsafeMutableBufferPointer(mutating: view)
        unsafe storage.deinitialize()
        unsafe storage.deallocate()
    }

    /// The first element's address, for a buffer of one value read in place.
    var first: UnsafePointer<Element> {
        unsafe precondition(!view.isEmpty, "a buffer read in place holds a value")
        // SAFETY: a non-empty allocation has a base address.
        return unsafe view.baseAddress.unsafelyUnwrapped
    }
}

extension UnsafeBufferPointer {
    /// The address of element `index`, for reading a large record in place instead of copying it.
    ///
    /// Checked in debug builds only: callers index with places the rule program computed from its own tables.
    @inline(__always)
    func address(of index: Int) -> UnsafePointer<Element> {
        assert(index >= 0 && index < count, "an element of the buffer")
        // SAFETY: `index` is within the buffer (asserted above), so the buffer is not empty and has a base address.
        return unsafe baseAddress.unsafelyUnwrapped + index
    }
}
