import Foundation

extension RuleSet {
    /// One rule as its rule file states it (the JSON of `docs/rules.md`), for `ListRules` on the wire.
    ///
    /// - Parameter rule: a rule of this set.
    /// - Returns: the rule-file JSON text; ``parseRule(json:source:)`` reads it back.
    package static func ruleJSON(_ rule: FamilyRule) -> String {
        rule.ruleFileJSON
    }

    /// Reads back one rule sent by ``ruleJSON(_:)``, keeping the file it came from.
    ///
    /// - Parameters:
    ///   - json: the rule's JSON text.
    ///   - source: the rule file the daemon read it from.
    /// - Returns: the rule, or nil when the text is not a rule.
    package static func parseRule(json: String, source: String) -> FamilyRule? {
        guard var rule = (try? RuleFileParser.parse(data: Data(json.utf8), path: source))?.first else { return nil }
        rule.source = source
        return rule
    }

    /// The rule files that could not be read, in the form status reports use for problems:
    /// the file, then "rule file: line L, column C: what is wrong".
    package var problemReports: [ScanProblem] {
        problems.map { problem in
            var place = ""
            if let line = problem.line {
                place = "line \(line)" + (problem.column.map { ", column \($0)" } ?? "") + ": "
            }
            return ScanProblem(path: problem.file, reason: "rule file: " + place + problem.message, kind: .ruleFile)
        }
    }
}
