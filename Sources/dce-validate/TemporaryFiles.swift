#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files reports are written to before they are renamed into place, removed when a signal ends
/// the run (SIGINT, SIGTERM, SIGHUP, SIGPIPE) so that a killed run leaves the previous report and nothing else.
///
/// A signal handler may only call async-signal-safe functions: it cannot allocate, take a lock or touch a Swift
/// array. So the paths live in memory allocated once, one fixed-size C string per slot, and the handler only
/// reads them, calls unlink(2) on each, and raises the signal again with its default action, so that the run ends
/// as if the handler had not been there (status 128 + the signal in a shell). This is the tool's one piece of
/// global state: a handler cannot be handed anything.
///
/// Slots are changed only on the main thread, with the handled signals blocked there; worker threads block them
/// for good (``blockSignalsInThisThread()``), so the handler never runs while a slot is half written.
enum TemporaryFiles {
    /// How many temporary files can be open at once: one per report of a run.
    private static let capacity = 64
    private static let pathCapacity = Int(PATH_MAX) + 1
    /// `capacity` C strings of `pathCapacity` bytes; an empty string is a free slot.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<CChar> = {
        let slots = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * pathCapacity)
        slots.initialize(repeating: 0, count: capacity * pathCapacity)
        return slots
    }()
    private static let handled = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]
    nonisolated(unsafe) private static var installed = false

    /// A registered path's slot.
    struct Slot {
        fileprivate let index: Int
    }

    /// Records a path to remove if a signal ends the run, before the file is created; `nil` when the path is too
    /// long or every slot is taken (the caller then writes in place).
    static func register(_ path: String) -> Slot? {
        installHandlers()
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < pathCapacity, !bytes.contains(0) else { return nil }
        return withSignalsBlocked {
            guard let index = (0..<capacity).first(where: { slots[$0 * pathCapacity] == 0 }) else { return nil }
            let slot = slots + index * pathCapacity
            bytes.withUnsafeBufferPointer { source in
                for offset in 1..<source.count { slot[offset] = CChar(bitPattern: source[offset]) }
            }
            slot[bytes.count] = 0
            slot[0] = CChar(bitPattern: bytes[0])  // last: the slot is in use from here on
            return Slot(index: index)
        }
    }

    /// Forgets a path once its file is renamed into place or removed.
    static func unregister(_ slot: Slot) {
        withSignalsBlocked { slots[slot.index * pathCapacity] = 0 }
    }

    /// Keeps the handled signals away from the calling thread (a worker), so that the handler runs on the main
    /// thread only.
    static func blockSignalsInThisThread() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }

    private static func withSignalsBlocked<Result>(_ body: () -> Result) -> Result {
        var set = signalSet()
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return body()
    }

    /// Installs the handler for each handled signal that is not ignored (a shell starts background jobs with
    /// SIGINT ignored, and that choice stands), and unblocks them: a parent may start the tool with them blocked,
    /// and then SIGTERM would wait forever. SIGXFSZ is ignored, so that a file size limit fails the write
    /// (reported, exit status 2) instead of killing the run.
    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        _ = slots
        var mask = signalSet()
        for signal in handled {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if isIgnored(current) { continue }
            var action = sigaction()
            setHandler(&action)
            action.sa_mask = mask
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigaction(signal, &action, nil)
        }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Removes every registered file, then raises the signal again, now with its default action.
    private static let handler: @convention(c) (Int32) -> Void = { signal in
        for index in 0..<capacity where slots[index * pathCapacity] != 0 {
            unlink(slots + index * pathCapacity)
        }
        raise(signal)
    }

    #if canImport(Darwin)
        private static func isIgnored(_ action: sigaction) -> Bool {
            unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        }

        private static func setHandler(_ action: inout sigaction) {
            action.__sigaction_u.__sa_handler = handler
        }
    #else
        private static func isIgnored(_ action: sigaction) -> Bool {
            unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        }

        private static func setHandler(_ action: inout sigaction) {
            action.__sigaction_handler.sa_handler = handler
        }
    #endif
}
