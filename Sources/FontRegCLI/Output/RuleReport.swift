import FontRegCore

/// A family rule as `fontresolve rules show` prints it: the rule, and the names it composes against the registered faces.
struct RuleReport: Sendable, Hashable, Codable {
    /// One of the nine steps.
    package struct Step: Sendable, Hashable, Codable {
        package var weight: Int
        package var weightName: String
        /// The composed upright face name.
        package var upright: String
        /// The registered PostScript name it matches (ignoring case), if any.
        var uprightRegistered: String?
        /// The composed italic face name.
        package var italic: String
        /// The registered PostScript name it matches (ignoring case), if any.
        var italicRegistered: String?
    }

    package var family: String
    package var familyName: String
    package var italicSuffix: String
    package var supportedWeights: [Int]?
    /// The Bold Text policy of the rule.
    package var boldPolicy: BoldTextPolicy
    package var aliases: [String]
    /// Where the rule came from: a rule file, or the default rule.
    package var source: String
    package var steps: [Step]

    /// Describes `rule` against the PostScript names of the faces registered for it.
    package init(rule: FamilyRule, registeredNames: [String]) {
        let registered = Dictionary(
            registeredNames.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        family = rule.family
        familyName = rule.familyName
        italicSuffix = rule.italicSuffix
        supportedWeights = rule.supportedWeights
        boldPolicy = rule.boldPolicy
        aliases = rule.aliases.map { $0.deprecated ? "\($0.name) (deprecated)" : $0.name }
        source = rule.source
        steps = FontWeight.steps.map { step in
            let upright = rule.composedName(weight: step.value, italic: false) ?? ""
            let italic = rule.composedName(weight: step.value, italic: true) ?? ""
            return Step(
                weight: step.value, weightName: rule.weightName(for: step.value) ?? "", upright: upright,
                uprightRegistered: registered[upright.lowercased()], italic: italic,
                italicRegistered: registered[italic.lowercased()])
        }
    }

    /// The rule for people: a heading, a table of composed names, and the settings.
    package func render(console: Console) -> [String] {
        func found(_ composed: String, _ match: String?) -> String {
            guard let match else { return "no" }
            return match == composed ? "yes" : "as \(match)"
        }
        var table = Table(headers: ["WEIGHT", "NAME", "UPRIGHT", "FOUND", "ITALIC", "FOUND"], rightAligned: [0])
        for step in steps {
            table.append([
                String(step.weight), step.weightName.isEmpty ? "(empty)" : step.weightName, step.upright,
                found(step.upright, step.uprightRegistered), step.italic, found(step.italic, step.italicRegistered),
            ])
        }
        var lines = ["\(console.styled(family, .bold)): \(source)"]
        lines += table.render(header: { console.styled($0, .bold) }).map { "  " + $0 }
        lines.append("italic suffix:     \(italicSuffix.isEmpty ? "(empty)" : italicSuffix)")
        lines.append(
            "supported weights: \(supportedWeights.map { $0.map(String.init).joined(separator: " ") } ?? "whatever is registered")"
        )
        lines.append("Bold Text policy:  \(boldPolicy.rawValue)")
        if !aliases.isEmpty { lines.append("aliases:           \(aliases.joined(separator: ", "))") }
        return lines
    }
}
