import Glibc

/// Writes one line per event to standard error, where systemd's journal picks it up.
///
/// Each line is written with a single `write(2)`, so lines from different threads never interleave.
public struct Logger: Sendable {
    /// How much to say.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The syslog priority prefix systemd's journal reads from the start of a line.
        var journalPrefix: String {
            switch self {
            case .debug: "<7>"
            case .info: "<6>"
            case .warning: "<4>"
            case .error: "<3>"
            }
        }
    }

    /// The lowest level written.
    public var minimumLevel: Level
    /// Whether to start each line with a syslog priority (`<6>`), as the journal reads it.
    public var journalPrefixes: Bool

    public init(minimumLevel: Level = .info, journalPrefixes: Bool = false) {
        self.minimumLevel = minimumLevel
        self.journalPrefixes = journalPrefixes
    }

    /// Writes `message` at `level`.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        let prefix = journalPrefixes ? level.journalPrefix : ""
        var line = prefix + "fontregd: " + message()
        line.append("\n")
        line.withCString { pointer in
            _ = write(2, pointer, strlen(pointer))
        }
    }

    /// Writes `message` at ``Level/debug``.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Writes `message` at ``Level/info``.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Writes `message` at ``Level/warning``.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Writes `message` at ``Level/error``.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
