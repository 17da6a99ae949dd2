import FontRegCore

/// `fontresolve rules suggest FAMILY` and `fontresolve rules show [FAMILY]`.
enum RulesCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "rules", arguments: "suggest FAMILY | show [FAMILY] | check",
        summary: "Write the rule that fits a family's faces, show the rule in force, or check rule files.",
        discussion: """
            rules suggest FAMILY prints, as a rule file (JSON), the rule whose composed names match \
            the faces actually registered: the face-name root, weight names such as DemiBold or \
            Heavy, an empty regular name, the italic suffix, the weights present; notes about faces \
            no rule can name go to standard error. rules show FAMILY prints the rule in force (from \
            --rules, else the default rule) and which composed names are registered. rules show \
            without FAMILY lists the rules (of --rules DIR, else the daemon's) and exits 1 when a \
            file is malformed. From the daemon, both show the rules the daemon resolves with.
            rules check --rules DIR tests every rule against the registered faces: a weight name \
            whose face has another usWeightClass, inverted pairs, Windows-legacy classes (250, \
            275), names the default table reads as another weight, with file, line and the fix; \
            exit 1 when a rule names the wrong face.
            """,
        options: [CommonOptions.json("rules suggest Inter")] + CommonOptions.source("rules suggest Inter") + [
            CommonOptions.help("rules")
        ],
        examples: [
            "fontresolve rules suggest Inter --fonts fonts > inter.json",
            "fontresolve rules show Lato --fonts fonts --rules fonts/rules",
            "fontresolve rules show --rules fonts/rules",
            "fontresolve rules check --rules fonts/rules --fonts fonts",
        ],
        argumentCompletion: .valuesThenFamily(["suggest", "show", "check"]))

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let positional = context.arguments.positional
        switch positional.first {
        case "suggest":
            guard positional.count == 2 else { throw context.spec.usageError("rules suggest needs one FAMILY") }
            return try suggest(family: positional[1], context: context)
        case "check":
            guard positional.count == 1 else { throw context.spec.usageError("rules check takes no FAMILY") }
            return try check(context: context)
        case "show":
            guard positional.count <= 2 else { throw context.spec.usageError("rules show takes at most one FAMILY") }
            if positional.count == 2 { return try show(family: positional[1], context: context) }
            return try showDirectory(context: context)
        case nil:
            throw context.spec.usageError("needs suggest FAMILY, show [FAMILY] or check")
        case let other?:
            throw context.spec.usageError("unknown rules command \"\(other)\"; use suggest, show or check")
        }
    }

    static func suggest(family: String, context: CommandContext) throws(CLIError) -> ExitStatus {
        let faces = try context.backend().faces(family: family)
        let entry = FamilyEntry(name: faces.first?.family ?? family, faces: faces)
        let suggestion = RuleSuggester.suggest(for: entry)
        context.console.line(suggestion.rule.ruleFileJSON)
        for note in suggestion.notes { context.console.error("note: \(note)") }
        return .success
    }

    static func show(family: String, context: CommandContext) throws(CLIError) -> ExitStatus {
        let backend = try context.backend()
        let faces = try backend.faces(family: family)
        let name = faces.first?.family ?? family
        let declared = try backend.rules().rule(for: name)
        let rule = declared ?? FamilyRule.defaultRule(for: name, faces: faces.filter { $0.weightRange.count == 1 })
        let report = RuleReport(rule: rule, registeredNames: faces.map(\.postscriptName))
        if context.json {
            context.printJSON(report)
        } else {
            for line in report.render(console: context.console) { context.console.line(line) }
        }
        return .success
    }

    static func showDirectory(context: CommandContext) throws(CLIError) -> ExitStatus {
        let directory = context.arguments.value("rules")
        if directory == nil && context.isEmbedded {
            throw context.spec.usageError("rules show without FAMILY needs --rules DIR (or the daemon)")
        }
        let rules: RuleSet
        if let directory {
            rules = RuleSet.load(directory: directory)
        } else {
            rules = try context.backend().rules()
        }
        if context.json {
            struct Listing: Encodable {
                var rules: [RuleReport]
                var problems: [String]
            }
            context.printJSON(
                Listing(
                    rules: rules.rules.map { RuleReport(rule: $0, registeredNames: []) },
                    problems: rules.problems.map(\.description)))
        } else {
            let console = context.console
            var table = Table(headers: ["FAMILY", "FAMILYNAME", "BOLD TEXT", "SOURCE"])
            for rule in rules.rules {
                table.append([
                    rule.family, rule.familyName, rule.boldPolicy.rawValue, PathDisplay.relative(rule.source),
                ])
            }
            if rules.rules.isEmpty {
                console.line("No rules in \(directory ?? "the daemon").")
            } else {
                for line in table.render(header: { console.styled($0, .bold) }) { console.line(line) }
            }
            for problem in rules.problems {
                console.error("\(console.styledError("error:", .red)) \(PathDisplay.relative(problem.description))")
            }
        }
        return rules.problems.isEmpty ? .success : .failure
    }
}
