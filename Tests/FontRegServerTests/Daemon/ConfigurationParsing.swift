@testable import FontRegServer

/// The configuration `fontregd` would run with for `arguments` (the suites of its options share it).
///
/// - Throws: ``ConfigurationError`` for arguments `fontregd` refuses.
func configuration(_ arguments: [String]) throws(ConfigurationError) -> DaemonConfiguration {
    guard case .run(let configuration, _) = try DaemonConfiguration.parse(arguments: arguments) else {
        preconditionFailure("expected a run command, not --help or --version")
    }
    return configuration
}
