import FontRegSystem
import Synchronization

/// Where a command writes: standard output and standard error, and whether each is a terminal that takes colour.
///
/// Colour is used only on a terminal, never when `NO_COLOR` is set to a non-empty value
/// (no-color.org) or `TERM` is `dumb`.
package final class Console: Sendable {
    /// The text styles a command may ask for.
    package enum Style: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    /// Whether standard output is a terminal.
    let outputIsTerminal: Bool
    /// Whether standard error is a terminal.
    let errorIsTerminal: Bool
    /// Whether standard output takes colour.
    let outputColor: Bool
    /// Whether standard error takes colour.
    let errorColor: Bool
    /// The first failed write to standard output, other than a reader gone away.
    private let outputFailure = Mutex<SystemError?>(nil)

    /// A console on the process's standard output and error.
    package init(environment: [String: String] = ProcessEnvironment.current()) {
        outputIsTerminal = Syscall.isTerminal(Syscall.standardOutput)
        errorIsTerminal = Syscall.isTerminal(Syscall.standardError)
        let colorAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        outputColor = outputIsTerminal && colorAllowed
        errorColor = errorIsTerminal && colorAllowed
    }

    /// Writes a line to standard output.
    ///
    /// A reader gone away (`EPIPE` with `SIGPIPE` ignored, as in `fontresolve list | head`)
    /// drops the line quietly; any other failure (a full disk, a closed stream) is kept for
    /// ``outputError``, so the command ends with ``ExitStatus/outputError`` instead of success.
    package func line(_ text: String) {
        do throws(SystemError) {
            try Syscall.writeAll(text + "\n", to: Syscall.standardOutput)
        } catch {
            guard error.errno != .brokenPipe else { return }
            outputFailure.withLock { if $0 == nil { $0 = error } }
        }
    }

    /// The first failed write to standard output that a person should hear of, if any.
    package var outputError: SystemError? { outputFailure.withLock { $0 } }

    /// Writes text to standard error as it is (for progress lines that rewrite themselves).
    func errorRaw(_ text: String) {
        try? Syscall.writeAll(text, to: Syscall.standardError)
    }

    /// Writes a line to standard error.
    package func error(_ text: String) {
        errorRaw(text + "\n")
    }

    /// Styles text for standard output (unchanged when it takes no colour).
    func styled(_ text: String, _ style: Style) -> String {
        outputColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Styles text for standard error (unchanged when it takes no colour).
    func styledError(_ text: String, _ style: Style) -> String {
        errorColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
