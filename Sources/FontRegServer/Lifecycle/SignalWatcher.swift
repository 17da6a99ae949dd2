import Dispatch
import FontRegSystem
import Synchronization

/// The signals the daemon acts on.
package enum DaemonSignal: Sendable {
    /// SIGHUP: reload the configuration and rules, rescan.
    case reload
    /// SIGTERM or SIGINT: finish in-flight calls and exit.
    case terminate
}

/// Receives SIGHUP, SIGTERM and SIGINT through a signalfd on a thread of its own, until stopped.
package final class SignalWatcher: DaemonService {
    private static let signalID: UInt64 = 0
    private static let stopID: UInt64 = 1

    package let name = "signal handling"
    private let signals: SignalDescriptor
    private let epoll: Epoll
    private let stopRequest: EventNotifier
    private let thread = Mutex<ServiceThread?>(nil)
    private let logger: Logger
    private let handler: @Sendable (DaemonSignal) -> Void

    /// Blocks the daemon's signals in the calling thread and every thread started after it.
    ///
    /// Call first thing in `main`, before any thread starts, so that only the signalfd sees them.
    package static func blockDaemonSignals() {
        do {
            try SignalDescriptor.blockDaemonSignals()
        } catch {
            preconditionFailure("blocking the daemon's signals failed: \(error)")
        }
    }

    /// Opens the signalfd; signals are read once ``start()`` has run, each handed to `handler`
    /// on the watcher's thread.
    ///
    /// - Throws: ``SystemError`` when the signalfd, epoll or eventfd cannot be created.
    package init(logger: Logger, handler: @escaping @Sendable (DaemonSignal) -> Void) throws(SystemError) {
        signals = try SignalDescriptor()
        epoll = try Epoll()
        stopRequest = try EventNotifier()
        try epoll.add(signals.fd, events: Epoll.readable, data: SignalWatcher.signalID)
        try epoll.add(stopRequest.fd, events: Epoll.readable, data: SignalWatcher.stopID)
        self.logger = logger
        self.handler = handler
    }

    /// Starts the thread that reads signals.
    package func start() {
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "fontregd-signals") { [self] in run() }
        }
    }

    /// Ends the thread (a handler it is running finishes first).
    package func stop(before deadline: DispatchTime) -> Bool {
        stopRequest.signal()
        guard let running = thread.withLock({ $0 }) else { return true }
        return running.join(before: deadline)
    }

    private func run() {
        var events = [Epoll.Event](repeating: Epoll.Event(events: 0, data: 0), count: 2)
        while true {
            do {
                let ready = try epoll.wait(into: &events, timeout: -1)
                if events[0..<ready].contains(where: { $0.data == SignalWatcher.stopID }) { return }
                guard events[0..<ready].contains(where: { $0.data == SignalWatcher.signalID }) else { continue }
                let number = try signals.next()
                handler(number == SignalDescriptor.hangUp ? .reload : .terminate)
            } catch {
                logger.error("reading signals failed: \(error)")
                return
            }
        }
    }
}
