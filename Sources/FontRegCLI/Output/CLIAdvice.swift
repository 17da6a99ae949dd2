import FontRegCore

/// Which `fontresolve` command (or `fontregd` action) to take next, for the errors the lower
/// layers report as plain facts.
///
/// FontRegCore, FontRegJSON, FontRegSystem and Varlink name no program in their messages: an app
/// that embeds the registry has no `fontresolve`, and the index file it reads is not fontregd's.
/// The CLI decides by the error's case, never by its words, and adds the advice here.
package enum CLIAdvice {
    /// What to do about a refused registry change, when a command helps.
    ///
    /// - Parameter error: the refusal.
    /// - Returns: the advice, or `nil` when the description says all there is to do.
    package static func advice(for error: RegistryError) -> String? {
        switch error {
        case .notRegistered: "List the registered paths with `fontresolve status`."
        case .fileNotFound, .alreadyRegistered, .invalidFontData, .permissionDenied: nil
        }
    }

    /// What to do about a query that could not be resolved, when a command helps.
    ///
    /// - Parameter error: why it was not resolved.
    /// - Returns: the advice, or `nil` when the description says all there is to do (it names the near families).
    package static func advice(for error: ResolveError) -> String? {
        switch error {
        case .familyNotFound(_, let suggestions) where suggestions.isEmpty:
            "List the registered families with `fontresolve list`, or register the family's files."
        case .familyNotFound, .noFaceInFamily: nil
        }
    }

    /// What to do about a text that could not be resolved, when a command helps.
    ///
    /// - Parameter error: why it was not resolved.
    /// - Returns: the advice of the family's ``ResolveError``, or `nil`.
    package static func advice(for error: TextResolveError) -> String? {
        switch error {
        case .resolve(let resolveError): advice(for: resolveError)
        case .textTooLong, .emptyStack: nil
        }
    }

    /// What to do about the daemon's published snapshot that does not validate; the client asks the
    /// socket meanwhile.
    ///
    /// - Parameter error: what is wrong with the snapshot file.
    /// - Returns: the advice for the operator, a sentence without its full stop.
    package static func advice(for error: SnapshotError) -> String {
        switch error {
        case .notASnapshot: "Remove it and let fontregd write a new one"
        case .versionMismatch, .checksumMismatch, .outOfBounds: "Restart fontregd to rewrite it"
        case .truncated: "fontregd rewrites it on its next change"
        case .unreadable: "Check its permissions, or restart fontregd to rewrite it"
        }
    }

    /// A `rules check` finding whose fix asks to look at a face, with the command that shows it.
    ///
    /// - Parameter finding: what the check found.
    /// - Returns: the finding, its fix naming `fontresolve face` where that helps.
    package static func withCommand(_ finding: RuleChecker.Finding) -> RuleChecker.Finding {
        guard finding.kind == .ambiguousWeightName, let face = finding.face else { return finding }
        var finding = finding
        finding.fix += "; `fontresolve face \(face)` shows it"
        return finding
    }

    /// The error's description followed by its advice, as `fontresolve` prints it.
    ///
    /// - Parameter error: a refused registry change.
    /// - Returns: one message.
    package static func message(_ error: RegistryError) -> String { joined(error.description, advice(for: error)) }

    /// The error's description followed by its advice, as `fontresolve` prints it.
    ///
    /// - Parameter error: an unresolved query.
    /// - Returns: one message.
    package static func message(_ error: ResolveError) -> String { joined(error.description, advice(for: error)) }

    /// The error's description followed by its advice, as `fontresolve` prints it.
    ///
    /// - Parameter error: an unresolved text.
    /// - Returns: one message.
    package static func message(_ error: TextResolveError) -> String { joined(error.description, advice(for: error)) }

    /// A description and, when there is one, the advice after it.
    private static func joined(_ description: String, _ advice: String?) -> String {
        advice.map { description + " " + $0 } ?? description
    }
}
