internal import CShim
import Glibc

/// Opens a file on behalf of a peer only if the peer could have opened it themselves (`OpenFace`, issues 15 and 24).
///
/// When the daemon runs as root, the kernel decides (``openAsPeer(_:uid:gid:groups:)``): the
/// file is opened in a thread of its own that has taken the peer's uid, gid and supplementary
/// groups as its file-system credentials, so mode bits, ACLs and every directory on the path
/// count exactly as they would for the peer. Otherwise the path is walked from `/` one component at a time, each opened beneath the previous
/// directory's descriptor with no symbolic link followed (`openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS`), and at each step the descriptor's own `fstat` is checked against the
/// peer's uid and gid: search (`x`) on every directory, read (`r`) on the file, by the owner,
/// group or other bits as the kernel would choose them. Nothing is resolved twice, so a link or
/// directory swapped in meanwhile is refused rather than followed. Root may open anything, as
/// it could. Supplementary groups and ACLs are not consulted: a file readable only through them
/// is refused (never the other way round).
package enum PeerFileAccess {
    /// Why a peer may not have a file.
    package enum Refusal: Error, Sendable, Equatable {
        /// A directory on the way denies the peer search, or the file denies it reading.
        case permissionDenied(path: String)
        /// A component is a symbolic link (or became one): not followed.
        case symbolicLink(path: String)
        /// Not a regular file.
        case notARegularFile(path: String)
        /// The walk failed: the component is gone or cannot be opened.
        case system(SystemError)
    }

    /// Opens the absolute `path` read-only for a peer, the kernel deciding with the peer's
    /// credentials: uid, gid and supplementary groups as the thread's file-system identity, no
    /// symbolic link followed in any component (`openat2` with `RESOLVE_NO_SYMLINKS`), the open
    /// never blocking (`O_NONBLOCK`: a FIFO cannot stall the caller).
    ///
    /// When this process cannot take other credentials (it is not root), the mode-bit walk of
    /// ``open(_:uid:gid:)`` decides instead, which never grants more than the kernel would.
    ///
    /// - Returns: the open file and its `fstat`.
    /// - Throws: ``Refusal``: ``Refusal/permissionDenied(path:)`` for every denial, whatever
    ///   denied it (it names the path asked for, never the directory that refused).
    package static func openAsPeer(_ path: String, uid: UInt32, gid: UInt32, groups: [UInt32]) throws(Refusal)
        -> (FileDescriptor, FileStatus)
    {
        guard geteuid() == 0 else { return try open(path, uid: uid, gid: gid) }
        guard path.hasPrefix("/") else { throw .system(SystemError("openat2", subject: path, errno: EINVAL)) }
        var error: Int32 = 0
        let fd = groups.withUnsafeBufferPointer { list in
            cshim_open_as(path, uid, gid, list.baseAddress, Int32(list.count), 0, &error)
        }
        guard fd >= 0 else {
            switch error {
            case EACCES, EPERM: throw .permissionDenied(path: path)
            case ELOOP, EXDEV: throw .symbolicLink(path: path)
            default: throw .system(SystemError("openat2", subject: path, errno: error))
            }
        }
        let file = FileDescriptor(owning: fd)
        let status: FileStatus
        do throws(SystemError) {
            status = try file.status()
        } catch {
            throw .system(error)
        }
        guard status.kind == .regular else { throw .notARegularFile(path: path) }
        return (file, status)
    }

    /// Whether a peer could open `path` for reading itself, links followed as its own `open`
    /// would follow them, the kernel deciding with its credentials (root only; see
    /// ``openAsPeer(_:uid:gid:groups:)``).
    ///
    /// The answer is what the peer could have learnt itself: `EACCES` for a target behind a
    /// directory it cannot search, whether or not the target exists; `ENOENT` only where it may
    /// look. Nothing runs as root on the path before this says yes.
    ///
    /// - Returns: `nil` when it could, else the errno its own open would have met (`nil` when this
    ///   process is not root and cannot ask: it can reveal no more than it may read itself).
    package static func peerCanRead(_ path: String, uid: UInt32, gid: UInt32, groups: [UInt32]) -> Errno? {
        guard geteuid() == 0 else { return nil }
        var error: Int32 = 0
        let fd = groups.withUnsafeBufferPointer { list in
            cshim_open_as(path, uid, gid, list.baseAddress, Int32(list.count), 1, &error)
        }
        if fd >= 0 { Syscall.close(fd) }
        return fd >= 0 ? nil : Errno(rawValue: error)
    }

    /// What the kernel let one identity do with one path (``checkMany(_:uid:gid:groups:checkEven:)``).
    package struct Check: Sendable, Equatable {
        /// `nil` when the identity could open the path for reading, else the errno its open met.
        package var error: Errno?
        /// Whether the file and every directory of its real path grant everyone as much as their
        /// owner and group, with no access ACL (only asked for with `checkEven`).
        package var even: Bool
        /// The opened file's device and inode (zero when it could not be opened).
        package var device: UInt64
        package var inode: UInt64
    }

    /// Asks the kernel, in one thread that takes `uid`, `gid` and `groups` as its file-system
    /// credentials once, whether that identity could open each of `paths` for reading, links
    /// followed as its own `open` would follow them (every directory it passes counted); each
    /// file opened is closed again at once (issue 24: who may see a face).
    ///
    /// - Parameter checkEven: also report ``Check/even`` for each file opened.
    /// - Returns: one check per path, in order; `nil` when this process is not root and cannot ask.
    package static func checkMany(_ paths: [String], uid: UInt32, gid: UInt32, groups: [UInt32], checkEven: Bool)
        -> [Check]?
    {
        guard geteuid() == 0 else { return nil }
        guard !paths.isEmpty else { return [] }
        var results = [cshim_file_check](repeating: cshim_file_check(), count: paths.count)
        var error: Int32 = 0
        var strings = paths.map { strdup($0) }
        defer { for string in strings { free(string) } }
        let status = strings.withUnsafeMutableBufferPointer { pointers in
            pointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { list in
                groups.withUnsafeBufferPointer { groupList in
                    results.withUnsafeMutableBufferPointer { out in
                        cshim_check_many_as(
                            list.baseAddress, Int32(paths.count), uid, gid, groupList.baseAddress,
                            Int32(groupList.count), checkEven ? 1 : 0, out.baseAddress, &error)
                    }
                }
            }
        }
        guard status == 0 else {
            return paths.map { _ in Check(error: Errno(rawValue: error), even: false, device: 0, inode: 0) }
        }
        return results.map { result in
            Check(
                error: result.error == 0 ? nil : Errno(rawValue: result.error), even: result.even != 0,
                device: UInt64(result.device), inode: UInt64(result.inode))
        }
    }

    /// Opens the absolute `path` read-only for a peer with `uid` and `gid`, by mode bits.
    ///
    /// - Returns: the open file (`O_RDONLY | O_CLOEXEC | O_NOCTTY`) and its `fstat`.
    /// - Throws: ``Refusal`` naming the component that refused.
    package static func open(_ path: String, uid: UInt32, gid: UInt32) throws(Refusal) -> (FileDescriptor, FileStatus) {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard path.hasPrefix("/"), !components.isEmpty, !components.contains(".."), !components.contains(".") else {
            throw .system(SystemError("openat2", subject: path, errno: EINVAL))
        }
        var current: FileDescriptor
        do {
            current = try FileDescriptor.open("/", as: .directory)
        } catch {
            throw .system(error)
        }
        var walked = ""
        for (position, component) in components.enumerated() {
            let status: FileStatus
            do {
                status = try current.status()
            } catch {
                throw .system(error)
            }
            guard permits(status, uid: uid, gid: gid, bit: 0o1) else {
                throw .permissionDenied(path: walked.isEmpty ? "/" : walked)
            }
            walked += "/" + component
            let last = position == components.count - 1
            do {
                current = try current.openBeneath(component, as: last ? .file : .directory)
            } catch {
                // A link met with O_DIRECTORY | O_NOFOLLOW is ENOTDIR, not ELOOP: ask the entry itself.
                let isLink = (try? current.statusOfEntry(component))?.kind == .symbolicLink
                if error.errno == .tooManySymbolicLinkLevels || isLink { throw .symbolicLink(path: walked) }
                if error.errno == .notDirectory { throw .notARegularFile(path: walked) }
                throw .system(error)
            }
        }
        let status: FileStatus
        do {
            status = try current.status()
        } catch {
            throw .system(error)
        }
        guard status.kind == .regular else { throw .notARegularFile(path: path) }
        guard permits(status, uid: uid, gid: gid, bit: 0o4) else { throw .permissionDenied(path: path) }
        return (current, status)
    }

    /// Whether the mode bits the kernel would pick for this peer (owner, else group, else other) include `bit`.
    package static func permits(_ status: FileStatus, uid: UInt32, gid: UInt32, bit: UInt32) -> Bool {
        if uid == 0 { return true }  // root reads and searches anything (CAP_DAC_READ_SEARCH)
        if status.owner == uid { return status.permissions & (bit << 6) != 0 }
        if status.group == gid { return status.permissions & (bit << 3) != 0 }
        return status.permissions & bit != 0
    }
}
