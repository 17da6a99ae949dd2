import Glibc

/// Writes one line per event to standard error, where systemd's journal picks it up.
///
/// Each line is written with a single `write(2)`, so lines from different threads never interleave.
package struct Logger: Sendable {
    /// How much to say.
    package enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

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
    package var minimumLevel: Level
    /// Whether to start each line with a syslog priority (`<6>`), as the journal reads it.
    package var journalPrefixes: Bool

    /// What starts each line: the name of the program that logs.
    package var program: String

    /// - Parameters:
    ///   - minimumLevel: the lowest level written.
    ///   - journalPrefixes: whether lines start with a syslog priority.
    ///   - program: what starts each line; by default the running executable's name (``processName``).
    package init(minimumLevel: Level = .info, journalPrefixes: Bool = false, program: String = Logger.processName) {
        self.minimumLevel = minimumLevel
        self.journalPrefixes = journalPrefixes
        self.program = program
    }

    /// The last component of the running executable's path (`fontregd` in the daemon), as
    /// `program_invocation_short_name` is: the layer below the daemon names no program itself.
    static let processName: String = {
        let path = CommandLine.arguments.first ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "fontreg" : name
    }()

    /// Writes `message` at `level`.
    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        let prefix = journalPrefixes ? level.journalPrefix : ""
        var line = prefix + program + ": " + message()
        line.append("\n")
        line.withCString { pointer in
            _ = write(2, pointer, strlen(pointer))
        }
    }

    /// Writes `message` at ``Level/debug``.
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Writes `message` at ``Level/info``.
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Writes `message` at ``Level/warning``.
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Writes `message` at ``Level/error``.
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
