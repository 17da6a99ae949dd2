import Dispatch
import FontRegSystem
import Synchronization

/// One thread of its own, at a lower CPU priority, that runs slow jobs one at a time in order.
///
/// Under 8 attackers sending 1,024-query batches, the query worker used 2.5 s of CPU in 10 s
/// at the same priority as the event loops and every client process, and a good client's p99
/// went to 16–28 ms on 2 cores. At nice 10 the batches still progress, using what the
/// event loops and well-behaved clients leave.
final class BackgroundWorker: Sendable {
    /// The queue the thread takes jobs from (`nil` ends it), shared with the thread's body.
    private final class Queue: Sendable {
        let jobs = Mutex<[(@Sendable () -> Void)?]>([])
        let ready = DispatchSemaphore(value: 0)

        func put(_ job: (@Sendable () -> Void)?) {
            jobs.withLock { $0.append(job) }
            ready.signal()
        }

        func take() -> (@Sendable () -> Void)? {
            ready.wait()
            return jobs.withLock { $0.removeFirst() }
        }
    }

    private let queue = Queue()
    private let thread: ServiceThread

    /// Starts the thread, called `name`, with nice value `nice`.
    init(name: String, nice: Int32, logger: Logger) {
        thread = ServiceThread(name: name, stackSize: 1 << 20) { [queue] in
            do {
                try ThreadPriority.setCurrentThreadNice(nice)
            } catch {
                logger.warning("\(name) runs at normal priority: \(error)")
            }
            while let job = queue.take() { job() }
        }
    }

    /// Runs `job` after the jobs already queued.
    func async(_ job: @escaping @Sendable () -> Void) {
        queue.put(job)
    }

    /// Waits until every job queued before this call has run.
    func drain() {
        let done = DispatchSemaphore(value: 0)
        async { done.signal() }
        done.wait()
    }

    /// Runs the queued jobs, then ends the thread; waits for it at most until `deadline`.
    @discardableResult
    func stop(before deadline: DispatchTime) -> Bool {
        queue.put(nil)
        return thread.join(before: deadline)
    }
}
