import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

/// Issue 15: `Disable`, `Enable`, `SetBoldText` and `GetBoldText`.
extension RegistryService {
    /// `Disable(target, kind)`: hides a face, a file or a family from resolution without unregistering it.
    func disable(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let (kind, target, matches) = try disableTarget(call, peer: peer)
        let admin = isAdministrator(peer)
        let faces: [FaceRecord]
        if admin {
            faces = matches
        } else {
            let roots = platform.privateRoots
            faces = matches.filter { roots.owner(of: $0.file) == peer.uid }
            guard !faces.isEmpty else {
                throw permissionDenied(call, peer: peer, "\(target) is not among their own registrations")
            }
        }
        let entry = DisabledEntry(kind: kind, value: target, owner: peer.uid, systemWide: admin)
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try changePersistedState(by: peer) { state in
                    if !state.disabled.contains(entry) { state.disabled.append(entry) }
                }
                logger.info("disabled \(kind.rawValue) \(target) for \(peer): \(faces.count) faces")
                return [
                    "kind": .string(kind.rawValue), "target": .string(target), "faces": .array(faces.map(\.jsonValue)),
                ]
            }
        }
    }

    /// `Enable(target, kind)`: undoes `Disable`.
    func enable(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["target", "kind"])
        let target = try reader.string("target", maximumBytes: Self.maximumPathBytes)
        let kind = try Self.disabledKind(from: reader)
        let value =
            kind == .file || (kind == nil && target.hasPrefix("/")) ? AllowedRoots.realPath(target) ?? target : target
        let named = platform.state.disabled.filter { entry in
            (kind == nil || entry.kind == kind) && Self.sameTarget(entry, value)
        }
        let admin = isAdministrator(peer)
        let mine = named.filter { admin || (!$0.systemWide && $0.owner == peer.uid) }
        guard !mine.isEmpty else {
            if named.contains(where: { $0.systemWide || $0.owner == peer.uid }) {
                throw permissionDenied(call, peer: peer, "\(target) was disabled by an administrator")
            }
            throw VarlinkError(RegistryInterface.ErrorName.notDisabled, ["target": .string(target)])
        }
        let before = view(for: peer)
        let faces = before.disabled.filter { face in mine.contains { $0.names(face) } }
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try changePersistedState(by: peer) { state in state.disabled.removeAll { mine.contains($0) } }
                logger.info("enabled \(target) for \(peer)")
                return [
                    "kind": .string(mine[0].kind.rawValue), "target": .string(target),
                    "faces": .array(faces.map(\.jsonValue)),
                ]
            }
        }
    }

    /// `SetBoldText(boldText)`: the caller's own Bold Text setting; `null` goes back to the default.
    func setBoldText(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["boldText"])
        let setting = try reader.optionalBool("boldText")
        return .deferred { [self] in
            Result { () throws(VarlinkError) -> [String: JSONValue] in
                try changePersistedState(by: peer, event: "preferences") { state in state.boldText[peer.uid] = setting }
                logger.info("Bold Text \(setting.map { $0 ? "on" : "off" } ?? "default") for \(peer)")
                let now = boldText(for: peer.uid)
                return ["boldText": .bool(now.on), "source": .string(now.source)]
            }
        }
    }

    /// `GetBoldText()`: the caller's Bold Text setting, where it comes from, and the default policy.
    func getBoldText(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [String: JSONValue] {
        _ = try ParameterReader(call, allowed: [])
        let now = boldText(for: peer.uid)
        var reply: [String: JSONValue] = ["boldText": .bool(now.on), "source": .string(now.source)]
        if let policy = settings.withLock({ $0.platform.boldPolicy }) { reply["boldPolicy"] = .string(policy.rawValue) }
        return reply
    }

    // MARK: Helpers

    /// Reads `Disable`'s parameters and finds the faces the target names among those the caller sees.
    private func disableTarget(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError)
        -> (DisabledEntry.Kind, String, [FaceRecord])
    {
        let reader = try ParameterReader(call, allowed: ["target", "kind"])
        let target = try reader.string("target", maximumBytes: Self.maximumPathBytes)
        guard !target.isEmpty else { throw VarlinkError.invalidParameter("target") }
        let view = view(for: peer)
        let seen = view.index.faces + view.disabled
        let explicit = try Self.disabledKind(from: reader)
        let kinds: [DisabledEntry.Kind] = explicit.map { [$0] } ?? (target.hasPrefix("/") ? [.file] : [.face, .family])
        for kind in kinds {
            let value = kind == .file ? AllowedRoots.realPath(target) ?? target : target
            let probe = DisabledEntry(kind: kind, value: value, owner: peer.uid, systemWide: false)
            let matches = seen.filter { probe.names($0) }
            if !matches.isEmpty { return (kind, kind == .face ? matches[0].postscriptName : value, matches) }
        }
        throw VarlinkError(RegistryInterface.ErrorName.faceNotFound, ["postscriptName": .string(target)])
    }

    /// Reads the optional `kind` (`face`, `file`, `family`).
    private static func disabledKind(from reader: ParameterReader) throws(VarlinkError) -> DisabledEntry.Kind? {
        guard let name = try reader.optionalString("kind", maximumBytes: maximumKeywordBytes) else { return nil }
        guard let kind = DisabledEntry.Kind(rawValue: name) else { throw VarlinkError.invalidParameter("kind") }
        return kind
    }

    /// Whether an entry names `value` (case-insensitively for faces, by family key for families).
    private static func sameTarget(_ entry: DisabledEntry, _ value: String) -> Bool {
        switch entry.kind {
        case .face: entry.value.lowercased() == value.lowercased()
        case .file: entry.value == value
        case .family: FamilyKey(entry.value) == FamilyKey(value)
        }
    }

    /// Changes the persisted state (the changed users' files) durably, then forgets cached replies and tells `Monitor`.
    ///
    /// - Throws: `PersistedStateLimitReached` when the change takes `peer` past their budget,
    ///   `PersistenceFailed` when the file cannot be written; nothing is changed then.
    func changePersistedState(
        by peer: PeerCredentials, event: String = "changed", _ change: (inout PlatformState) -> Void
    ) throws(VarlinkError) {
        let store = PlatformStateStore(directory: self.store.directory)
        let (old, new) = platform.changeState(change)
        do {
            try checkPersistedBudget(old: old, new: new, peer: peer)
        } catch {
            platform.restoreState(old)
            throw error
        }
        do {
            try store.save(new, replacing: old)
        } catch {
            platform.restoreState(old)
            throw VarlinkError(
                RegistryInterface.ErrorName.persistenceFailed,
                ["path": .string(store.folder), "reason": .string(error.description)])
        }
        invalidateCaches()
        warmViews()
        let index = registry.index
        // No uid and no faces: every subscriber learns only that it should resolve again.
        server.withLock { $0 }?.broadcast([
            "event": .string(event), "generation": .int(index.generation),
            "faces": .int(publicFaceCount(index)), "added": [], "removed": [],
        ])
    }
}
