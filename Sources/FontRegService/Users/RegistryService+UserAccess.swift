import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Synchronization
import Varlink

/// Issue 15's access checks: administrators change anything, users their own fonts only.
extension RegistryService {
    /// Whether the access policy lets `peer` change the whole registry.
    func isAdministrator(_ peer: PeerCredentials) -> Bool {
        settings.withLock { $0.access }.mayChangeRegistry(peer)
    }

    /// Users who are not administrators are paced on the change worker while others change too
    /// (issue 24): a user looping `Register`/`Unregister` doubled root's pair.
    package func pacesChanges(of peer: PeerCredentials) -> Bool { !isAdministrator(peer) }

    /// `PermissionDenied` for `peer` calling `call`, logged with why.
    func permissionDenied(_ call: VarlinkCall, peer: PeerCredentials, _ why: String) -> VarlinkError {
        logger.warning("refused \(call.methodName) from \(peer): \(why)")
        return VarlinkError(
            RegistryInterface.ErrorName.permissionDenied,
            ["method": .string(call.method), "uid": .int(Int(peer.uid)), "gid": .int(Int(peer.gid))])
    }

    /// Checks a path a user (not an administrator) registers: inside the user's own roots after
    /// resolving symlinks, and owned by the user.
    ///
    /// Nothing is opened: `realpath` and `stat`, as ``AllowedRoots/validate(_:)`` does.
    /// - Parameters:
    ///   - path: the path as sent.
    ///   - peer: the peer registering.
    /// - Returns: the path with symlinks resolved, and the user's roots (the scan's confinement).
    /// - Throws: `PermissionDenied` when user fonts are off or the user has no roots; `PathNotAllowed`
    ///   (naming the user's own roots) or `FileNotFound` for the path.
    func checkUserPath(_ path: String, peer: PeerCredentials) throws(VarlinkError) -> (
        path: String, roots: AllowedRoots
    ) {
        let uid = peer.uid
        guard let roots = settings.withLock({ $0.platform }).roots(for: uid) else {
            throw VarlinkError(
                RegistryInterface.ErrorName.permissionDenied,
                ["method": "io.fontreg.Registry.Register", "uid": .int(Int(uid)), "gid": .int(Int(peer.gid))])
        }
        // Before anything looks at the file system: a path not even spelled inside the user's roots
        // is refused without asking whether it exists, so that no user learns what lies in
        // directories they cannot read (the daemon runs as root).
        let spelledInside =
            !path.split(separator: "/").contains("..")
            && (roots.roots + roots.resolvedRoots).contains { AllowedRoots.isInside(path, root: $0) }
        guard spelledInside || !path.hasPrefix("/") || path.split(separator: "/").contains("..") else {
            throw VarlinkError(
                RegistryInterface.ErrorName.permissionDenied,
                ["method": "io.fontreg.Registry.Register", "uid": .int(Int(uid)), "gid": .int(Int(peer.gid))])
        }
        if peer.pid != 0 {
            // The kernel, as the caller, reaches the target first (links followed, as the caller's
            // own open would): a target the caller could not read gets the answer the caller could
            // have had itself (the same PermissionDenied whether it exists behind an unsearchable
            // directory or not), before anything runs as root on it. A peer without a process
            // (pid 0: restoring a persisted registration at start-up) was checked when it registered.
            switch PeerFileAccess.peerCanRead(path, uid: uid, gid: peer.gid, groups: peer.groups) {
            case nil: break
            case Errno.noSuchFileOrDirectory?, Errno.notDirectory?:
                throw VarlinkError(RegistryInterface.ErrorName.fileNotFound, ["path": .string(path)])
            default:
                throw VarlinkError(
                    RegistryInterface.ErrorName.permissionDenied,
                    ["method": "io.fontreg.Registry.Register", "uid": .int(Int(uid)), "gid": .int(Int(peer.gid))])
            }
        }
        let resolved: String
        do {
            resolved = try roots.validate(path)
        } catch {
            if case .outsideAllowedRoots = error {
                throw VarlinkError(
                    RegistryInterface.ErrorName.permissionDenied,
                    ["method": "io.fontreg.Registry.Register", "uid": .int(Int(uid)), "gid": .int(Int(peer.gid))])
            }
            throw Self.varlinkError(error, allowedRoots: roots.roots)
        }
        guard (try? Syscall.status(ofPath: resolved, followLinks: true))?.owner == uid else {
            throw VarlinkError(
                RegistryInterface.ErrorName.pathNotAllowed,
                [
                    "path": .string(path), "reason": "it is not owned by you: a user may register only files they own",
                    "allowedRoots": .array(roots.roots.map { .string($0) }),
                ])
        }
        return (resolved, roots)
    }
}
