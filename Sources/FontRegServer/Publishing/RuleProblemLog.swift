import FontRegCore
import FontRegSystem

/// Writes the rule files the daemon could not read to its log (at start and on SIGHUP).
///
/// The same problems are in `GetStatus` (and so `fontresolve status`) and `ListRules`.
enum RuleProblemLog {
    /// Logs how many rules are in force and each problem with its file, line and what is wrong.
    ///
    /// - Parameters:
    ///   - rules: the rule set just loaded.
    ///   - directory: the configured rules directory, if any.
    ///   - logger: the daemon's log.
    static func report(_ rules: RuleSet, directory: String?, logger: Logger) {
        guard let directory else { return }
        logger.info("rules: \(rules.rules.count) family rule(s) from \(directory)")
        for problem in rules.problems {
            logger.warning("rules: \(problem.description); the other rule files still apply")
        }
    }
}
