/// What the command line asks for: run with a configuration, or print help or the version.
package enum DaemonCommand: Sendable, Equatable {
    case run(DaemonConfiguration, overrides: [(String, String)])
    case help
    case version

    package static func == (lhs: DaemonCommand, rhs: DaemonCommand) -> Bool {
        switch (lhs, rhs) {
        case (.help, .help), (.version, .version): return true
        case (.run(let a, let x), .run(let b, let y)):
            return a == b && x.map { "\($0.0)=\($0.1)" } == y.map { "\($0.0)=\($0.1)" }
        default: return false
        }
    }
}
