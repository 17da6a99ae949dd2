import FontRegSystem

/// A listening Unix stream socket: bound by the daemon itself, or inherited from systemd.
package struct ListeningSocket: Sendable {
    /// The listening descriptor (non-blocking).
    package let fd: Int32
    /// The socket's path, when known.
    package let path: String?
    /// Whether the daemon created the path and removes it on exit (not for activated sockets).
    let ownsPath: Bool

    /// Binds a new socket at `path` with permissions `mode`.
    ///
    /// A socket file left by a crashed run (nobody accepts on it) is replaced; a live one
    /// is not stolen, and a path that is not a socket is never removed. The socket is
    /// created with `umask 0177` and then given `mode`, so it is never more open than asked.
    /// - Throws: ``ListenerError``.
    package static func bind(path: String, mode: UInt32 = 0o666, backlog: Int32 = 128) throws(ListenerError)
        -> ListeningSocket
    {
        do {
            try createParentDirectory(of: path)
            try removeStaleSocket(at: path)
            let fd = try UnixSocket.stream(nonBlocking: true)
            let oldMask = Syscall.setFileCreationMask(0o177)
            defer { Syscall.setFileCreationMask(oldMask) }
            do {
                try UnixSocket.bind(fd, to: path)
            } catch {
                Syscall.close(fd)
                if error.errno == .addressInUse { throw ListenerError.socketInUse(path: path) }
                throw ListenerError.system(error)
            }
            do {
                try Syscall.setPermissions(ofPath: path, to: mode)
                try UnixSocket.listen(fd, backlog: backlog, path: path)
            } catch {
                Syscall.close(fd)
                try? Syscall.removeName(path)
                throw ListenerError.system(error)
            }
            return ListeningSocket(fd: fd, path: path, ownsPath: true)
        } catch let error as ListenerError {
            throw error
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    private static func createParentDirectory(of path: String) throws(SystemError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        try Syscall.makeDirectories(String(path[..<slash]))
    }

    private static func removeStaleSocket(at path: String) throws {
        guard let status = try? Syscall.status(ofPath: path, followLinks: false) else { return }
        guard status.kind == .socket else { throw ListenerError.notASocket(path: path) }
        let probe = try UnixSocket.stream(nonBlocking: false)
        defer { Syscall.close(probe) }
        let code: Errno
        do {
            try UnixSocket.connect(probe, to: path)
            throw ListenerError.socketInUse(path: path)
        } catch let error as SystemError {
            code = error.errno
        }
        guard code == .connectionRefused || code == .noSuchFileOrDirectory else {
            throw ListenerError.system(SystemError("connect (probing for a live daemon)", subject: path, errno: code))
        }
        do {
            try Syscall.removeName(path)
        } catch {
            throw ListenerError.system(SystemError("unlink stale socket", subject: path, errno: error.errno))
        }
    }

    /// The sockets systemd passed by socket activation (`LISTEN_FDS`, ``ServiceManager``), those
    /// named `varlink` first.
    ///
    /// - Returns: an empty array when the daemon was not socket-activated.
    /// - Throws: ``ListenerError/unusableActivatedSocket(fd:)`` for a descriptor that is not a listening stream socket.
    package static func activated() throws(ListenerError) -> [ListeningSocket] {
        var sockets: [(name: String, socket: ListeningSocket)] = []
        for (fd, name) in ServiceManager.takePassedDescriptors() {
            guard (try? ServiceManager.isListeningUnixStreamSocket(fd)) == true else {
                throw .unusableActivatedSocket(fd: fd)
            }
            do {
                try Syscall.makeNonBlocking(fd)
            } catch {
                throw .system(error)
            }
            sockets.append((name, ListeningSocket(fd: fd, path: nil, ownsPath: false)))
        }
        return sockets.sorted { ($0.name == "varlink" ? 0 : 1) < ($1.name == "varlink" ? 0 : 1) }.map(\.socket)
    }

    /// Closes the socket and removes its path if the daemon created it.
    package func close() {
        Syscall.close(fd)
        if ownsPath, let path { try? Syscall.removeName(path) }
    }
}
