import FontRegCore
import FontRegProtocol
import Varlink

/// The daemon's registry, over its Varlink socket (interface `io.fontreg.Registry`).
///
/// A thin wrapper of the one typed client, ``RegistryClient``, which encodes every call and
/// decodes every reply into the same values the embedded backend returns; this type only
/// turns errors into sentences with the exit status they deserve (see ``DaemonErrorTranslator``).
final class DaemonBackend: RegistryBackend {
    /// The socket this backend talks to.
    package let socketPath: String
    private let client: RegistryClient

    /// Seconds to wait for a query's reply.
    static let queryTimeout = 60.0
    /// Seconds to wait for `Register` and `Rescan`, which read font files first.
    static let changeTimeout = 900.0

    /// Connects to the daemon.
    ///
    /// - Throws: ``CLIError/daemonUnreachable(socket:reason:)`` when nothing answers there,
    ///   ``CLIError/permissionDenied(_:)`` when the socket is closed to this user.
    package init(socketPath: String) throws(CLIError) {
        self.socketPath = socketPath
        client = try Self.translating(socketPath) { () throws(VarlinkClientError) in
            try RegistryClient(socketPath: socketPath, timeout: Self.queryTimeout, changeTimeout: Self.changeTimeout)
        }
    }

    /// Runs a client call, turning its error into a ``CLIError``.
    private static func translating<T>(_ socketPath: String, _ body: () throws(VarlinkClientError) -> T)
        throws(CLIError) -> T
    {
        do {
            return try body()
        } catch {
            throw DaemonErrorTranslator(socketPath: socketPath).translate(error)
        }
    }

    func translating<T>(_ body: (RegistryClient) throws(VarlinkClientError) -> T) throws(CLIError) -> T {
        let client = self.client
        return try Self.translating(socketPath) { () throws(VarlinkClientError) in try body(client) }
    }

    package func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply {
        try translating { (client) throws(VarlinkClientError) in try client.resolve(query) }
    }

    package func candidates(_ query: ResolveQuery) throws(CLIError) -> CandidateList {
        try translating { (client) throws(VarlinkClientError) in try client.candidates(query) }
    }

    package func families() throws(CLIError) -> [FamilySummary] {
        try translating { (client) throws(VarlinkClientError) in try client.families() }
    }

    package func faces(family: String?) throws(CLIError) -> [FaceRecord] {
        try translating { (client) throws(VarlinkClientError) in try client.faces(family: family) }
    }

    package func face(postscriptName: String) throws(CLIError) -> FaceRecord {
        try translating { (client) throws(VarlinkClientError) in try client.face(postscriptName: postscriptName) }
    }

    package func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport {
        try translating { (client) throws(VarlinkClientError) in try client.register(paths: paths, persist: persist) }
    }

    package func unregister(paths: [String]) throws(CLIError) -> RegistrationReport {
        try translating { (client) throws(VarlinkClientError) in try client.unregister(paths: paths) }
    }

    package func rescan() throws(CLIError) -> RegistrationReport {
        try translating { (client) throws(VarlinkClientError) in try client.rescan() }
    }

    package func status() throws(CLIError) -> RegistryStatus {
        try translating { (client) throws(VarlinkClientError) in try client.status() }
    }

    /// The family rules the daemon resolves with (`ListRules`), so `rules show` and `audit` use the real ones.
    package func rules() throws(CLIError) -> RuleSet {
        try translating { (client) throws(VarlinkClientError) in try client.rules() }
    }

    /// Follows `Monitor` until `body` returns `false`; waits for changes without a timeout.
    ///
    /// - Throws: ``CLIError/daemonUnreachable(socket:reason:)`` when the daemon stops.
    package func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError) {
        try translating { (client) throws(VarlinkClientError) in try client.monitor(body) }
        throw CLIError.daemonUnreachable(
            socket: socketPath, reason: "the daemon ended the Monitor stream (it is stopping)")
    }
}
