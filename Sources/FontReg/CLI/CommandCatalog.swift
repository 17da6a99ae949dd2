/// Every subcommand of `fontresolve`, in the order help lists them.
public enum CommandCatalog {
    /// The subcommands.
    public static let commands: [any Subcommand.Type] = [
        ResolveCommand.self, ExplainCommand.self, ListCommand.self, FaceCommand.self, RegisterCommand.self,
        UnregisterCommand.self, RescanCommand.self, StatusCommand.self, WatchCommand.self, RulesCommand.self,
        AuditSubcommand.self, HelpCommand.self, CompletionCommand.self,
    ]

    /// The subcommand with this name.
    public static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// Every command's description.
    public static var specs: [CommandSpec] { commands.map { $0.spec } }
}
