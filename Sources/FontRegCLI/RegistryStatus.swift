import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// The state of a registry: what `fontresolve status` prints, the daemon's `GetStatus` reply.
package struct RegistryStatus: Sendable, Hashable, Codable {
    /// `daemon` or `embedded`.
    package var mode: String
    /// The daemon's socket, in daemon mode.
    package var socket: String?
    /// Registered faces.
    package var faces: Int
    /// Registered families.
    package var families: Int
    /// The index generation: increases by one with every change.
    package var generation: Int
    /// Files that could not be used, and why.
    package var problems: [ScanProblem]
    /// The directories the registry was configured with.
    package var fontDirectories: [String]
    /// Every registered directory and file.
    package var registeredPaths: [String]
    /// The daemon's version, in daemon mode.
    package var version: String?
    /// How long the daemon has been running, in daemon mode.
    package var uptimeSeconds: Double?
    /// Open connections to the daemon, in daemon mode.
    package var connections: Int?

    package init(
        mode: String, socket: String? = nil, faces: Int, families: Int, generation: Int, problems: [ScanProblem],
        fontDirectories: [String], registeredPaths: [String], version: String? = nil, uptimeSeconds: Double? = nil,
        connections: Int? = nil
    ) {
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
