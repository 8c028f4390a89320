/// One value per thread, exchanged with one user at a time: what lets each thread's evaluations reuse the same
/// working storage (``EvaluationScratch``) without allocating it for each payload. The value is swapped into the
/// user's own variable and back (``exchange(_:)``), which moves it without a reference count: copying its arrays
/// in and out, with a count each and the empty ones left behind torn down, was about 440 instructions per payload
/// (callgrind).
///
/// A user that asks while the thread's value is out (one evaluation inside another), or on a thread that can keep
/// none, keeps what it has.
final class ThreadLocalStore<Value>: Sendable {
    private let slot = ThreadLocalSlot<Holder>()
    private let make: @Sendable () -> Value

    /// - Parameter make: The value a thread starts with.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    /// Swaps `value` with the calling thread's value when the thread's is in: `true` when it did (the thread's is
    /// then out, until the user swaps it back with ``giveBack(_:)``).
    func exchange(_ value: inout Value) -> Bool {
        let holder: Holder
        if let existing = slot.value {
            holder = existing
        } else {
            holder = Holder(make())
            guard slot.store(holder) else { return false }
        }
        guard !holder.out else { return false }
        holder.out = true
        swap(&holder.value, &value)
        return true
    }

    /// Swaps the thread's value back in from `value`, after ``exchange(_:)`` returned `true`.
    func giveBack(_ value: inout Value) {
        guard let holder = slot.value, holder.out else { return }
        swap(&holder.value, &value)
        holder.out = false
    }

    /// A thread's value, and whether it is out.
    ///
    /// `@unchecked Sendable`: it is kept in a thread-specific slot and read and written only by its own thread.
    private final class Holder: @unchecked Sendable {
        var value: Value
        var out = false

        init(_ value: Value) { self.value = value }
    }
}
