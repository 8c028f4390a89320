import Synchronization

/// A shared object made the first time it is needed, so that loading the address data costs nothing per country
/// until an address of that country is checked. Readers load one word; the first to make the object publishes it with
/// a compare-and-exchange (a thread that loses the race drops its copy).
///
/// `@unchecked Sendable`: the slot holds either nothing or a retained, immutable object freed only in `deinit`.
final class OnceCell<Value: AnyObject & Sendable>: @unchecked Sendable {
    /// 0 until made; then the bits of a retained `Value`.
    private let slot = Atomic<UInt>(0)

    init() {}

    deinit {
        let bits = slot.load(ordering: .acquiring)
        // SAFETY: non-zero bits are the object `withValue` retained when it published it; this is the last use.
        if bits != 0 { unsafe Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Runs `body` with the value, made by `make` if no thread has made it yet; `nil` when `make` fails (it is tried
    /// again next time).
    func withValue<Result>(made make: () -> Value?, _ body: (Value) -> Result) -> Result? {
        var bits = slot.load(ordering: .acquiring)
        if bits == 0 {
            guard let value = make() else { return nil }
            // SAFETY: the retain made here is owned by the slot once published, or released below when another
            // thread published first.
            let new = unsafe UInt(bitPattern: Unmanaged.passRetained(value).toOpaque())
            let (exchanged, original) = slot.compareExchange(
                expected: 0, desired: new, ordering: .acquiringAndReleasing)
            if exchanged {
                bits = new
            } else {
                // SAFETY: `new` is the retain made above, which no other thread has seen.
                unsafe Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: new)!).release()
                bits = original
            }
        }
        // SAFETY: published bits never change and stay retained by the slot until `deinit`, which cannot run while
        // this method does; the strong reference taken here keeps the object alive while `body` runs.
        return unsafe body(Unmanaged<Value>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue())
    }
}
