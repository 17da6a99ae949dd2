import FontRegJSON

extension FamilyRule {
    /// The rule as rule-file JSON (see `docs/rules.md`): only what differs from the defaults, plus the supported weights.
    package var ruleFileJSON: String {
        ruleFileJSONValue.prettyPrinted()
    }

    /// The members ``ruleFileJSON`` writes, as a tree.
    var ruleFileJSONValue: JSONValue {
        let rule = self
        var object: [String: JSONValue] = ["family": .string(rule.family), "familyName": .string(rule.familyName)]
        let changed = rule.weightNames.filter { FamilyRule.defaultWeightNames[$0.key] != $0.value }
        if !changed.isEmpty {
            object["weightNames"] = .object(
                Dictionary(
                    uniqueKeysWithValues: changed.map { (FontWeight(clamping: $0.key).displayName, .string($0.value)) })
            )
        }
        if rule.italicSuffix != "Italic" { object["italicSuffix"] = .string(rule.italicSuffix) }
        if let supported = rule.supportedWeights { object["supportedWeights"] = .array(supported.map { .int($0) }) }
        if rule.boldPolicy != .nextHeavier { object["boldPolicy"] = .string(rule.boldPolicy.rawValue) }
        if !rule.aliases.isEmpty {
            object["aliases"] = .array(
                rule.aliases.map { ["name": .string($0.name), "deprecated": .bool($0.deprecated)] })
        }
        return .object(object)
    }
}
