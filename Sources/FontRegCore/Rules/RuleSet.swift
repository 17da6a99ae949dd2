import FontRegSystem
import Foundation

/// Every family rule and alias, looked up by normalized family name.
public struct RuleSet: Sendable {
    /// The rules, in the order they were loaded.
    public let rules: [FamilyRule]
    /// Problems met while loading; the rules of other files still load.
    public let problems: [RuleError]
    private let byKey: [FamilyKey: Int]
    private let aliases: [FamilyKey: (target: String, deprecated: Bool)]

    /// An empty rule set: every family gets the default rule.
    public static let empty = RuleSet(rules: [], problems: [])

    /// Creates a rule set from rules built in code.
    ///
    /// - Parameters:
    ///   - rules: the family rules; a later rule for the same family wins.
    ///   - problems: problems to report alongside, as ``load(directory:)`` records them.
    public init(rules: [FamilyRule], problems: [RuleError] = []) {
        self.rules = rules
        self.problems = problems
        var byKey: [FamilyKey: Int] = [:]
        var aliases: [FamilyKey: (String, Bool)] = [:]
        for (i, rule) in rules.enumerated() {
            byKey[FamilyKey(rule.family)] = i
            if byKey[FamilyKey(rule.familyName)] == nil { byKey[FamilyKey(rule.familyName)] = i }
            for alias in rule.aliases { aliases[FamilyKey(alias.name)] = (rule.family, alias.deprecated) }
        }
        self.byKey = byKey
        self.aliases = aliases
    }

    /// The rule declared for a family (by its name or its `familyName`), if any.
    ///
    /// - Parameter family: the family name in any spelling.
    /// - Returns: the rule, or `nil` when the family has none (the default rule applies).
    public func rule(for family: String) -> FamilyRule? {
        rule(key: FamilyKey(family))
    }

    /// The rule declared under an already normalized key.
    ///
    /// - Parameter key: the normalized family name.
    /// - Returns: the rule, or `nil`.
    public func rule(key: FamilyKey) -> FamilyRule? {
        byKey[key].map { rules[$0] }
    }

    /// Whether there are no rules and no aliases (the resolver then skips every lookup).
    public var isEmpty: Bool { rules.isEmpty }

    /// The family an alias stands for, and whether the alias is deprecated.
    ///
    /// - Parameter name: the name that may be an alias, in any spelling.
    /// - Returns: the target family and whether the alias is deprecated, or `nil` when `name` is no alias.
    public func alias(_ name: String) -> (target: String, deprecated: Bool)? {
        aliases[FamilyKey(name)]
    }

    /// The alias under an already normalized key.
    ///
    /// - Parameter key: the normalized name.
    /// - Returns: the target family and whether the alias is deprecated, or `nil`.
    public func alias(key: FamilyKey) -> (target: String, deprecated: Bool)? {
        aliases[key]
    }

    /// Loads every `*.json` file of a directory, in name order.
    ///
    /// A malformed file is reported in ``problems`` with file, line and what is wrong, and
    /// does not stop the other files from loading. A missing directory is a problem too.
    /// - Parameter directory: the rules directory.
    /// - Returns: the rules that loaded and the problems met.
    public static func load(directory: String) -> RuleSet {
        let names: [String]
        do {
            names = try FileDescriptor.open(directory, as: .directory).entryNames().filter { $0.hasSuffix(".json") }
        } catch {
            return RuleSet(
                rules: [],
                problems: [
                    RuleError(
                        file: directory,
                        message: "cannot read the rules directory: \(FontScanner.describe(errno: error.errno))")
                ])
        }
        var rules: [FamilyRule] = []
        var problems: [RuleError] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                rules += try RuleFileParser.parse(path: path)
            } catch {
                problems.append(error)
            }
        }
        return RuleSet(rules: rules, problems: problems)
    }
}
