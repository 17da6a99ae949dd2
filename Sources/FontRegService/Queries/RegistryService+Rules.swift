import FontRegCore
import FontRegJSON
import Varlink

extension RegistryService {
    /// `ListRules`: the family rules in force, each as its rule file states it, and the rule files
    /// that could not be read (the same problems `GetStatus` reports).
    func listRules(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        _ = try ParameterReader(call, allowed: [])
        let rules = registry.rules
        var entries: [JSONValue] = []
        for rule in rules.rules {
            guard let object = try? JSONParser.parse(Array(RuleSet.ruleJSON(rule).utf8)) else { continue }
            entries.append(["source": .string(rule.source), "rule": object])
        }
        return ["rules": .array(entries), "problems": .array(Self.problems(of: rules))]
    }

    /// The rule set's problems in the interface's `Problem` form: the file, and where and what is wrong.
    static func problems(of rules: RuleSet) -> [JSONValue] {
        rules.problemReports.map { ["path": .string($0.path), "reason": .string($0.reason)] }
    }
}
