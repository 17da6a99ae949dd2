import Dispatch

/// One long-running part of the daemon (server, watcher, signal handling, notifier, persistence),
/// after swift-service-lifecycle's `Service`: started once, stopped once within a deadline.
///
/// A ``DaemonServiceGroup`` starts services in order and stops them in reverse order.
package protocol DaemonService: AnyObject, Sendable {
    /// A short name for logs ("server", "watcher").
    var name: String { get }

    /// Starts the service's work (its threads, if any); returns once it runs.
    ///
    /// - Throws: when the service cannot run; the group then stops what it had started.
    func start() throws

    /// Says that a stop begins, before any service is stopped (the notifier's `STOPPING=1`,
    /// sent first even though the notifier, started first, is stopped last). Nothing by default.
    func stopping()

    /// Stops the service and waits for its threads to end, at most until `deadline`.
    ///
    /// - Returns: whether everything the service started has ended.
    func stop(before deadline: DispatchTime) -> Bool
}

extension DaemonService {
    /// Nothing to say before the stop.
    package func stopping() {}
}
