import FontRegSystem

/// Why the daemon could not get a socket to listen on.
package enum ListenerError: Error, Sendable, CustomStringConvertible {
    /// Another process is accepting connections on the path.
    case socketInUse(path: String)
    /// Something other than a socket is at the path; it is left alone.
    case notASocket(path: String)
    /// systemd passed descriptors that are not listening Unix stream sockets.
    case unusableActivatedSocket(fd: Int32)
    /// A system call failed.
    case system(SystemError)

    package var description: String {
        switch self {
        case .socketInUse(let path):
            return
                "another process is listening on \(path); stop it first (systemctl stop fontregd) or choose another --socket"
        case .notASocket(let path):
            return "\(path) exists and is not a socket; remove it by hand or choose another --socket"
        case .unusableActivatedSocket(let fd):
            return
                "descriptor \(fd) passed by systemd is not a listening Unix stream socket; check ListenStream= in fontregd.socket"
        case .system(let error):
            return
                "cannot listen: \(error); choose a --socket in a directory the daemon may write, or start it through fontregd.socket"
        }
    }
}
