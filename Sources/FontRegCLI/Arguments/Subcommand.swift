/// A subcommand of `fontresolve`: its description and what it does.
package protocol Subcommand {
    /// The options, arguments and help text.
    static var spec: CommandSpec { get }
    /// Runs the command.
    ///
    /// - Returns: the exit status (success, or failure for "not found" answers printed as output).
    /// - Throws: ``CLIError``, which the caller prints and turns into its exit status.
    static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus
}
