import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegService
import FontRegSystem
import Synchronization
import Varlink

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
