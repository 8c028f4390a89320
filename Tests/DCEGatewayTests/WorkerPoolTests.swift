import DCEWorkers
import Foundation
import Testing

/// The one pool the gateway validates on and dce-validate's batches run on.
struct WorkerPoolTests {
    /// What a job holds.
    private final class Payload: Sendable {}

    /// A job that has run is let go at once, though the queue has not run empty since: a batch keeps its queue
    /// topped up for a whole stream, and holding every block of payloads it ever validated took a 1,000,000-payload
    /// stream to 211 MB (`./scripts/benchmark`), where it keeps under 64.
    @Test func aJobThatHasRunIsLetGoWhileTheQueueStillHoldsOthers() {
        let pool = WorkerPool(name: "test", threads: 1)
        let (startFirst, thirdStarted, finishThird) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
            DispatchSemaphore(value: 0)
        )
        weak var held: Payload?
        do {
            let payload = Payload()
            held = payload
            #expect(pool.submit { startFirst.wait() })
            #expect(pool.submit { withExtendedLifetime(payload) {} })
        }
        #expect(
            pool.submit {
                thirdStarted.signal()
                finishThird.wait()
            })
        #expect(pool.submit {})
        startFirst.signal()
        thirdStarted.wait()
        // The second job has run; the third runs and the fourth waits: the queue is not empty.
        #expect(held == nil)
        finishThird.signal()
    }

    /// Past its queue limit a job is refused at once (the gateway answers 503), and what was queued still runs.
    @Test func pastItsQueueLimitAJobIsRefusedAndTheQueuedOnesRun() async throws {
        let pool = WorkerPool(name: "test", threads: 1, queueLimit: 1)
        let (started, release, queuedRan) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        #expect(
            pool.submit {
                started.signal()
                release.wait()
            })
        started.wait()
        #expect(pool.submit { queuedRan.signal() })
        #expect(!pool.submit {})
        release.signal()
        queuedRan.wait()
        #expect(try await pool.run { 42 } == 42)
    }
}
