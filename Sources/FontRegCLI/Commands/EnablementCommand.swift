import FontRegCore
import FontRegProtocol
import FontRegSystem

/// `fontresolve disable|enable TARGET [--kind face|file|family]` (issue 15).
enum EnablementCommand {
    /// The spec of `disable` or `enable`.
    static func spec(_ name: String, summary: String, discussion: String) -> CommandSpec {
        CommandSpec(
            name: name, arguments: "NAME|PATH|FAMILY", summary: summary, discussion: discussion,
            options: [
                .init(
                    "kind", value: "KIND", help: "What TARGET names: face (a PostScript name), file or family.",
                    example: "fontresolve \(name) Lato --kind family", completion: .values(["face", "file", "family"])),
                CommonOptions.json("\(name) Lato-Black"), CommonOptions.socket("\(name) Lato-Black"),
                CommonOptions.help(name),
            ],
            examples: ["fontresolve \(name) Lato-Black", "sudo fontresolve \(name) \"Fixture Sans\" --kind family"])
    }

    /// Runs `disable` (`on: false`) or `enable` (`on: true`).
    static func run(_ context: CommandContext, enable: Bool) throws(CLIError) -> ExitStatus {
        let target = try context.positional(1...1, missing: "needs a NAME, PATH or FAMILY")[0]
        let kind = context.arguments.value("kind")
        if let kind, !["face", "file", "family"].contains(kind) {
            throw context.spec.usageError("--kind is face, file or family, not \"\(kind)\"")
        }
        let name = enable ? "enable" : "disable"
        let daemon = try context.daemonBackend(for: name)
        let absolute = target.hasPrefix("/") || kind != "file" ? target : FontRegistry.absolute(target)
        let report = enable ? try daemon.enable(absolute, kind: kind) : try daemon.disable(absolute, kind: kind)
        if context.json {
            context.printJSON(report)
            return .success
        }
        let console = context.console
        console.line(
            "\(enable ? "Enabled" : "Disabled") \(report.kind) \(report.target): \(counted(report.faces.count, "face"))."
        )
        for face in report.faces { console.line("  \(face.postscriptName)  \(PathDisplay.relative(face.file))") }
        return .success
    }
}

/// `fontresolve disable`: stops a face, file or family from being resolved, without unregistering it.
enum DisableCommand: Subcommand {
    package static let spec = EnablementCommand.spec(
        "disable", summary: "Disable a face, a font file or a family without unregistering it.",
        discussion: """
            The daemon stops resolving to it, lists it as disabled (fontresolve list --json, status), \
            and a trace says when a disabled face would have won. Kept across restarts. Administrators \
            may disable anything; other users only faces of their own registrations (others exit 77). \
            Without --kind, a TARGET starting with / is a file, else a PostScript name, else a family.
            """)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        try EnablementCommand.run(context, enable: false)
    }
}

/// `fontresolve enable`: undoes `disable`.
enum EnableCommand: Subcommand {
    package static let spec = EnablementCommand.spec(
        "enable", summary: "Enable again a face, a font file or a family that was disabled.",
        discussion: """
            Undoes fontresolve disable, with the same rights: users may enable only what they disabled; \
            what an administrator disabled only an administrator enables (others exit 77). Something not \
            disabled exits 1.
            """)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        try EnablementCommand.run(context, enable: true)
    }
}
