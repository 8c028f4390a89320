import Foundation

/// Threads of its own for CPU-bound work, so that the threads that hand it over only read and write: the gateway's
/// validations (its network threads never validate) and `dce-validate`'s batches (the main thread reads inputs and
/// writes reports in order while the workers validate).
///
/// Concurrency is bounded: `threads` run at once, of which at most `largeThreads` on large jobs, so that small jobs
/// always find a thread while large ones wait their turn; small jobs go first. At most `queueLimit` jobs wait, and
/// beyond that a job is refused at once (the gateway answers 503 with `Retry-After`).
///
/// The threads end when the pool is released, once the jobs queued by then are done.
package final class WorkerPool: Sendable {
    /// The pool is saturated: the job was not queued.
    package struct Saturated: Error {}

    private let queue: Queue

    /// Starts the threads.
    ///
    /// - Parameters:
    ///   - name: The threads' name, numbered (`dce-gateway validation 0`, …), as debuggers and `top -H` show it.
    ///   - threads: How many jobs run at once (at least one).
    ///   - largeThreads: How many of them may be large jobs (all of them by default).
    ///   - queueLimit: How many jobs may wait (no bound by default).
    ///   - onThreadStart: Run first on each thread (`dce-validate` blocks signals there).
    package init(
        name: String, threads: Int, largeThreads: Int? = nil, queueLimit: Int = .max,
        onThreadStart: @escaping @Sendable () -> Void = {}
    ) {
        let threads = max(1, threads)
        queue = Queue(largeThreads: max(1, min(largeThreads ?? threads, threads)), queueLimit: max(0, queueLimit))
        for index in 0..<threads {
            let thread = Thread { [queue] in
                onThreadStart()
                queue.work()
            }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    deinit { queue.stop() }

    /// Queues `job` to run on a pool thread.
    ///
    /// - Parameters:
    ///   - isLarge: Whether the job works on a large input.
    ///   - job: The work; it must not block.
    /// - Returns: `false` when `queueLimit` jobs are already waiting: the job was not queued.
    package func submit(isLarge: Bool = false, _ job: @escaping @Sendable () -> Void) -> Bool {
        queue.add(isLarge: isLarge, job)
    }

    /// Runs `job` on a pool thread and returns its result.
    ///
    /// - Parameters:
    ///   - isLarge: Whether the job works on a large input.
    ///   - job: The work; it must not block.
    /// - Returns: What `job` returned.
    /// - Throws: ``Saturated`` when `queueLimit` jobs are already waiting.
    package func run<Result: Sendable>(isLarge: Bool = false, _ job: @escaping @Sendable () -> Result) async throws
        -> Result
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            if !queue.add(isLarge: isLarge, { continuation.resume(returning: job()) }) {
                continuation.resume(throwing: Saturated())
            }
        }
    }
}

/// The jobs of a ``WorkerPool``, shared with its threads.
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
                let job = Self.take(from: &small, at: &smallHead)
                condition.unlock()
                job()
                condition.lock()
            } else if largeHead < large.count && largeRunning < largeThreads {
                let job = Self.take(from: &large, at: &largeHead)
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

    /// Takes the job at `head`, letting go of it in the queue at once: a job holds what it works on (a batch's block
    /// of payloads, a request's body), and a queue that never runs empty (a batch reading faster than it validates)
    /// would otherwise hold every job it ever ran. The jobs run are dropped once they are half the array.
    private static func take(from jobs: inout [() -> Void], at head: inout Int) -> () -> Void {
        let job = jobs[head]
        jobs[head] = {}
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
