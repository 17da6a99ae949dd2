import FontRegCore
import FontRegProtocol

/// The daemon's registry read from the snapshot it publishes beside its socket, for `resolve`,
/// `list` and `face`: answered in process with no round trip, exactly as the socket answers.
///
/// Before each answer the generation is checked (``RegistrySnapshot/current()``). Whatever the
/// snapshot cannot answer as the daemon would goes to the socket: an unknown family (the daemon
/// has the system fallback and the suggestions), a family whose faces won over duplicates,
/// a missing face, and every other command. A snapshot that is refused (not trusted, corrupt, of
/// another version) is reported once as a warning; a missing one silently means the socket. The
/// snapshot's records are checked as an answer reads them (``MappedSnapshot/Checks/atAccess``):
/// an answer during which a record failed its check is not given; the damage is reported the
/// same way and the socket answers.
package final class SnapshotBackend: RegistryBackend {
    /// The socket, for everything the snapshot does not answer.
    package let socketPath: String
    /// The snapshot, while it can answer.
    private var snapshot: RegistrySnapshot?
    /// The socket backend, connected when first needed.
    private var daemon: DaemonBackend?
    /// Where warnings go.
    private let warn: (String) -> Void

    /// Maps the snapshot beside `socketPath` (without connecting to the socket).
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's socket.
    ///   - warn: prints a warning line (the snapshot was refused, so the socket answers).
    package init(socketPath: String, warn: @escaping (String) -> Void) {
        self.socketPath = socketPath
        self.warn = warn
        do {
            snapshot = try RegistrySnapshot(socketPath: socketPath)
        } catch {
            refused(error)
        }
    }

    /// Whether a snapshot was mapped (else this backend would only forward to the socket).
    package var isMapped: Bool { snapshot != nil }

    /// The snapshot to answer from now, or `nil` (warned once) when it can no longer answer.
    private func current() -> MappedSnapshot? {
        guard let snapshot else { return nil }
        do {
            return try snapshot.current()
        } catch {
            self.snapshot = nil
            refused(error)
            return nil
        }
    }

    /// `value` when no record read for it failed its check; else the snapshot is dropped (the
    /// damage warned once) and `nil`, for the socket to answer.
    private func undamaged<T>(_ mapped: MappedSnapshot, _ value: T?) -> T? {
        guard let damage = mapped.damage else { return value }
        if snapshot != nil {
            snapshot = nil
            refused(.invalid(damage))
        }
        return nil
    }

    /// Warns about a refused snapshot; says nothing when there is none.
    private func refused(_ error: RegistrySnapshot.Unavailable) {
        if let warning = Self.warning(error) { warn(warning) }
    }

    /// The warning line for a snapshot that cannot answer, with what settles a damaged one
    /// (``CLIAdvice``); `nil` when there is no snapshot to warn about.
    ///
    /// - Parameter error: why the snapshot cannot answer.
    /// - Returns: the line, or `nil` for ``RegistrySnapshot/Unavailable/absent``.
    package static func warning(_ error: RegistrySnapshot.Unavailable) -> String? {
        switch error {
        case .absent:
            return nil
        case .refused(let reason):
            return "fontresolve: warning: not using the daemon's snapshot: \(reason); asking the socket instead"
        case .invalid(let damage):
            return
                "fontresolve: warning: not using the daemon's snapshot: \(damage) \(CLIAdvice.advice(for: damage)); asking the socket instead"
        }
    }

    /// The socket backend, connecting on first use.
    private func socket() throws(CLIError) -> DaemonBackend {
        if let daemon { return daemon }
        let connected = try DaemonBackend(socketPath: socketPath)
        daemon = connected
        return connected
    }

    package func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply {
        try resolve(query, statingBoldText: false)
    }

    /// Resolves from the snapshot (published only while no user has a Bold Text setting and the
    /// default is off, so a stated `false` means what it says there), else over the socket.
    package func resolve(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> ResolutionReply {
        if let mapped = current() {
            let resolution = try? SnapshotResolver(snapshot: mapped, rules: mapped.rules).resolve(query)
            // A damaged record reads as absent: the resolve fails or answers around it; either way, warned.
            if let resolution = undamaged(mapped, resolution), mapped.servesInFull(family: resolution.resolvedFamily) {
                return ResolutionReply(resolution)
            }
        }
        return try socket().resolve(query, statingBoldText: statingBoldText)
    }

    package func families() throws(CLIError) -> [FamilySummary] {
        guard let mapped = current(),
            let families = undamaged(
                mapped, (0..<mapped.familyCount).compactMap { mapped.family(at: $0).map(FamilySummary.init) })
        else { return try socket().families() }
        return families
    }

    package func faces(family: String?) throws(CLIError) -> [FaceRecord] {
        guard let mapped = current() else { return try socket().faces(family: family) }
        guard let family else {
            let faces = (0..<mapped.faceCount).compactMap { mapped.isListed(at: $0) ? mapped.face(at: $0) : nil }
            guard let faces = undamaged(mapped, faces) else { return try socket().faces(family: nil) }
            return faces
        }
        guard let entry = mapped.family(named: family), let faces = undamaged(mapped, entry.faces) else {
            return try socket().faces(family: family)
        }
        return faces
    }

    package func face(postscriptName: String) throws(CLIError) -> FaceRecord {
        if let mapped = current(), let face = undamaged(mapped, mapped.face(postscriptName: postscriptName)) {
            return face
        }
        return try socket().face(postscriptName: postscriptName)
    }

    package func candidates(_ query: ResolveQuery) throws(CLIError) -> CandidateList {
        try socket().candidates(query)
    }

    /// The candidates over the socket, with `boldText` sent even when off.
    package func candidates(_ query: ResolveQuery, statingBoldText: Bool) throws(CLIError) -> CandidateList {
        try socket().candidates(query, statingBoldText: statingBoldText)
    }

    package func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport {
        try socket().register(paths: paths, persist: persist)
    }

    package func unregister(paths: [String]) throws(CLIError) -> RegistrationReport {
        try socket().unregister(paths: paths)
    }

    package func rescan() throws(CLIError) -> RegistrationReport { try socket().rescan() }

    package func rules() throws(CLIError) -> RuleSet { try socket().rules() }

    package func status() throws(CLIError) -> RegistryStatus { try socket().status() }

    package func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError) { try socket().watch(body) }

    /// The snapshot carries no coverage yet, so text goes to the socket (issue 12).
    package func resolveText(_ text: String, _ query: TextQuery, explain: Bool, statingBoldText: Bool)
        throws(CLIError) -> TextReply
    {
        try socket().resolveText(text, query, explain: explain, statingBoldText: statingBoldText)
    }

    package func faceCoverage(postscriptName: String, text: String) throws(CLIError) -> FaceCoverageReply {
        try socket().faceCoverage(postscriptName: postscriptName, text: text)
    }
}
