import FontRegProtocol

/// `fontresolve bold-text on|off|default|status`: the user's own Bold Text setting (issue 15).
enum BoldTextCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "bold-text", arguments: "on|off|default|status",
        summary: "Set or show your Bold Text setting, which the daemon applies to queries that do not say.",
        discussion: """
            The daemon keeps one setting per user (kept across restarts): queries that do not give \
            boldText (resolve without --bold-text or --no-bold-text, Varlink calls without it) use it, and Monitor \
            clients (fontresolve watch) are told when it changes. default goes back to the daemon's \
            bold-text setting. status prints the setting and where it comes from.
            """,
        options: [
            CommonOptions.json("bold-text status"), CommonOptions.socket("bold-text on"),
            CommonOptions.help("bold-text"),
        ],
        examples: ["fontresolve bold-text on", "fontresolve bold-text status --json"])

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let word = try context.positional(1...1, missing: "needs on, off, default or status")[0]
        let daemon = try context.daemonBackend(for: "bold-text")
        let setting: BoldTextSetting
        switch word {
        case "on": setting = try daemon.setBoldText(true)
        case "off": setting = try daemon.setBoldText(false)
        case "default": setting = try daemon.setBoldText(nil)
        case "status": setting = try daemon.boldText()
        default: throw context.spec.usageError("expected on, off, default or status, not \"\(word)\"")
        }
        if context.json {
            context.printJSON(setting)
            return .success
        }
        let source = setting.source == "user" ? "your setting" : "the daemon's default (bold-text)"
        context.console.line("Bold Text: \(setting.boldText ? "on" : "off") (\(source)).")
        return .success
    }
}
