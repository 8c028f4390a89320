#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One object per thread, kept under a thread-specific key and released when the thread ends: what lets each thread
/// reuse its evaluation's working storage (``EvaluationScratch``) instead of allocating it for every payload.
///
/// `@unchecked Sendable`: the key is created once in `init` and never changes; each thread reads and writes only its
/// own value.
final class ThreadLocalSlot<Value: AnyObject>: @unchecked Sendable {
    /// `nil` when the system has no key left: then every thread goes without (``value`` is always `nil`).
    private let key: pthread_key_t?

    init() {
        var key = pthread_key_t()
        // SAFETY: the key is this slot's; its destructor (below) releases only what `store` retained.
        let created = unsafe pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                // SAFETY: the key holds only pointers `store` retained; the thread is ending and reads it no more.
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
                // SAFETY: the key holds only pointers `store` retained; the thread is ending and reads it no more.
                if let pointer = unsafe pointer { unsafe Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        self.key = created == 0 ? key : nil
    }

    /// The calling thread's object, if it stored one.
    var value: Value? {
        guard let key, let pointer = unsafe pthread_getspecific(key) else { return nil }
        // SAFETY: the key holds only objects `store` retained as `Value`, released only when the thread ends.
        return unsafe Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Keeps `value` for the calling thread, until it ends; `false` when it cannot (no key, or the system refused).
    /// A thread stores at most once: a second call leaves the first object in place and returns `false`.
    func store(_ value: Value) -> Bool {
        guard let key, unsafe pthread_getspecific(key) == nil else { return false }
        // SAFETY: the retain made here is owned by the key from here on, and released by its destructor.
        let retained = unsafe Unmanaged.passRetained(value)
        guard unsafe pthread_setspecific(key, retained.toOpaque()) == 0 else {
            unsafe retained.release()
            return false
        }
        return true
    }
}
