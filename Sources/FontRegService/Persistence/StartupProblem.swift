import FontRegCore
import FontRegSystem

/// A problem found when the daemon started that stays in `GetStatus` until an operator acts.
package struct StartupProblem: Sendable, Hashable {
    /// What is reported.
    package let problem: ScanProblem
    /// A file whose removal (or renaming) by the operator settles the problem; `nil` for one that lasts until restart.
    let settledWhenGone: String?
    /// The only user besides administrators who is shown it (one user's state file); `nil` for everyone.
    package var audience: UInt32?

    /// - Parameters:
    ///   - problem: what `GetStatus` shows.
    ///   - settledWhenGone: the file whose removal settles it.
    ///   - audience: the one user besides administrators who is shown it; `nil` for everyone.
    package init(_ problem: ScanProblem, settledWhenGone: String? = nil, audience: UInt32? = nil) {
        self.problem = problem
        self.settledWhenGone = settledWhenGone
        self.settledWhenRegular = false
        self.audience = audience
    }

    /// A problem settled when `path` is gone or is a regular file again (a state file the daemon rewrote).
    private init(_ problem: ScanProblem, settledWhenGoneOrRegular path: String) {
        self.problem = problem
        self.settledWhenGone = path
        self.settledWhenRegular = true
        self.audience = nil
    }

    /// Whether a regular file at ``settledWhenGone`` settles the problem too.
    private let settledWhenRegular: Bool

    /// A corrupt state file moved aside to `aside`: reported until the operator removes or renames that file.
    package static func corruptStateFile(_ path: String, movedTo aside: String) -> StartupProblem {
        StartupProblem(
            ScanProblem(
                path: path,
                reason:
                    "the state file was corrupt and was moved aside to \(aside); persisted registrations were not "
                    + "restored. Inspect it, register the paths again with persist, then delete it", kind: .other),
            settledWhenGone: aside)
    }

    /// A state file that was not read (a link, a FIFO…) and was left in place: reported until it is
    /// removed, or until a saved change has put a regular file at its name.
    ///
    /// - Parameter error: why it was not read (``PersistenceError/notRegularFile(path:kind:)``).
    package static func stateFileNotRead(_ error: PersistenceError) -> StartupProblem {
        StartupProblem(
            ScanProblem(
                path: error.path, reason: error.description + "; persisted registrations were not restored",
                kind: error.problemKind),
            settledWhenGoneOrRegular: error.path)
    }

    /// Whether the problem still stands (its file, if any, is still there).
    var isCurrent: Bool {
        guard let settledWhenGone else { return true }
        guard let status = try? Syscall.status(ofPath: settledWhenGone, followLinks: false) else { return false }
        return !settledWhenRegular || status.kind != .regular
    }
}
