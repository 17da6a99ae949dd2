import FontRegCore

/// `fontresolve unregister PATH...`: removes registered files or directories from the daemon's registry.
enum UnregisterCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "unregister", arguments: "PATH...",
        summary: "Unregister files or directories registered before (persisted ones too).",
        discussion:
            "Each PATH must be one that was registered, as an absolute path or relative to the current directory. Prints the faces removed. A path that is not registered exits 1; users the daemon does not allow exit 77.",
        options: [
            CommonOptions.json("unregister /usr/share/fonts/truetype/lato"),
            CommonOptions.verbose("unregister /usr/share/fonts/truetype/lato"),
            CommonOptions.socket("unregister /usr/share/fonts/truetype/lato"), CommonOptions.help("unregister"),
        ],
        examples: ["sudo fontresolve unregister /usr/share/fonts/truetype/lato"],
        argumentCompletion: .file)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let paths = try context.positional(1...Int.max, missing: "needs at least one PATH").map(FontRegistry.absolute)
        let report = try context.backend().unregister(paths: paths)
        RegisterCommand.print(report, verb: "Unregistered", faces: report.removed, context: context)
        return .success
    }
}
