import Dispatch
import Synchronization
import Testing

@testable import FontRegServer
@testable import FontRegSystem

/// The workers of slow queries and changes take the uids in turn (issue 24): one user's queued
/// jobs wait behind one job of each other user, and a user never holds more than one thread.
@Suite("The background workers share their threads fairly between uids")
struct BackgroundWorkerTests {
    static let logger = Logger(minimumLevel: .error)

    @Test(.timeLimit(.minutes(1)))
    func withOneThreadAUidsQueuedJobsWaitBehindOneJobOfEachOtherUid() {
        let worker = BackgroundWorker(name: "test-changes", count: 1, nice: nil, logger: Self.logger)
        let order = Mutex<[String]>([])
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // a0 holds the thread while the others queue: a1 a2 a3 of uid 1000, then b1 of uid 2000.
        worker.async(for: 1000) {
            started.signal()
            release.wait()
            order.withLock { $0.append("a0") }
        }
        started.wait()
        for name in ["a1", "a2", "a3"] { worker.async(for: 1000) { order.withLock { $0.append(name) } } }
        worker.async(for: 2000) { order.withLock { $0.append("b1") } }
        worker.async(for: nil) { order.withLock { $0.append("server") } }
        release.signal()
        #expect(worker.stop(before: .now() + 20))
        #expect(order.withLock { $0 } == ["a0", "a1", "b1", "server", "a2", "a3"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aUidWithManyJobsHoldsOneThreadAndAnotherUidsJobRunsMeanwhile() {
        let worker = BackgroundWorker(name: "test-queries", count: 2, nice: nil, logger: Self.logger)
        let release = DispatchSemaphore(value: 0)
        let running = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)
        // Eight long jobs of uid 65534: each blocks until released.
        for _ in 0..<8 {
            worker.async(for: 65534) {
                let now = running.wrappingAdd(1, ordering: .relaxed).newValue
                _ = mostAtOnce.max(now, ordering: .relaxed)
                release.wait()
                running.wrappingSubtract(1, ordering: .relaxed)
            }
        }
        // The victim's job runs while the first of them still holds its thread.
        let victimDone = DispatchSemaphore(value: 0)
        worker.async(for: 65533) { victimDone.signal() }
        #expect(victimDone.wait(timeout: .now() + 10) == .success)
        for _ in 0..<8 { release.signal() }
        #expect(worker.stop(before: .now() + 20))
        #expect(mostAtOnce.load(ordering: .relaxed) == 1)
        #expect(running.load(ordering: .relaxed) == 0)
    }
}
