import FontRegJSON
import FontRegSystem
import Foundation
import Synchronization
import Varlink

/// A Varlink server: a few epoll event loops on threads of their own, serving one service.
///
/// Reads and quick calls are answered on the loop threads, never on Swift's cooperative
/// pool; calls that may block run on workers that take the uids in turn. One misbehaving connection is
/// closed with an error without disturbing the others.
package final class VarlinkServer: VarlinkBroadcaster, DaemonService {
    package let name = "server"
    private let shared: ServerShared
    private let loops: [EventLoop]
    private let listeners: [ListeningSocket]
    private let threads = Mutex<[ServiceThread]?>(nil)

    /// Creates the loops; nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - listeners: the listening sockets; the server closes them when it stops.
    ///   - service: answers calls.
    ///   - errors: the errors the service's clients expect when a limit is broken.
    ///   - limits: message size, connection count and idle limits.
    ///   - threads: how many event loops (threads) to run.
    /// - Throws: ``SystemError`` when epoll or eventfd cannot be created.
    package init(
        listeners: [ListeningSocket], service: any VarlinkService, errors: VarlinkLimitErrors,
        limits: ServerLimits = ServerLimits(),
        threads: Int = 2, logger: Logger = Logger()
    ) throws(SystemError) {
        let shared = ServerShared(service: service, errors: errors, limits: limits, logger: logger)
        var loops: [EventLoop] = []
        for index in 0..<max(1, threads) {
            loops.append(try EventLoop(index: index, shared: shared, listeners: listeners))
        }
        self.shared = shared
        self.loops = loops
        self.listeners = listeners
    }

    /// Starts one thread per event loop.
    package func start() {
        threads.withLock { threads in
            guard threads == nil else { return }
            threads = loops.map { loop in
                ServiceThread(name: "fontregd-loop-\(loop.index)", stackSize: 1 << 20) { loop.run() }
            }
        }
    }

    /// Sends a `Monitor` event (with `continues`) to every subscribed connection.
    package func broadcast(_ parameters: [String: JSONValue]) {
        let bytes = VarlinkReply(parameters: parameters, continues: true).serialized()
        for loop in loops { loop.post(.broadcast(bytes)) }
    }

    /// Changes the limits; new connections and the next idle check use them.
    package func update(limits: ServerLimits) {
        shared.update(limits)
    }

    /// Runs `job` on the change worker in `uid`'s turn (`nil`: the server's), paced as
    /// ``BackgroundWorker/async(for:paced:_:)`` says: the watcher's rescans of a user's folder
    /// are that user's changes (issue 24).
    package func queueChange(for uid: UInt32?, paced: Bool, _ job: @escaping @Sendable () -> Void) {
        shared.worker.async(for: uid, paced: paced, job)
    }

    /// How many connections are open.
    package var connectionCount: Int { shared.connectionCount.load(ordering: .relaxed) }

    /// How long ago, in seconds, the slowest event loop last went round (for the watchdog).
    var slowestLoopAge: Double {
        let now = MonotonicClock.microseconds
        let oldest = loops.map { $0.heartbeat.load(ordering: .relaxed) }.min() ?? now
        return Double(now &- oldest) / 1_000_000
    }

    /// Stops accepting, lets in-flight calls finish (up to 5 s), closes every connection and the listeners.
    ///
    /// Blocks until the loops have stopped, at most until `deadline`.
    /// - Returns: whether every loop thread has ended.
    @discardableResult
    package func stop(before deadline: DispatchTime) -> Bool {
        for loop in loops { loop.post(.shutdown) }
        let running = threads.withLock { $0 } ?? []
        let ended = running.allSatisfy { $0.join(before: deadline) }
        if ended {
            shared.worker.stop(before: deadline)
            shared.queryWorker.stop(before: deadline)
        }
        for listener in listeners { listener.close() }
        return ended
    }
}
