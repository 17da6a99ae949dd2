import FontRegCore
import Synchronization

extension RegistryService {
    /// What the fontconfig bridge may show every fontconfig application (issue 28).
    package struct FontconfigBridgeSource: Sendable, Hashable {
        /// The registered directories and files every user sees, in registration order.
        package var registered: [String]
        /// The disables that apply to every user's faces.
        package var disabled: [DisabledEntry]
        /// The rules' aliases, deprecated ones included.
        package var aliases: [FontconfigBridgeContent.Alias]
    }

    /// The registrations, disables and aliases the fontconfig bridge file holds.
    ///
    /// **The one place where what the bridge shows is decided.** The file is readable by every
    /// user, so it holds only what every user's queries see: no user's private registration
    /// (even when `share-user-fonts` shows them to every query: they live in a home that other
    /// users' applications may not be able to read), and only administrators' disables (a
    /// user's own apply to that user's private fonts alone).
    ///
    /// - Parameter outlivingDaemon: only what stays registered when the daemon stops (configured
    ///   directories and persistent registrations), for the file left behind at stop.
    /// - Returns: what to write.
    package func fontconfigBridgeSource(outlivingDaemon: Bool = false) -> FontconfigBridgeSource {
        let records = platform.live.withLock { $0.records }
        let registered = registry.registeredPaths.filter { path in
            guard let record = records[path] else { return true }  // a configured directory
            if record.isPrivate { return false }
            return !outlivingDaemon || record.scope == .persistent
        }
        let disabled = platform.state.disabled.filter(\.systemWide)
        var aliases: [FontconfigBridgeContent.Alias] = []
        for rule in registry.rules.rules {
            for alias in rule.aliases {
                let entry = FontconfigBridgeContent.Alias(alias: alias.name, target: rule.family)
                if !aliases.contains(entry) { aliases.append(entry) }
            }
        }
        return FontconfigBridgeSource(registered: registered, disabled: disabled, aliases: aliases)
    }
}
