/// Every subcommand of `fontresolve`, in the order help lists them.
package enum CommandCatalog {
    /// The subcommands.
    package static var commands: [any Subcommand.Type] {
        [
            ResolveCommand.self, ExplainCommand.self, ListCommand.self, CandidatesCommand.self, FaceCommand.self,
            OpenCommand.self, RegisterCommand.self, UnregisterCommand.self, RescanCommand.self, StatusCommand.self,
            DuplicatesCommand.self, WatchCommand.self, RulesCommand.self, AuditSubcommand.self, StyleNameCommand.self,
            WeightOfCommand.self, HelpCommand.self, CompletionCommand.self,
            // Issue 15.
            EnableCommand.self, DisableCommand.self, BoldTextCommand.self,
            LayoutCommand.self,  // issue 27
        ]
    }

    /// The subcommand with this name.
    package static func command(named name: String) -> (any Subcommand.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// The names of the subcommands, in help order; spelled out so that `help`'s own description can use them.
    package static let commandNames = [
        "resolve", "explain", "list", "candidates", "face", "open", "register", "unregister", "rescan", "status",
        "duplicates",
        "watch", "rules", "audit", "style-name", "weight-of", "help", "completion", "enable", "disable", "bold-text",
        "layout",
    ]

    /// Every command's description.
    package static var specs: [CommandSpec] { commands.map { $0.spec } }
}
