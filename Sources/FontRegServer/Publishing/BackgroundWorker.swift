import Dispatch
import FontRegSystem
import Synchronization

/// A few threads of their own, at a lower CPU priority, that run slow jobs fairly between users:
/// one queue per uid, taken in turn (round robin), and at most one job of a uid running at once.
/// With one thread, it runs jobs one at a time, still taking the uids in turn (the change worker).
///
/// Under 8 attackers sending 1,024-query batches, the query worker used 2.5 s of CPU in 10 s
/// at the same priority as the event loops and every client process, and a good client's p99
/// went to 16–28 ms on 2 cores. At nice 10 the batches still progress, using what the
/// event loops and well-behaved clients leave.
///
/// With one queue for everyone, eight connections of one uid sending 262,000-byte `ResolveText`
/// calls put the victim's 5 KiB `ResolveText` behind all eight of them: p50 3.2 ms → 674 ms
/// (issue 24). Now a uid's jobs wait only behind its own: since a uid never holds more than one
/// thread, the other threads are free for the other uids, and a uid that queues work joins
/// the round after the uids already waiting.
///
/// Taking turns is not enough when changes run one at a time: a user looping `Register` and
/// `Unregister` on one connection always had its next call queued when root's came, so each of
/// root's changes waited for one of the user's and root's pair took twice as long (issue 24).
/// So users who are not administrators are *paced* while other lanes queue work too: after a
/// job that took d, their lane rests d (at most half of the thread), and after a job of a lane
/// that is not paced, paced lanes wait up to ``anticipation`` for that lane's next call (the
/// anticipatory scheduling of disk schedulers: its client is a round trip away), but never more
/// than ``longestHold`` in all.
final class BackgroundWorker: Sendable {
    /// Whose queue a job waits in: a user's, or the server's own (housekeeping).
    enum Lane: Hashable, Sendable {
        case user(UInt32)
        case server
    }

    /// The queues, the round and the threads' hand-over slots, shared with the threads' bodies.
    private final class Scheduler: Sendable {
        private struct State {
            var queues: [Lane: [(run: @Sendable () -> Void, queued: UInt64)]] = [:]
            /// Lanes with queued jobs, in the order they get their next turn.
            var round: [Lane] = []
            /// Lanes with a job running now.
            var running: Set<Lane> = []
            /// Lanes whose jobs are paced (users who are not administrators), as their last job was queued.
            var paced: Set<Lane> = []
            /// When a resting paced lane may start its next job (monotonic microseconds).
            var restUntil: [Lane: UInt64] = [:]
            /// When each lane last queued a job (monotonic microseconds), kept for ``pacingWindow``.
            var lastQueued: [Lane: UInt64] = [:]
            /// When the first job of each lane with queued jobs was queued.
            var waitingSince: [Lane: UInt64] = [:]
            /// A lane that is not paced whose job just ended with none queued, and until when paced
            /// lanes wait for its next one (its client's next call, a round trip away).
            var anticipating: (lane: Lane, until: UInt64)?
            /// Threads waiting for a job, by index.
            var idle: [Int] = []
            /// What each waiting thread was handed when it was woken, by index.
            var handed: [Handover?]
            var stopping = false
        }

        /// What a waiting thread is handed: a job of a lane, or the word to end.
        enum Handover: Sendable {
            case run(Lane, @Sendable () -> Void)
            case end
        }

        private let state: Mutex<State>
        private let wakeups: [DispatchSemaphore]

        init(threads: Int) {
            state = Mutex(State(handed: Array(repeating: nil, count: threads)))
            wakeups = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
        }

        /// When `lane`, queued and not running, may start its next job: at once (0) unless it is
        /// paced; a paced lane waits out its rest, and a lane that is not paced and just finished
        /// (``State/anticipating``) unless the paced lane's job has waited ``longestHold`` already.
        private static func eligibleAt(_ lane: Lane, _ state: State) -> UInt64 {
            guard !state.stopping, state.paced.contains(lane) else { return 0 }
            var at = state.restUntil[lane] ?? 0
            if let anticipated = state.anticipating, anticipated.lane != lane {
                let held = (state.waitingSince[lane] ?? 0) + BackgroundWorker.longestHold
                at = max(at, min(anticipated.until, held))
            }
            return at
        }

        /// Takes the next job of the first lane in the round that is not running and may start now;
        /// `nil` when none. Once stopping, every lane may.
        private static func next(_ state: inout State, now: UInt64) -> (Lane, @Sendable () -> Void)? {
            if let anticipated = state.anticipating, anticipated.until <= now { state.anticipating = nil }
            guard
                let position = state.round.firstIndex(where: { lane in
                    !state.running.contains(lane) && eligibleAt(lane, state) <= now
                })
            else { return nil }
            let lane = state.round.remove(at: position)
            state.restUntil[lane] = nil
            if state.anticipating?.lane == lane { state.anticipating = nil }
            let job = state.queues[lane]!.removeFirst()
            if state.queues[lane]!.isEmpty {
                state.queues[lane] = nil
                state.waitingSince[lane] = nil
            } else {
                state.round.append(lane)
                state.waitingSince[lane] = state.queues[lane]![0].queued
            }
            state.running.insert(lane)
            return (lane, job.run)
        }

        /// When the first lane held back (resting, or behind an anticipated lane) may run, or `nil` when none is.
        private static func earliestWake(_ state: State) -> UInt64? {
            state.round.filter { !state.running.contains($0) }.map { eligibleAt($0, state) }.filter { $0 > 0 }.min()
        }

