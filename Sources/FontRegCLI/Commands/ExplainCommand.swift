/// `fontresolve explain FAMILY …`: `resolve --explain`.
enum ExplainCommand: Subcommand {
    package static let spec: CommandSpec = {
        var spec = ResolveCommand.spec
        spec.name = "explain"
        spec.summary = "Resolve and show every step the resolver took (resolve --explain)."
        spec.discussion =
            "The same query and options as resolve; the output adds the trace: rule and alias lookup, Bold Text, the composed name, the weight matching, the fallback."
        spec.options.removeAll { $0.name == "explain" }
        spec.options = spec.options.map { option in
            var option = option
            option.example = option.example.replacingLiteral("fontresolve resolve", with: "fontresolve explain")
            return option
        }
        spec.examples = [
            "fontresolve explain \"Gothic Fixture Neo\" --weight 900 --bold-text --fonts DIR",
            "fontresolve explain Lato --weight 450",
        ]
        return spec
    }()

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        try ResolveCommand.run(context, explain: true)
    }
}
