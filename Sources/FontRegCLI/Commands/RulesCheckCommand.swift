import FontRegCore

extension RulesCommand {
    /// `fontresolve rules check --rules DIR`: every rule file tested against the registered faces
    /// (those of `--fonts`, else the daemon's).
    ///
    /// Prints one line per finding (`file:line:column: error|warning: family: what; fix: how`);
    /// exit 1 when a rule names the wrong face or a file cannot be read.
    static func check(context: CommandContext) throws(CLIError) -> ExitStatus {
        guard let directory = context.arguments.value("rules") else {
            throw context.spec.usageError("rules check needs --rules DIR (the daemon does not publish its rules)")
        }
        let rules = RuleSet.load(directory: directory)
        // The rule files are read here; without --fonts the faces are the daemon's, so --rules is
        // not the daemon's configuration and must not reach the backend's check for it.
        var faceArguments = context.arguments
        if !context.isEmbedded { faceArguments.options["rules"] = nil }
        let faceContext = CommandContext(
            spec: context.spec, arguments: faceArguments, console: context.console, environment: context.environment)
        let faces = try faceContext.backend().faces(family: nil)
        let findings = RuleChecker.check(rules, faces: faces).map(CLIAdvice.withCommand)
        if context.json {
            struct Listing: Encodable {
                var findings: [RuleChecker.Finding]
                var problems: [String]
            }
            context.printJSON(Listing(findings: findings, problems: rules.problems.map(\.description)))
        } else {
            let console = context.console
            for finding in findings { console.line(PathDisplay.relative(finding.description)) }
            for problem in rules.problems {
                console.error("\(console.styledError("error:", .red)) \(PathDisplay.relative(problem.description))")
            }
            let errors = findings.filter { $0.severity == "error" }.count
            console.line(
                "\(rules.rules.count) rule\(rules.rules.count == 1 ? "" : "s") checked: \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")"
            )
        }
        let failed = findings.contains { $0.severity == "error" } || !rules.problems.isEmpty
        return failed ? .failure : .success
    }
}
