/// One value per thread, lent by pointer to one user at a time: what lets each thread's evaluations reuse the same
/// working storage (``EvaluationScratch``) without allocating it for each payload, and without moving it in and out
/// of each evaluation (its arrays moved in and back, and the empty ones left behind torn down, were about 440
/// instructions of releases per payload, by callgrind).
///
/// A user that asks while the thread's value is lent (one evaluation inside another), or on a thread that can keep
/// none, gets a value of its own, freed when it is given back.
///
/// `@unchecked Sendable`: each thread reads and writes only its own value, through ``ThreadLocalSlot``.
final class ThreadLocalLoan<Value>: @unchecked Sendable {
    private let slot = ThreadLocalSlot<Holder>()
    private let make: @Sendable () -> Value

    /// - Parameter make: A new value, for the first loan on each thread and for a loan of its own.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    /// A value lent: valid until it is given back (``giveBack(_:)``), on the thread that took it. `@unsafe`: nothing
    /// but its user's giving it back ends the use of its pointer.
    @unsafe struct Loan {
        let pointer: UnsafeMutablePointer<Value>
        /// The thread's holder the value came from; `nil` for a value made for this loan alone.
        // SAFETY: uncounted; the thread's slot keeps the holder alive for as long as the thread can give it back.
        fileprivate let holder: Unmanaged<Holder>?
    }

    /// Lends the calling thread's value, or a new one when the thread's is lent already or it can keep none.
    func take() -> Loan {
        let holder: Holder
        if let existing = slot.value {
            holder = existing
        } else {
            holder = Holder(make())
            // SAFETY: a value of its own, freed by `giveBack`.
            guard slot.store(holder) else { return unsafe Loan(pointer: Holder.allocate(make()), holder: nil) }
        }
        // SAFETY: as above.
        guard !holder.lent else { return unsafe Loan(pointer: Holder.allocate(make()), holder: nil) }
        holder.lent = true
        // SAFETY: the thread's slot keeps the holder alive until the thread ends, so the loan needs no count of its own.
        return unsafe Loan(pointer: holder.pointer, holder: Unmanaged.passUnretained(holder))
    }

    /// Takes a loan back: the thread's value, after `reset` readies it for the next loan; a value of its own is freed.
    func giveBack(_ loan: Loan, reset: (inout Value) -> Void) {
        // SAFETY: the holder is the thread's, kept alive by its slot (see `take`).
        guard let holder = unsafe loan.holder?.takeUnretainedValue() else {
            // SAFETY: a value made for one loan is freed once, here, by the loan's user, who reads it no more.
            unsafe loan.pointer.deinitialize(count: 1)
            // SAFETY: as above.
            unsafe loan.pointer.deallocate()
            return
        }
        unsafe reset(&loan.pointer.pointee)
        holder.lent = false
    }

    /// A thread's value, and whether it is lent. `@safe`: it owns the value's memory, made in `init` and freed in
    /// `deinit`.
    @safe fileprivate final class Holder {
        let pointer: UnsafeMutablePointer<Value>
        var lent = false

        // SAFETY: the holder's value, freed in `deinit`.
        init(_ value: Value) { unsafe pointer = unsafe Self.allocate(value) }

        // SAFETY: what this allocates is freed in `deinit`, or by `giveBack` for a value lent alone; never read after.
        static func allocate(_ value: Value) -> UnsafeMutablePointer<Value> {
            // SAFETY: as above.
            let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            unsafe pointer.initialize(to: value)
            return unsafe pointer
        }

        deinit {
            // SAFETY: the holder's value is freed with the holder, when its thread ends and no loan is out.
            unsafe pointer.deinitialize(count: 1)
            // SAFETY: as above.
            unsafe pointer.deallocate()
        }
    }
}
