import FontRegSystem

/// Finds the daemon's socket: `--socket`, else `$FONTREG_SOCKET`, else the system socket, else the per-user one.
package struct SocketLocator: Sendable {
    /// The environment variable that names the socket when `--socket` is not given.
    static let environmentVariable = "FONTREG_SOCKET"
    /// Where the system daemon listens (`fontregd.socket`, and fontregd's default).
    package static let systemSocket = "/run/fontreg/fontregd.sock"

    /// The environment the locator reads.
    package var environment: [String: String]
    /// Tells whether a path exists; replaceable for tests.
    package var exists: @Sendable (String) -> Bool

    package init(
        environment: [String: String] = ProcessEnvironment.current(),
        exists: @escaping @Sendable (String) -> Bool = { (try? Syscall.status(ofPath: $0, followLinks: true)) != nil }
    ) {
        self.environment = environment
        self.exists = exists
    }

    /// The per-user socket, `$XDG_RUNTIME_DIR/fontreg/fontregd.sock`, when `XDG_RUNTIME_DIR` is set.
    var userSocket: String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return Self.joined(runtime, "fontreg/fontregd.sock")
    }

    /// `directory` and `relative` joined as `NSString.appendingPathComponent` joins them: a slash
    /// between the two unless the directory is empty or already ends with one.
    static func joined(_ directory: String, _ relative: String) -> String {
        directory.isEmpty || directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }

    /// The sockets discovery looks at, in order, when neither `--socket` nor the environment names one.
    var defaultCandidates: [String] {
        [Self.systemSocket] + (userSocket.map { [$0] } ?? [])
    }

    /// Whether the socket comes from discovery rather than from `--socket` or `$FONTREG_SOCKET`.
    func isDiscovered(option: String?) -> Bool {
        (option ?? "").isEmpty && (environment[Self.environmentVariable] ?? "").isEmpty
    }

    /// The socket to connect to.
    ///
    /// An explicit path (option or environment) is used as given, even when it does not
    /// exist, so that the error names it. Otherwise the system socket when it exists, then
    /// the per-user one when it exists, and the system socket when neither does.
    /// - Parameter option: the value of `--socket`, if given.
    package func socketPath(option: String?) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment[Self.environmentVariable], !variable.isEmpty { return variable }
        if exists(Self.systemSocket) { return Self.systemSocket }
        if let user = userSocket, exists(user) { return user }
        return Self.systemSocket
    }
}
