import FontRegCore
import FontRegSystem

/// `fontresolve register PATH... [--persist]`: adds font files or directories to the daemon's registry.
enum RegisterCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "register", arguments: "PATH...",
        summary: "Register font files or directories (recursively) with the daemon.",
        discussion: """
            Sends absolute paths to fontregd, which must be allowed to read them and must accept \
            them (its allow-root setting). Prints the faces added and the files that could not be \
            used. Users the daemon allows (allow-uid, allow-gid) register for everyone; any other \
            user may register fonts they own inside ~/.local/share/fonts or ~/.fonts (its \
            user-font-root setting), which only their own queries see; anything else exits 77. \
            Needs the daemon: with --fonts there is nothing to register with.
            """,
        options: [
            .init(
                "persist", help: "Keep the registration across daemon restarts (written to its state directory).",
                example: "fontresolve register /usr/local/share/fonts/Brand --persist"),
            .init(
                "scope", value: "SCOPE",
                help:
                    "How long it lasts: connection (until this command exits; only useful from a client that stays connected), session (until the daemon stops; the default) or persistent (same as --persist).",
                example: "fontresolve register ~/.local/share/fonts/Brand --scope persistent",
                completion: .values(["connection", "session", "persistent"])),
            CommonOptions.json("register /usr/share/fonts/truetype/lato"),
            CommonOptions.verbose("register /usr/share/fonts/truetype/lato"),
            CommonOptions.socket("register /usr/share/fonts/truetype/lato"), CommonOptions.help("register"),
        ],
        examples: [
            "sudo fontresolve register /usr/share/fonts/truetype/lato",
            "fontresolve register ~/fonts/Brand.otf --persist --json",
        ],
        argumentCompletion: .file)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let paths = try context.positional(1...Int.max, missing: "needs at least one PATH").map(FontRegistry.absolute)
        let scope = context.arguments.value("scope")
        if let scope, !["connection", "session", "runtime", "persistent"].contains(scope) {
            throw context.spec.usageError("--scope is connection, session, runtime or persistent, not \"\(scope)\"")
        }
        let backend: any RegistryBackend =
            scope == nil ? try context.backend() : try context.daemonBackend(for: "register")
        let report = try ProgressIndicator(console: context.console).run(
            "Registering \(paths.count) path\(paths.count == 1 ? "" : "s")"
        ) { () throws(CLIError) in
            if let scope, let daemon = backend as? DaemonBackend {
                return try daemon.register(paths: paths, scope: context.arguments.has("persist") ? "persistent" : scope)
            }
            return try backend.register(paths: paths, persist: context.arguments.has("persist"))
        }
        print(report, verb: "Registered", faces: report.added, context: context)
        return .success
    }

    /// Prints a change report: a summary line, the faces, and the files skipped.
    static func print(_ report: RegistrationReport, verb: String, faces: [FaceRecord], context: CommandContext) {
        if context.json {
            context.printJSON(report)
            return
        }
        let console = context.console
        console.line("\(verb) \(counted(faces.count, "face")) (generation \(report.generation)).")
        for line in FaceChangeList.lines(faces, verbose: context.arguments.has("verbose"), console: console) {
            console.line(line)
        }
        if !report.problems.isEmpty {
            console.line("\(report.problems.count) file\(report.problems.count == 1 ? "" : "s") could not be used:")
            for problem in report.problems {
                console.line(
                    "  \(console.styled("skipped:", .yellow)) \(PathDisplay.relative(problem.path)): \(problem.reason)")
            }
        }
    }
}
