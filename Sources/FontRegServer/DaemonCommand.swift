import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Varlink

/// What the command line asks for: run with a configuration, or print help or the version.
public enum DaemonCommand: Sendable, Equatable {
    case run(DaemonConfiguration, overrides: [(String, String)])
    case help
    case version

    public static func == (lhs: DaemonCommand, rhs: DaemonCommand) -> Bool {
        switch (lhs, rhs) {
        case (.help, .help), (.version, .version): return true
        case (.run(let a, let x), .run(let b, let y)):
            return a == b && x.map { "\($0.0)=\($0.1)" } == y.map { "\($0.0)=\($0.1)" }
        default: return false
        }
    }
}
