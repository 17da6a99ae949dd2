/// `fontresolve audit FILE...`: placeholder until the audit library is merged.
public enum AuditSubcommand: Subcommand {
    public static let spec = CommandSpec(
        name: "audit", arguments: "FILE...",
        summary: "Audit design-system typography (tokens, styles) against the registered faces.",
        discussion: "Not available in this build.",
        options: [CommonOptions.json] + CommonOptions.source + [CommonOptions.help],
        examples: ["fontresolve audit tokens.json --fonts fonts"],
        argumentCompletion: .file)

    public static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        throw .failed("audit is not available in this build")
    }
}
