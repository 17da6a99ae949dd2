/// How long a registration lasts (issue 15), as `Register`'s `scope` parameter names it.
package enum RegistrationScope: String, Sendable, Hashable, CaseIterable {
    /// Until the registering client's connection closes (it hung up, exited or was killed).
    case connection
    /// Until the daemon stops (`runtime` is accepted as another name).
    case session
    /// Written to the state directory before the reply; survives restarts and crashes.
    case persistent

    /// The scope with this name: `connection`, `session` (or `runtime`), `persistent`.
    ///
    /// - Parameter name: the name as a client sent it.
    package init?(name: String) {
        if name == "runtime" {
            self = .session
            return
        }
        self.init(rawValue: name)
    }

    /// The names `Register` accepts, for the error that lists them.
    package static let acceptedNames = ["connection", "session", "runtime", "persistent"]
}
