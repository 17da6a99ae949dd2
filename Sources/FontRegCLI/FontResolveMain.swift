import FontRegCore
import FontRegSystem

/// The `fontresolve` command: finds the subcommand, runs it, prints errors and returns the exit status.
///
/// Exit statuses (sysexits): 0 success; 1 not found; 64 bad usage; 69 daemon unreachable; 74 output
/// unwritable; 77 permission denied.
package enum FontResolveMain {
    /// Runs the command with the arguments after the program name.
    ///
    /// - Returns: the exit status.
    package static func run(_ arguments: [String], environment: [String: String] = ProcessEnvironment.current())
        -> Int32
    {
        let console = Console(environment: environment)
        let status = run(arguments, environment: environment, console: console)
        // An answer that did not reach its file is not a success, whatever the command found.
        guard let failure = console.outputError, status == ExitStatus.success.rawValue else { return status }
        console.error("fontresolve: cannot write standard output (\(failure)); the output is incomplete")
        return ExitStatus.outputError.rawValue
    }

    /// Runs the command on `console`.
    static func run(_ arguments: [String], environment: [String: String], console: Console) -> Int32 {
        let arguments = commandFirst(arguments)
        guard let name = arguments.first else {
            console.error("usage: fontresolve COMMAND [ARGUMENTS] [OPTIONS]")
            console.error("commands: \(CommandCatalog.commandNames.joined(separator: ", ")); see fontresolve --help")
            return ExitStatus.usage.rawValue
        }
        if name == "--help" || name == "-h" {
            console.line(HelpText.overview)
            return ExitStatus.success.rawValue
        }
        if name == "--version" || name == "-V" {
            console.line("fontresolve \(FontRegVersion.current)")
            return ExitStatus.success.rawValue
        }
        guard let command = CommandCatalog.command(named: name) else {
            let guess = CommandSuggestion.closest(to: name, among: CommandCatalog.commandNames)
            console.error(
                "fontresolve: unknown command \"\(name)\"" + (guess.map { "; did you mean \"\($0)\"?" } ?? ""))
            console.error(
                "usage: fontresolve COMMAND [ARGUMENTS] [OPTIONS]; commands: \(CommandCatalog.commandNames.joined(separator: ", "))"
            )
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        do {
            if rest.contains("--help") || rest.contains("-h") {
                console.line(HelpText.command(command.spec))
                return ExitStatus.success.rawValue
            }
            let parsed = try command.spec.parse(rest)
            let context = CommandContext(
                spec: command.spec, arguments: parsed, console: console, environment: environment)
            return try command.run(context).rawValue
        } catch {
            report(error, console: console)
            return error.exitStatus.rawValue
        }
    }

    /// Moves options given before the command (`fontresolve --socket S status`) after it,
    /// so the options common to every command may stand on either side.
    static func commandFirst(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("--"), first != "--help", first != "--version",
            let at = arguments.firstIndex(where: { CommandCatalog.command(named: $0) != nil })
        else { return arguments }
        return [arguments[at]] + arguments[..<at] + arguments[(at + 1)...]
    }

    /// Prints an error on standard error; a usage error with its usage line.
    static func report(_ error: CLIError, console: Console) {
        let label = console.styledError("error:", .red)
        switch error {
        case .usage(let message, let usage):
            console.error(message)
            console.error(usage)
        default:
            console.error("\(label) \(error.description)")
        }
    }
}