        /// Notes that `lane`'s job took `micros`: a paced lane rests as long before its next job
        /// when another lane has queued work within ``pacingWindow`` (alone, it is not held back).
        private static func finish(_ lane: Lane, micros: UInt64, _ state: inout State, now: UInt64) {
            state.running.remove(lane)
            state.lastQueued = state.lastQueued.filter { $0.value + BackgroundWorker.pacingWindow >= now }
            guard !state.stopping else { return }
            guard state.paced.contains(lane) else {
                if state.queues[lane] == nil { state.anticipating = (lane, now + BackgroundWorker.anticipation) }
                return
            }
            let others = state.lastQueued.keys.contains { $0 != lane } || state.round.contains { $0 != lane }
            if others { state.restUntil[lane] = now + micros }
        }

        /// Queues `job` in `lane`'s queue and hands it to a waiting thread if its lane may run.
        func put(_ lane: Lane, paced: Bool, _ job: @escaping @Sendable () -> Void) {
            let now = MonotonicClock.microseconds
            let woken: Int? = state.withLock { state in
                if state.queues[lane] == nil {
                    state.queues[lane] = [(job, now)]
                    state.waitingSince[lane] = now
                    state.round.append(lane)
                } else {
                    state.queues[lane]!.append((job, now))
                }
                state.lastQueued[lane] = now
                if paced { state.paced.insert(lane) } else { state.paced.remove(lane) }
                guard let thread = state.idle.last else { return nil }
                // Nothing may run yet (its lane rests): the thread wakes to wait until the rest ends.
                if let next = Self.next(&state, now: now) { state.handed[thread] = .run(next.0, next.1) }
                state.idle.removeLast()
                return thread
            }
            if let woken { wakeups[woken].signal() }
        }

        /// What thread `index` does next, once its last job (of `finished`, which took `micros`,
        /// if any) is done: blocks until there is a job it may run, or returns `.end` once
        /// stopping with nothing left for it.
        func take(thread index: Int, finished: (lane: Lane, micros: UInt64)?) -> Handover {
            var finished = finished
            while true {
                let now = MonotonicClock.microseconds
                let (handed, wake): (Handover?, UInt64?) = state.withLock { state in
                    if let handed = state.handed[index] {
                        state.handed[index] = nil
                        return (handed, nil)
                    }
                    if let done = finished { Self.finish(done.lane, micros: done.micros, &state, now: now) }
                    state.idle.removeAll { $0 == index }
                    if let next = Self.next(&state, now: now) { return (.run(next.0, next.1), nil) }
                    // Stopping: what is still queued belongs to running lanes, whose threads run it.
                    if state.stopping { return (.end, nil) }
                    state.idle.append(index)
                    return (nil, Self.earliestWake(state))
                }
                finished = nil
                if let handed { return handed }
                if let wake {
                    _ = wakeups[index].wait(
                        timeout: .now() + .microseconds(Int(min(wake > now ? wake - now : 0, 10_000_000))))
                } else {
                    wakeups[index].wait()
                }
            }
        }

        /// No jobs come after this: the threads run what is queued (resting lanes too), then end.
        func stop() {
            let idle: [Int] = state.withLock { state in
                state.stopping = true
                defer { state.idle = [] }
                return state.idle
            }
            for thread in idle { wakeups[thread].signal() }
        }
    }

    /// How long after another lane last queued work a paced lane still rests after its jobs (2 s).
    static let pacingWindow: UInt64 = 2_000_000
    /// How long paced lanes wait, after a job of a lane that is not paced, for that lane's next
    /// job (its client's next call): 150 ms (a client on a loaded machine may take tens of milliseconds to answer back).
    static let anticipation: UInt64 = 150_000
    /// The longest a paced lane's job waits behind anticipated lanes: 1 s.
    static let longestHold: UInt64 = 1_000_000

    private let scheduler: Scheduler
    private let threads: [ServiceThread]

    /// Starts `count` threads, called `name-0`, `name-1`…, with nice value `nice` (`nil`: the process's).
    init(name: String, count: Int, nice: Int32?, logger: Logger) {
        let scheduler = Scheduler(threads: max(1, count))
        self.scheduler = scheduler
        threads = (0..<max(1, count)).map { index in
            ServiceThread(name: "\(name)-\(index)", stackSize: 1 << 20) {
                do {
                    if let nice { try ThreadPriority.setCurrentThreadNice(nice) }
                } catch {
                    logger.warning("\(name)-\(index) runs at normal priority: \(error)")
                }
                var finished: (lane: Lane, micros: UInt64)?
                while case .run(let lane, let job) = scheduler.take(thread: index, finished: finished) {
                    let started = MonotonicClock.microseconds
                    job()
                    finished = (lane, MonotonicClock.microseconds - started)
                }
            }
        }
    }

    /// Runs `job` after the jobs `uid` already queued, in `uid`'s turn (`nil`: the server's own turn).
    ///
    /// - Parameter paced: whether `uid`'s jobs are paced (a user who is not an administrator):
    ///   while another lane has queued work within the last ``pacingWindow``, a paced lane rests
    ///   after each job as long as the job took before its next one starts, so it holds at most
    ///   half of a thread's time and another lane's job rarely finds the thread busy with it.
    func async(for uid: UInt32?, paced: Bool = false, _ job: @escaping @Sendable () -> Void) {
        scheduler.put(uid.map(Lane.user) ?? .server, paced: paced, job)
    }

    /// Runs the queued jobs, then ends the threads; waits for them at most until `deadline`.
    @discardableResult
    func stop(before deadline: DispatchTime) -> Bool {
        scheduler.stop()
        return threads.allSatisfy { $0.join(before: deadline) }
    }
}
