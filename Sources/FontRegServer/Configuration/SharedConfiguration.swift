import Synchronization

/// The configuration in force, replaced on SIGHUP.
final class SharedConfiguration: Sendable {
    private let state: Mutex<DaemonConfiguration>

    init(_ configuration: DaemonConfiguration) {
        state = Mutex(configuration)
    }

    var value: DaemonConfiguration {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}
