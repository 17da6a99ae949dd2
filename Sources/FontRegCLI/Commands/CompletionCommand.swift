/// `fontresolve completion bash|zsh`: prints a shell completion script.
enum CompletionCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "completion", arguments: "bash|zsh",
        summary: "Print the completion script for bash or zsh.",
        discussion:
            "The install target installs both (completions/fontresolve.bash, completions/_fontresolve); this prints the same scripts. Family names complete from the running daemon.",
        options: [CommonOptions.help("completion")],
        examples: ["source <(fontresolve completion bash)", "fontresolve completion zsh > ~/.zfunc/_fontresolve"],
        argumentCompletion: .values(CompletionScript.shells))

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let shell = try context.positional(1...1, missing: "needs a shell: bash or zsh")[0]
        guard let script = CompletionScript.script(for: shell) else {
            throw context.spec.usageError("no completion for \"\(shell)\"; use bash or zsh")
        }
        context.console.line(script)
        return .success
    }
}
