import FontRegCore

/// The state of a registry: what `fontresolve status` prints, the daemon's `GetStatus` reply.
public struct RegistryStatus: Sendable, Hashable, Codable {
    /// Where a registry runs; the raw values are the wire spelling.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// In fontregd, reached over its socket.
        case daemon
        /// In the process itself (`fontresolve --fonts`).
        case embedded
    }

    /// `daemon` or `embedded`.
    public var mode: Mode
    /// The daemon's socket, in daemon mode.
    public var socket: String?
    /// Registered faces.
    public var faces: Int
    /// Registered families.
    public var families: Int
    /// The index generation: increases by one with every change.
    public var generation: Int
    /// Files that could not be used, and why.
    public var problems: [ScanProblem]
    /// The directories the registry was configured with.
    public var fontDirectories: [String]
    /// Every registered directory and file.
    public var registeredPaths: [String]
    /// The daemon's version, in daemon mode.
    public var version: String?
    /// How long the daemon has been running, in daemon mode.
    public var uptimeSeconds: Double?
    /// Open connections to the daemon, in daemon mode.
    public var connections: Int?
    /// Faces claimed by more than one file, with the face used and why the others lost.
    public var duplicates: [DuplicateSummary]
    /// Who registered what and for how long, as the caller may see it (daemon mode, issue 15).
    public var registrations: [RegistrationSummary]?
    /// What is disabled, as the caller may see it (daemon mode, issue 15).
    public var disabled: [DisabledSummary]?
    /// The caller's Bold Text setting (daemon mode, issue 15).
    public var boldText: Bool?

    /// A status with every field given.
    public init(
        mode: Mode, socket: String? = nil, faces: Int, families: Int, generation: Int, problems: [ScanProblem],
        fontDirectories: [String], registeredPaths: [String], version: String? = nil, uptimeSeconds: Double? = nil,
        connections: Int? = nil, duplicates: [DuplicateSummary] = []
    ) {
        self.duplicates = duplicates
        self.mode = mode
        self.socket = socket
        self.faces = faces
        self.families = families
        self.generation = generation
        self.problems = problems
        self.fontDirectories = fontDirectories
        self.registeredPaths = registeredPaths
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.connections = connections
    }
}
