import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Foundation
import Synchronization
import Varlink

/// A Varlink server: a few epoll event loops on threads of their own, serving one service.
///
/// Reads and quick calls are answered on the loop threads, never on Swift's cooperative
/// pool; calls that may block run on a serial worker. One misbehaving connection is
/// closed with an error without disturbing the others.
package final class VarlinkServer: VarlinkBroadcaster {
    private let shared: ServerShared
    private let loops: [EventLoop]
    private let listeners: [ListeningSocket]
    private let finished = DispatchGroup()
    private let started = Mutex(false)

    /// Creates the loops; nothing runs until ``start()``.
    ///
    /// - Parameters:
    ///   - listeners: the listening sockets; the server closes them when it stops.
    ///   - service: answers calls.
    ///   - limits: message size, connection count and idle limits.
    ///   - threads: how many event loops (threads) to run.
    /// - Throws: ``SystemError`` when epoll or eventfd cannot be created.
    package init(
        listeners: [ListeningSocket], service: any VarlinkService, limits: ServerLimits = ServerLimits(),
        threads: Int = 2, logger: Logger = Logger()
    ) throws(SystemError) {
        let shared = ServerShared(service: service, limits: limits, logger: logger)
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
        let alreadyStarted = started.withLock { value in
            defer { value = true }
            return value
        }
        guard !alreadyStarted else { return }
        for loop in loops {
            finished.enter()
            let thread = Thread { [finished] in
                loop.run()
                finished.leave()
            }
            thread.name = "fontregd-loop-\(loop.index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Sends a `Monitor` event (with `continues`) to every subscribed connection.
    package func broadcast(_ parameters: [String: JSONValue]) {
        let bytes = VarlinkReply(parameters: parameters, continues: true).serialized()
        for loop in loops { loop.post(.broadcast(bytes)) }
    }

    /// Changes the limits; new connections and the next idle check use them.
    package func update(limits: ServerLimits) {
        shared.limits.withLock { $0 = limits }
    }

    /// How many connections are open.
    package var connectionCount: Int { shared.connectionCount.load(ordering: .relaxed) }

    /// How long ago, in seconds, the slowest event loop last went round (for the watchdog).
    package var slowestLoopAge: Double {
        let now = MonotonicClock.microseconds
        let oldest = loops.map { $0.heartbeat.load(ordering: .relaxed) }.min() ?? now
        return Double(now &- oldest) / 1_000_000
    }

    /// Stops accepting, lets in-flight calls finish (up to 5 s), closes every connection and the listeners.
    ///
    /// Blocks until the loops have stopped.
    package func stop() {
        for loop in loops { loop.post(.shutdown) }
        if started.withLock({ $0 }) {
            finished.wait()
        }
        shared.worker.sync {}
        for listener in listeners { listener.close() }
    }
}
