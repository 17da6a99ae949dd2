/// Why a `fontresolve` command failed: a sentence for a person and the exit status for scripts.
package enum CLIError: Error, Sendable, CustomStringConvertible {
    /// Bad usage; the usage line of the command is shown with the message.
    case usage(String, usage: String)
    /// Something asked for is not registered (exit 1).
    case notFound(String)
    /// The command could not do what was asked (exit 1).
    case failed(String)
    /// A `--fonts` or `--rules` path given on the command line does not exist (exit 66).
    case noInput(String)
    /// The daemon cannot be reached at `socket` (exit 69).
    case daemonUnreachable(socket: String, reason: String)
    /// The daemon or the socket refused permission (exit 77).
    case permissionDenied(String)
    /// The daemon runs but refused the connection: it serves as many as it may (exit 69).
    case daemonBusy(socket: String, reason: String)

    /// The exit status this error ends the command with.
    package var exitStatus: ExitStatus {
        switch self {
        case .usage: .usage
        case .notFound, .failed: .failure
        case .noInput: .noInput
        case .daemonUnreachable, .daemonBusy: .unavailable
        case .permissionDenied: .permissionDenied
        }
    }

    package var description: String {
        switch self {
        case .usage(let message, _):
            return message
        case .notFound(let message), .failed(let message), .permissionDenied(let message), .noInput(let message):
            return message
        case .daemonUnreachable(let socket, let reason):
            return """
                cannot reach fontregd at \(socket): \(reason).
                Start the daemon, for example with `systemctl start fontregd.socket` or
                `fontregd --socket \(socket) --fonts DIR`, point at it with --socket PATH or
                \(SocketLocator.environmentVariable)=PATH, or run without a daemon with --fonts DIR.
                """
        case .daemonBusy(let socket, let reason):
            return
                "fontregd at \(socket) is running but refused the connection: too many connections (\(reason)); try again in a moment."

        }
    }
}
