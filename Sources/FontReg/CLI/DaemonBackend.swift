/// Placeholder until the daemon's protocol client is merged.
public final class DaemonBackend: RegistryBackend {
    let socketPath: String
    public init(socketPath: String) throws(CLIError) {
        self.socketPath = socketPath
        throw .daemonUnreachable(socket: socketPath, reason: "not implemented")
    }
    public func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply { fatalError() }
    public func families() throws(CLIError) -> [FamilySummary] { fatalError() }
    public func faces(family: String?) throws(CLIError) -> [FaceRecord] { fatalError() }
    public func face(postscriptName: String) throws(CLIError) -> FaceRecord { fatalError() }
    public func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport { fatalError() }
    public func unregister(paths: [String]) throws(CLIError) -> RegistrationReport { fatalError() }
    public func rescan() throws(CLIError) -> RegistrationReport { fatalError() }
    public func status() throws(CLIError) -> RegistryStatus { fatalError() }
    public func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError) { fatalError() }
}
