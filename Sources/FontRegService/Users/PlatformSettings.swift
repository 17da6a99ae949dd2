import FontRegCore
import FontRegSystem

/// The configuration of per-user fonts and the Bold Text default (issue 15), reloaded on SIGHUP.
package struct PlatformSettings: Sendable, Hashable {
    /// Whether users other than administrators may register fonts in their own roots.
    package var userFonts = true
    /// The roots inside which a user may register fonts they own; `~` is the user's home from
    /// the user database (as fontconfig's `~/.fonts`), other entries are absolute directories.
    package var userFontRoots = ["~/.local/share/fonts", "~/.fonts"]
    /// Whether a user's fonts are visible to every user's queries, not only to their owner's.
    package var shareUserFonts = false
    /// The Bold Text setting of users who have not chosen one.
    package var boldText = false
    /// The Bold Text policy of queries that do not name one (`nil`: the family rule's).
    package var boldPolicy: BoldTextPolicy?
    /// The most entries of persisted state one user who is not an administrator may hold
    /// (`max-persisted-per-user`, issue 24): persistent registrations, disabled entries and a Bold
    /// Text setting. Administrators have no such limit.
    package var maximumPersistedEntriesPerUser = 256
    /// The most bytes those entries may take in their file of `platform.d` (`max-persisted-bytes-per-user`):
    /// the state file start-up reads is 16 MiB at most, so one user must not fill it.
    package var maximumPersistedBytesPerUser = 256 << 10

    package init() {}

    /// The roots inside which `uid` may register fonts, or `nil` when user fonts are off or the
    /// user has no home in the user database and no absolute root is configured.
    ///
    /// - Parameter uid: the peer's uid.
    package func roots(for uid: UInt32) -> AllowedRoots? {
        guard userFonts else { return nil }
        let home = UserDatabase.home(of: uid)
        let roots: [String] = userFontRoots.compactMap { root in
            if root == "~" { return home }
            if root.hasPrefix("~/") { return home.map { $0 + root.dropFirst() } }
            return root.hasPrefix("/") ? root : nil
        }
        return roots.isEmpty ? nil : AllowedRoots(roots)
    }
}
