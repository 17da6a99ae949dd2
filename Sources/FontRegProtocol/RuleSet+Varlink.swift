import FontRegCore
import FontRegJSON

extension RuleSet {
    /// The rule set a `ListRules` reply describes: each rule read back from its rule-file JSON,
    /// and each problem as a ``RuleError`` naming the file.
    ///
    /// - Parameter reply: the parameters of the `ListRules` reply.
    /// - Returns: nil when the reply does not have the interface's shape.
    package init?(listRulesReply reply: [String: JSONValue]) {
        guard let entries = reply["rules"]?.arrayValue else { return nil }
        var rules: [FamilyRule] = []
        for entry in entries {
            guard let source = entry["source"]?.stringValue, let object = entry["rule"],
                let rule = RuleSet.parseRule(json: object.description, source: source)
            else { return nil }
            rules.append(rule)
        }
        let problems = (reply["problems"]?.arrayValue ?? []).map { problem in
            RuleError(
                file: problem["path"]?.stringValue ?? "?",
                message: problem["reason"]?.stringValue ?? "unreadable")
        }
        self.init(rules: rules, problems: problems)
    }
}
