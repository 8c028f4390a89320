internal import DCEPattern

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The working storage of an evaluation: the path and container stacks, the failed string checks and the regex
/// match data.
///
/// Creating it costs four allocations and freeing it as many, which for a small valid payload was a quarter of the
/// evaluation; so each thread keeps one and its evaluations borrow it (``take()``, ``giveBack()``). An evaluation
/// that starts while another on the same thread holds it (one run inside another) gets a fresh one.
struct EvaluationScratch {
    /// The objects and arrays enclosing the value being checked, innermost last.
    var containers: [JSONDocument.Index] = []
    /// The pointer tokens of the value being checked.
    var path: [Evaluation.PathToken] = []
    /// The rules a string broke, with which check.
    var failures: [(ViolationCode, Int)] = []
    /// Context values by slot: the prepared schema's, then derived ones (see ``Evaluation/deriveContexts()``).
    var context: [String?] = []
    /// Match data for regex matches, created on first use.
    var match: MatchScratch?

    /// Empty storage; it allocates as it grows.
    init() {}

    /// The calling thread's kept storage, or new storage when it has none to lend (the first evaluation on a
    /// thread, or one that runs inside another).
    static func take() -> EvaluationScratch {
        if let key = threadKey, let pointer = pthread_getspecific(key) {
            let holder = Unmanaged<Holder>.fromOpaque(pointer).takeUnretainedValue()
            if let scratch = holder.scratch.take() { return scratch }
        }
        var scratch = EvaluationScratch()
        scratch.containers.reserveCapacity(16)
        scratch.path.reserveCapacity(16)
        scratch.failures.reserveCapacity(8)
        return scratch
    }

    /// Hands this storage, emptied, to the calling thread for its next evaluation, and leaves `self` empty.
    mutating func giveBack() {
        guard let key = Self.threadKey else { return }
        let holder: Holder
        if let pointer = pthread_getspecific(key) {
            holder = Unmanaged<Holder>.fromOpaque(pointer).takeUnretainedValue()
            guard holder.scratch == nil else { return }
        } else {
            holder = Holder()
            // The key owns the holder from here; its destructor releases it when the thread ends.
            let retained = Unmanaged.passRetained(holder)
            guard pthread_setspecific(key, retained.toOpaque()) == 0 else {
                retained.release()
                return
            }
        }
        containers.removeAll(keepingCapacity: true)
        path.removeAll(keepingCapacity: true)
        failures.removeAll(keepingCapacity: true)
        context.removeAll(keepingCapacity: true)
        holder.scratch = self
        self = EvaluationScratch()
    }

    /// One thread's kept storage.
    private final class Holder {
        var scratch: EvaluationScratch?
    }

    /// The thread-specific key under which each thread keeps its ``Holder``; `nil` when the system has no key
    /// left, and then every evaluation allocates its own storage.
    private static let threadKey: pthread_key_t? = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        return created == 0 ? key : nil
    }()
}
