import Foundation

/// Threads of its own that validate requests, so that the server's network threads only read and write: a slow
/// validation never holds up other connections.
///
/// Concurrency is bounded: `threads` run at once, of which at most `largeThreads` on large bodies, so that
/// small requests always find a thread while large ones wait their turn; at most `queueLimit` jobs wait, and
/// beyond that a job is refused at once (the caller answers 503 with `Retry-After`).
///
/// The threads end when the pool is released, once the jobs queued by then are done.
final class ValidationPool: Sendable {
    /// The pool is saturated: the job was not queued.
    struct Saturated: Error {}

    private let queue: Queue

    init(threads: Int, largeThreads: Int, queueLimit: Int) {
        queue = Queue(largeThreads: max(1, min(largeThreads, threads)), queueLimit: max(0, queueLimit))
        for index in 0..<max(1, threads) {
            let thread = Thread { [queue] in queue.work() }
            thread.name = "dce-gateway validation \(index)"
            thread.start()
        }
    }

    deinit { queue.stop() }

    /// Runs `job` on a pool thread and returns its result.
    ///
    /// - Parameters:
    ///   - isLarge: Whether the job works on a large body.
    ///   - job: The work; it must not block.
    /// - Returns: What `job` returned.
    /// - Throws: ``Saturated`` when `queueLimit` jobs are already waiting.
    func run<Result: Sendable>(isLarge: Bool, _ job: @escaping @Sendable () -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            if !queue.add(isLarge: isLarge, { continuation.resume(returning: job()) }) {
                continuation.resume(throwing: Saturated())
            }
        }
    }
}

/// The jobs of a ``ValidationPool``, shared with its threads.
///
/// `@unchecked Sendable`: every stored property but the constants is read and written only while `condition` is
/// locked.
private final class Queue: @unchecked Sendable {
    private let condition = NSCondition()
    private let largeThreads: Int
    private let queueLimit: Int
    private var small: [() -> Void] = []
    private var smallHead = 0
    private var large: [() -> Void] = []
    private var largeHead = 0
    private var largeRunning = 0
    private var stopping = false

    init(largeThreads: Int, queueLimit: Int) {
        self.largeThreads = largeThreads
        self.queueLimit = queueLimit
    }

    /// Queues a job; `false` when `queueLimit` jobs are already waiting.
    func add(isLarge: Bool, _ job: @escaping () -> Void) -> Bool {
        condition.withLock {
            guard small.count - smallHead + large.count - largeHead < queueLimit else { return false }
            if isLarge { large.append(job) } else { small.append(job) }
            condition.broadcast()
            return true
        }
    }

    /// Lets the threads end once the queue is empty.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// A thread's loop: small jobs first; a large one only while fewer than `largeThreads` run.
    func work() {
        condition.lock()
        while true {
            if stopping && smallHead == small.count && largeHead == large.count {
                condition.unlock()
                return
            }
            if smallHead < small.count {
                let job = small[smallHead]
                smallHead += 1
                if smallHead == small.count {
                    small.removeAll(keepingCapacity: true)
                    smallHead = 0
                }
                condition.unlock()
                job()
                condition.lock()
            } else if largeHead < large.count && largeRunning < largeThreads {
                let job = large[largeHead]
                largeHead += 1
                if largeHead == large.count {
                    large.removeAll(keepingCapacity: true)
                    largeHead = 0
                }
                largeRunning += 1
                condition.unlock()
                job()
                condition.lock()
                largeRunning -= 1
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
    }
}
