import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Foundation
import Varlink

/// Where a command writes: standard output and standard error, and whether each is a terminal that takes colour.
///
/// Colour is used only on a terminal, never when `NO_COLOR` is set to a non-empty value
/// (no-color.org) or `TERM` is `dumb`.
public final class Console: Sendable {
    /// The text styles a command may ask for.
    public enum Style: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", cyan = "36"
    }

    /// Whether standard output is a terminal.
    public let outputIsTerminal: Bool
    /// Whether standard error is a terminal.
    public let errorIsTerminal: Bool
    /// Whether standard output takes colour.
    public let outputColor: Bool
    /// Whether standard error takes colour.
    public let errorColor: Bool

    /// A console on the process's standard output and error.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        outputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        let colorAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        outputColor = outputIsTerminal && colorAllowed
        errorColor = errorIsTerminal && colorAllowed
    }

    /// Writes a line to standard output.
    public func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes text to standard error as it is (for progress lines that rewrite themselves).
    public func errorRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes a line to standard error.
    public func error(_ text: String) {
        errorRaw(text + "\n")
    }

    /// Styles text for standard output (unchanged when it takes no colour).
    public func styled(_ text: String, _ style: Style) -> String {
        outputColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Styles text for standard error (unchanged when it takes no colour).
    public func styledError(_ text: String, _ style: Style) -> String {
        errorColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
