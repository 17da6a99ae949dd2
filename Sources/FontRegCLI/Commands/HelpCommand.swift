/// `fontresolve help [COMMAND]`: the overview, or one command's options with examples.
enum HelpCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "help", arguments: "[COMMAND]",
        summary: "Show the overview, or a command's options, each with an example.",
        discussion:
            "fontresolve help COMMAND is the same as fontresolve COMMAND --help. fontresolve help --man prints the man page (troff).",
        options: [
            .init(
                "man", help: "Print the man page source (troff) instead.", example: "fontresolve help --man | man -l -"),
            CommonOptions.help("help"),
        ],
        examples: ["fontresolve help resolve", "fontresolve --help"],
        argumentCompletion: .values(CommandCatalog.commandNames))

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        if context.arguments.has("man") {
            context.console.line(ManPage.render())
            return .success
        }
        let positional = try context.positional(0...1, missing: "")
        guard let name = positional.first else {
            context.console.line(HelpText.overview)
            return .success
        }
        guard let command = CommandCatalog.command(named: name) else {
            throw context.spec.usageError(
                "unknown command \"\(name)\"; commands: \(CommandCatalog.commandNames.joined(separator: ", "))")
        }
        context.console.line(HelpText.command(command.spec))
        return .success
    }
}
