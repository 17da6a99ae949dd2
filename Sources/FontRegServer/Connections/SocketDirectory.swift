import FontRegSystem

/// Whether the directory of the socket (and of the snapshot beside it) is one other local users
/// cannot plant files in (issue 24).
///
/// The rule follows systemd's own for unsafe path transitions (`chase()` with `CHASE_SAFE`,
/// `systemd-tmpfiles`): a directory that others may write to and that lacks the sticky bit lets
/// them rename and replace anything in it, so the daemon refuses to start there; a sticky one
/// (`/tmp`-style) only lets them add names, which the daemon never trusts, so it warns.
package enum SocketDirectory {
    /// What the check found.
    package enum Verdict: Sendable, Equatable {
        /// Only the owner (root or the daemon's user) may write to it.
        case safe
        /// Writable by others but sticky, or owned by another user: started, with a warning.
        case warning(String)
        /// Writable by others without the sticky bit: the daemon does not start.
        case refused(String)
    }

    /// Examines the directory that holds `socketPath`, following links as `bind` and the publisher do.
    ///
    /// - Parameter socketPath: the socket's path.
    /// - Returns: the verdict; ``Verdict/safe`` when the directory does not exist yet (the daemon creates it 0755).
    package static func check(socketPath: String) -> Verdict {
        let (directory, _) = RegistrySocketPath.split(socketPath)
        guard let status = try? Syscall.status(ofPath: directory, followLinks: true) else { return .safe }
        return verdict(directory: directory, status: status, daemonUser: Syscall.effectiveUserID)
    }

    /// The verdict for a directory with `status`, for a daemon running as `daemonUser`.
    static func verdict(directory: String, status: FileStatus, daemonUser: UInt32) -> Verdict {
        let writableByOthers = status.permissions & 0o022 != 0
        let sticky = status.permissions & 0o1000 != 0
        let mode = "mode " + String(status.permissions, radix: 8)
        if writableByOthers && !sticky {
            return .refused(
                "the socket's directory \(directory) (\(mode)) is writable by other users and not sticky: "
                    + "any of them could replace the socket or the snapshot beside it; use a directory only "
                    + "root may write to (the default /run/fontreg, RuntimeDirectory= under systemd)")
        }
        if writableByOthers {
            return .warning(
                "the socket's directory \(directory) (\(mode)) is writable by other users (sticky): they may "
                    + "plant files beside the socket, which the daemon never trusts; prefer a directory only "
                    + "root may write to (the default /run/fontreg)")
        }
        if status.owner != 0 && status.owner != daemonUser {
            return .warning(
                "the socket's directory \(directory) belongs to uid \(status.owner), who could replace the "
                    + "socket or the snapshot beside it; prefer a directory of root's (the default /run/fontreg)")
        }
        return .safe
    }
}
