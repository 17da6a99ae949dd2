import Glibc

/// Reads the user database (`/etc/passwd`, or NSS): where a user's home is.
///
/// The daemon runs as root, so `$HOME` says nothing about the user it serves; the home is read
/// from the user database, as fontconfig's `~` is for the user it runs as.
package enum UserDatabase {
    /// The home directory of `uid`, or `nil` when the user database has no entry for it or
    /// names no absolute home.
    ///
    /// The corresponding call is `getpwuid_r`.
    /// - Parameter uid: the user.
    /// - Returns: the home directory, as the user database spells it.
    package static func home(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 4096
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            // pw_dir points into the buffer: it is read before the buffer goes.
            let (status, home) = buffer.withUnsafeMutableBufferPointer { bytes -> (Int32, String?) in
                let status = getpwuid_r(uid_t(uid), &entry, bytes.baseAddress!, bytes.count, &result)
                guard status == 0, result != nil, let directory = entry.pw_dir else { return (status, nil) }
                return (status, String(cString: directory))
            }
            if status == ERANGE {
                size *= 4
                continue
            }
            guard let home else { return nil }
            return home.hasPrefix("/") && home != "/" ? home : nil
        }
        return nil
    }
}
