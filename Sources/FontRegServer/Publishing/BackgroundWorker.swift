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
final class BackgroundWorker: Sendable {
    /// Whose queue a job waits in: a user's, or the server's own (housekeeping).
    enum Lane: Hashable, Sendable {
        case user(UInt32)
        case server
    }

    /// The queues, the round and the threads' hand-over slots, shared with the threads' bodies.
    private final class Scheduler: Sendable {
        private struct State {
            var queues: [Lane: [@Sendable () -> Void]] = [:]
            /// Lanes with queued jobs, in the order they get their next turn.
            var round: [Lane] = []
            /// Lanes with a job running now.
            var running: Set<Lane> = []
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

        /// Takes the next job of the first lane in the round that is not running; `nil` when none.
        private static func next(_ state: inout State) -> (Lane, @Sendable () -> Void)? {
            guard let position = state.round.firstIndex(where: { !state.running.contains($0) }) else { return nil }
            let lane = state.round.remove(at: position)
            let job = state.queues[lane]!.removeFirst()
            if state.queues[lane]!.isEmpty {
                state.queues[lane] = nil
            } else {
                state.round.append(lane)
            }
            state.running.insert(lane)
            return (lane, job)
        }

        /// Queues `job` in `lane`'s queue and hands it to a waiting thread if its lane is free.
        func put(_ lane: Lane, _ job: @escaping @Sendable () -> Void) {
            let woken: Int? = state.withLock { state in
                if state.queues[lane] == nil {
                    state.queues[lane] = [job]
                    state.round.append(lane)
                } else {
                    state.queues[lane]!.append(job)
                }
                guard !state.idle.isEmpty, let next = Self.next(&state) else { return nil }
                let thread = state.idle.removeLast()
                state.handed[thread] = .run(next.0, next.1)
                return thread
            }
            if let woken { wakeups[woken].signal() }
        }

        /// What thread `index` does next, once its last job (of `finished`, if any) is done:
        /// blocks until there is a job it may run, or returns `.end` once stopping with nothing left for it.
        func take(thread index: Int, finished: Lane?) -> Handover {
            let handed: Handover? = state.withLock { state in
                if let finished { state.running.remove(finished) }
                if let next = Self.next(&state) { return .run(next.0, next.1) }
                // Stopping: what is still queued belongs to running lanes, whose threads run it.
                if state.stopping { return .end }
                state.idle.append(index)
                return nil
            }
            if let handed { return handed }
            wakeups[index].wait()
            return state.withLock { state in
                defer { state.handed[index] = nil }
                return state.handed[index] ?? .end
            }
        }

        /// No jobs come after this: the threads run what is queued, then end. A thread is idle
        /// only while no queued job may run, so the idle ones end at once.
        func stop() {
            let idle: [Int] = state.withLock { state in
                state.stopping = true
                defer { state.idle = [] }
                return state.idle
            }
            for thread in idle { wakeups[thread].signal() }
        }
    }

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
                var finished: Lane?
                while case .run(let lane, let job) = scheduler.take(thread: index, finished: finished) {
                    job()
                    finished = lane
                }
            }
        }
    }

    /// Runs `job` after the jobs `uid` already queued, in `uid`'s turn (`nil`: the server's own turn).
    func async(for uid: UInt32?, _ job: @escaping @Sendable () -> Void) {
        scheduler.put(uid.map(Lane.user) ?? .server, job)
    }

    /// Runs the queued jobs, then ends the threads; waits for them at most until `deadline`.
    @discardableResult
    func stop(before deadline: DispatchTime) -> Bool {
        scheduler.stop()
        return threads.allSatisfy { $0.join(before: deadline) }
    }
}
