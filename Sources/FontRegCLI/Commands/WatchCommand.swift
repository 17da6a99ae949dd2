import FontRegCore
import FontRegProtocol
import FontRegSystem

/// `fontresolve watch`: prints every change to the registry until interrupted.
enum WatchCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "watch", arguments: "",
        summary: "Stream changes to the registry until interrupted (Ctrl-C).",
        discussion: """
            Prints the current generation, then one line per change with the faces added and \
            removed. From the daemon it follows Monitor; with --fonts it rescans the directories \
            every --interval seconds. With --json it prints one compact JSON object per line (JSON \
            Lines), flushed as each change happens. Exits 69 when the daemon goes away.
            """,
        options: [
            .init(
                "interval", value: "SECONDS", help: "With --fonts: seconds between rescans (default 2).",
                example: "fontresolve watch --fonts ~/fonts --interval 5"),
            CommonOptions.json("watch"),
        ] + CommonOptions.source("watch") + [CommonOptions.help("watch")],
        examples: ["fontresolve watch", "fontresolve watch --json | jq -c '.added[].postscriptName'"])

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        _ = try context.positional(0...0, missing: "")
        var interval = 2.0
        if let text = context.arguments.value("interval") {
            guard let value = Double(text), value > 0 else {
                throw context.spec.usageError("--interval needs a number of seconds above 0, not \"\(text)\"")
            }
            interval = value
        }
        let backend: any RegistryBackend
        if context.isEmbedded {
            if context.arguments.value("socket") != nil {
                throw context.spec.usageError(
                    "--socket and --fonts exclude each other: --fonts runs without the daemon")
            }
            backend = try EmbeddedBackend(arguments: context.arguments, pollInterval: interval)
        } else {
            backend = try context.backend()
        }
        SignalDescriptor.unblockInterrupts()
        try backend.watch { event in
            context.console.line(
                context.json ? JSONOutput.text(event, pretty: false) : render(event, console: context.console))
            return true
        }
        return .success
    }

    /// One event for people: a summary line, then `+`/`-` lines per face.
    package static func render(_ event: RegistryEvent, console: Console) -> String {
        if event.event == .subscribed {
            return "watching: generation \(event.generation), \(counted(event.faces, "face"))"
        }
        var lines = [
            "generation \(event.generation): +\(event.added.count) -\(event.removed.count), \(counted(event.faces, "face"))"
        ]
        for face in event.added {
            lines.append(
                "  " + console.styled("+ \(face.postscriptName)", .green) + "  \(PathDisplay.location(of: face))")
        }
        for face in event.removed {
            lines.append(
                "  " + console.styled("- \(face.postscriptName)", .red) + "  \(PathDisplay.location(of: face))")
        }
        return lines.joined(separator: "\n")
    }
}
