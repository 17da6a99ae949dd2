import Dispatch
import FontRegSystem
import Synchronization

/// Starts the daemon's services one after another and stops the started ones in reverse order
/// within one deadline.
///
/// Services are started one at a time (``start(_:)``), since later ones are built from what
/// earlier ones produced (the index needs the persisted registrations); a failure leaves the
/// group holding exactly the services to stop.
package final class DaemonServiceGroup: Sendable {
    private let started: Mutex<[any DaemonService]>
    private let logger: Logger

    /// A group holding `services`, which are already running (usually none).
    package init(_ services: [any DaemonService] = [], logger: Logger) {
        self.started = Mutex(services)
        self.logger = logger
    }

    /// Starts `service` after those started before it.
    ///
    /// - Throws: the service's error; it is then not part of the group.
    package func start(_ service: any DaemonService) throws {
        try service.start()
        started.withLock { $0.append(service) }
        logger.debug("started \(service.name)")
    }

    /// The names of the running services, in start order.
    package var names: [String] { started.withLock { $0.map(\.name) } }

    /// Stops the started services in reverse order, all within `seconds`, after telling each
    /// that the stop begins (``DaemonService/stopping()``).
    ///
    /// - Returns: the names of the services whose threads had not ended by the deadline (empty
    ///   when the stop was clean).
    @discardableResult
    package func stop(within seconds: Double) -> [String] {
        let deadline = DispatchTime.now() + seconds
        let services = started.withLock { services in
            defer { services.removeAll() }
            return services
        }
        for service in services.reversed() { service.stopping() }
        var late: [String] = []
        for service in services.reversed() {
            if service.stop(before: deadline) {
                logger.debug("stopped \(service.name)")
            } else {
                logger.error("\(service.name) did not stop within \(seconds) s")
                late.append(service.name)
            }
        }
        return late
    }
}
