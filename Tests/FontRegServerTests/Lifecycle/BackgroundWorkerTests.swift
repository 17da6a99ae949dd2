import Dispatch
import Foundation
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

    /// A user's change loop on one connection (each call sent when the last is answered) and
    /// root's sequence of changes on another: before pacing, the two alternated, so each of
    /// root's changes waited for one of the user's (root's pair doubled, issue 24). Now the
    /// thread waits a moment after root's change for root's next one, and the user's jobs rest.
    @Test(.timeLimit(.minutes(1)))
    func rootsNextChangeRunsBeforeAPacedUsersLoopingChanges() {
        let worker = BackgroundWorker(name: "test-paced", count: 1, nice: nil, logger: Self.logger)
        let order = Mutex<[String]>([])
        let stopUser = Atomic<Bool>(false)
        let userStopped = DispatchSemaphore(value: 0)
        // The user's loop: its next job is queued from its client as soon as one ends.
        @Sendable func userJob() {
            order.withLock { $0.append("user") }
            Thread.sleep(forTimeInterval: 0.02)
            DispatchQueue.global().async {
                guard !stopUser.load(ordering: .relaxed) else {
                    userStopped.signal()
                    return
                }
                worker.async(for: 1000, paced: true, userJob)
            }
        }
        worker.async(for: 1000, paced: true, userJob)
        Thread.sleep(forTimeInterval: 0.1)
        // Root's ten changes, each sent 1 ms after the last was answered.
        for _ in 0..<10 {
            let done = DispatchSemaphore(value: 0)
            worker.async(for: 0) {
                order.withLock { $0.append("root") }
                Thread.sleep(forTimeInterval: 0.02)
                done.signal()
            }
            done.wait()
            Thread.sleep(forTimeInterval: 0.001)
        }
        stopUser.store(true, ordering: .relaxed)
        _ = userStopped.wait(timeout: .now() + 10)
        #expect(worker.stop(before: .now() + 20))
        let ran = order.withLock { $0 }
        let first = ran.firstIndex(of: "root")!, last = ran.lastIndex(of: "root")!
        let between = ran[first...last].filter { $0 == "user" }.count
        // Alternating, the user's jobs between root's first and last were 9; a late wake-up may let one in.
        #expect(between <= 3, "\(ran[first...last])")
        #expect(ran.prefix(first).contains("user"))
    }

    /// Root's changes coming back to back hold a paced user's job at most ``BackgroundWorker/longestHold``.
    @Test(.timeLimit(.minutes(1)))
    func aPacedUsersJobWaitsBehindRootsBackToBackChangesOnlySoLong() {
        let worker = BackgroundWorker(name: "test-held", count: 1, nice: nil, logger: Self.logger)
        let order = Mutex<[String]>([])
        let first = DispatchSemaphore(value: 0)
        worker.async(for: 0) { first.signal() }
        first.wait()
        worker.async(for: 1000, paced: true) { order.withLock { $0.append("user") } }
        // 2.4 s of root's changes, each sent as the last is answered.
        for _ in 0..<120 {
            let done = DispatchSemaphore(value: 0)
            worker.async(for: 0) {
                order.withLock { $0.append("root") }
                Thread.sleep(forTimeInterval: 0.02)
                done.signal()
            }
            done.wait()
        }
        #expect(worker.stop(before: .now() + 20))
        let ran = order.withLock { $0 }
        #expect(ran.firstIndex(of: "user").map { $0 < ran.count - 1 } == true, "\(ran.count) jobs")
    }

    /// Two users who are not administrators (paced), one of them with eight connections' changes
    /// queued, the other with as many, and root's: the users alternate (neither gets a second share
    /// for its many connections), and root's turn comes after at most one of each (issue 24).
    @Test(.timeLimit(.minutes(1)))
    func twoPacedUsersAlternateWhateverTheirConnectionsAndRootIsServedBetween() {
        let worker = BackgroundWorker(name: "test-three", count: 1, nice: nil, logger: Self.logger)
        let order = Mutex<[String]>([])
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        worker.async(for: nil) {
            started.signal()
            release.wait()
        }
        started.wait()
        for _ in 0..<8 {
            for (uid, name) in [(UInt32(1000), "a"), (2000, "b")] {
                worker.async(for: uid, paced: true) {
                    order.withLock { $0.append(name) }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            worker.async(for: 0) {
                order.withLock { $0.append("root") }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        release.signal()
        #expect(worker.stop(before: .now() + 30))
        let ran = order.withLock { $0 }
        #expect(ran.count == 24)
        var (a, b) = (0, 0)
        for name in ran {
            if name == "a" { a += 1 }
            if name == "b" { b += 1 }
            #expect(abs(a - b) <= 1, "\(ran)")
        }
        // Root's turn comes after at most one job of each user (three lanes in turn).
        let roots = ran.indices.filter { ran[$0] == "root" }
        #expect(roots.count == 8)
        #expect(zip(roots, roots.dropFirst()).allSatisfy { $1 - $0 <= 3 }, "\(ran)")
        #expect(roots.first.map { $0 <= 2 } == true, "\(ran)")
    }
}
