import FontRegCore
import FontRegProtocol
import Varlink

/// Issue 15's calls, which only the daemon answers (an embedded registry has no users or state).
extension DaemonBackend {
    /// Registers paths with a scope (`connection`, `session`, `persistent`).
    package func register(paths: [String], scope: String) throws(CLIError) -> RegistrationReport {
        try translating { (client) throws(VarlinkClientError) in try client.register(paths: paths, scope: scope) }
    }

    /// Disables a face, a file or a family.
    package func disable(_ target: String, kind: String?) throws(CLIError) -> EnablementReport {
        try translating { (client) throws(VarlinkClientError) in try client.disable(target, kind: kind) }
    }

    /// Enables what was disabled.
    package func enable(_ target: String, kind: String?) throws(CLIError) -> EnablementReport {
        try translating { (client) throws(VarlinkClientError) in try client.enable(target, kind: kind) }
    }

    /// The disabled faces of a family (or of all) that the caller could see.
    package func disabledFaces(family: String?) throws(CLIError) -> [FaceRecord] {
        try translating { (client) throws(VarlinkClientError) in try client.disabledFaces(family: family) }
    }

    /// Sets (or, with `nil`, forgets) the caller's Bold Text setting.
    package func setBoldText(_ on: Bool?) throws(CLIError) -> BoldTextSetting {
        try translating { (client) throws(VarlinkClientError) in try client.setBoldText(on) }
    }

    /// The caller's Bold Text setting.
    package func boldText() throws(CLIError) -> BoldTextSetting {
        try translating { (client) throws(VarlinkClientError) in try client.boldText() }
    }
}

extension CommandContext {
    /// The daemon backend, for commands that change state only the daemon keeps.
    ///
    /// - Throws: a usage error naming `command` under `--fonts`, or the daemon's connection error.
    func daemonBackend(for command: String) throws(CLIError) -> DaemonBackend {
        guard !isEmbedded, let daemon = try backend() as? DaemonBackend else {
            throw .usage(
                "fontresolve \(command): changes state the daemon keeps, and --fonts means no daemon. Drop --fonts to talk to fontregd.",
                usage: spec.usage)
        }
        return daemon
    }
}
