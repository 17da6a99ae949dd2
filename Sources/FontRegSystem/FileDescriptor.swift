internal import CShim
import Glibc
import Synchronization

/// An open file or directory, closed when released; every path it opens is resolved relative to it.
///
/// The confinement of the daemon rests on this type: a directory is opened once, and what lies
/// inside it is opened from its descriptor (`openat`, `openat2`), examined on the descriptor that
/// will be read (`fstat`, `fstatat`) and listed from it (`fdopendir`), so no path is resolved twice
/// and a symbolic link swapped in between a check and a use is never followed.
package final class FileDescriptor: Sendable {
    /// What is being opened, which sets the `open` flags.
    package enum Kind: Sendable {
        /// A directory: `O_RDONLY | O_DIRECTORY`.
        case directory
        /// A file to read: `O_RDONLY | O_NONBLOCK | O_NOCTTY` (a FIFO opened by mistake never blocks).
        case file

        var flags: Int32 {
            switch self {
            case .directory: O_RDONLY | O_DIRECTORY | O_CLOEXEC
            case .file: O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
            }
        }
    }

    /// The descriptor.
    package let rawValue: Int32

    /// Takes ownership of an open descriptor.
    package init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit { Syscall.close(rawValue) }

    /// Opens an absolute path the operator configured (an allowed root, a configured font directory).
    ///
    /// - Parameter followLinks: whether a symbolic link as the last component is followed.
    /// - Throws: ``SystemError`` from `open`.
    package static func open(_ path: String, as kind: Kind, followLinks: Bool = true) throws(SystemError)
        -> FileDescriptor
    {
        let flags = kind.flags | (followLinks ? 0 : O_NOFOLLOW)
        return FileDescriptor(owning: try Syscall.run("open", subject: path) { Glibc.open(path, flags) })
    }

    /// Reads the whole file from its current offset.
    ///
    /// - Parameters:
    ///   - limit: the most bytes accepted; a longer file is refused with `EFBIG` rather than
    ///     read into memory.
    ///   - expectedSize: the size the caller found (its `fstat`), if any: such a file is read
    ///     in one call into room made once, not 16 KiB at a time into a growing array.
    /// - Throws: ``SystemError`` from `read`, or `EFBIG` past `limit`.
    package func readAll(limit: Int, expectedSize: Int = 0) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        let expected = min(max(expectedSize, 0), limit)
        bytes.reserveCapacity(expected)
        // One more byte than expected, so that the end shows in the same call.
        var chunk = [UInt8](repeating: 0, count: max(16384, expected + 1))
        while let count = try Syscall.read(rawValue, into: &chunk), count > 0 {
            bytes += chunk[0..<count]
            if bytes.count > limit { throw SystemError("read", errno: EFBIG) }
        }
        return bytes
    }

    /// Opens `relative` strictly beneath this directory, following no symbolic link on the way.
    ///
    /// With `openat2(2)` (Linux 5.6+) the kernel does it in one call, with `RESOLVE_BENEATH`,
    /// `RESOLVE_NO_SYMLINKS` and `RESOLVE_NO_MAGICLINKS`; on older kernels each component is
    /// opened from the previous one with `O_NOFOLLOW` (and `O_DIRECTORY` on the way), which
    /// refuses the same things. A symbolic link anywhere fails with `ELOOP`, `..` with `EXDEV`.
    /// - Throws: ``SystemError`` naming the path.
    package func openBeneath(_ relative: String, as kind: Kind) throws(SystemError) -> FileDescriptor {
        try openBeneath(relative, as: kind, followingLinksBeneath: false)
    }

    /// Opens `relative` beneath this directory, letting the kernel follow symbolic links only
    /// while they stay beneath it (`RESOLVE_BENEATH` without `RESOLVE_NO_SYMLINKS`).
    ///
    /// Without `openat2` no link is followed at all (`ELOOP`): the safe answer.
    /// - Throws: ``SystemError`` naming the path; `EXDEV` for a path or link leading out.
    package func openFollowingLinksBeneath(_ relative: String, as kind: Kind) throws(SystemError) -> FileDescriptor {
        try openBeneath(relative, as: kind, followingLinksBeneath: true)
    }

    private func openBeneath(_ relative: String, as kind: Kind, followingLinksBeneath: Bool) throws(SystemError)
        -> FileDescriptor
    {
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if components.contains("..") { throw SystemError("openat", subject: relative, errno: EXDEV) }
        if components.isEmpty { return try reopen(as: kind) }
        if Self.hasOpenat2 {
            var resolve = cshim_RESOLVE_BENEATH | cshim_RESOLVE_NO_MAGICLINKS
            if !followingLinksBeneath { resolve |= cshim_RESOLVE_NO_SYMLINKS }
            let flags = kind.flags | (followingLinksBeneath ? 0 : O_NOFOLLOW)
            // Leading and repeated slashes dropped: an absolute path is never "beneath".
            let fd = cshim_openat2(rawValue, components.joined(separator: "/"), flags, resolve)
            if fd >= 0 { return FileDescriptor(owning: fd) }
            let code = Glibc.errno
            if code == EINTR || code == EAGAIN {
                // EAGAIN: a rename elsewhere raced the lookup; the step-by-step walk below is as safe.
            } else if code == ENOSYS || code == EPERM && !followingLinksBeneath {
                Self.openat2Available.store(false, ordering: .relaxed)
            } else {
                throw SystemError("openat2", subject: relative, errno: code)
            }
        }
        var current = self
        for (position, component) in components.enumerated() {
            let last = position == components.count - 1
            let flags = (last ? kind.flags : Kind.directory.flags) | O_NOFOLLOW
            let name = String(component)
            let parent = current
            let fd = try Syscall.run("openat", subject: relative) { openat(parent.rawValue, name, flags) }
            current = FileDescriptor(owning: fd)
        }
        return current
    }

    /// A second descriptor for the same directory or file, opened through `.` of this one.
    private func reopen(as kind: Kind) throws(SystemError) -> FileDescriptor {
        let flags = kind.flags
        return FileDescriptor(owning: try Syscall.run("openat", subject: ".") { openat(rawValue, ".", flags) })
    }

    /// Opens one entry of this directory; a symbolic link is never followed (`O_NOFOLLOW`, `ELOOP`).
    ///
    /// - Throws: ``SystemError`` naming the entry.
    package func openEntry(_ name: String, as kind: Kind) throws(SystemError) -> FileDescriptor {
        let flags = kind.flags | O_NOFOLLOW
        return FileDescriptor(owning: try Syscall.run("openat", subject: name) { openat(rawValue, name, flags) })
    }

    /// Opens one entry of this directory, following a symbolic link wherever it leads.
    ///
    /// Only for trees the operator configured, never for what a user registered.
    /// - Throws: ``SystemError`` naming the entry.
    package func openEntryFollowingLinks(_ name: String, as kind: Kind) throws(SystemError) -> FileDescriptor {
        let flags = kind.flags
        return FileDescriptor(owning: try Syscall.run("openat", subject: name) { openat(rawValue, name, flags) })
    }

    /// Gives the entry `name` of this directory the new name `newName` without ever replacing an
    /// existing entry: `newName` is created exclusively (`linkat`, which fails with `EEXIST`), then
    /// `name` is removed (`unlinkat`). A symbolic link is moved as the link, never followed.
    ///
    /// - Throws: ``SystemError`` naming the entry; `EEXIST` when `newName` exists (nothing changed).
    package func moveEntryWithoutReplacing(_ name: String, to newName: String) throws(SystemError) {
        try Syscall.run("linkat", subject: newName) { linkat(rawValue, name, rawValue, newName, 0) }
        do {
            try Syscall.run("unlinkat", subject: name) { unlinkat(rawValue, name, 0) }
        } catch {
            _ = unlinkat(rawValue, newName, 0)
            throw error
        }
    }

    /// Removes the entry `name` of this directory (`unlinkat`; a symbolic link itself, never its target).
    ///
    /// - Throws: ``SystemError`` naming the entry.
    package func removeEntry(_ name: String) throws(SystemError) {
        try Syscall.run("unlinkat", subject: name) { unlinkat(rawValue, name, 0) }
    }

    /// Creates the symbolic link `name` in this directory, holding `target` (`symlinkat`).
    ///
    /// - Throws: ``SystemError`` naming the entry; `EEXIST` when `name` exists (nothing changed).
    package func makeSymbolicLink(_ name: String, to target: String) throws(SystemError) {
        try Syscall.run("symlinkat", subject: name) { symlinkat(target, rawValue, name) }
    }

    /// Gives this file or directory to `owner` and `group` (`fchown`; only root may give it away).
    ///
    /// - Throws: ``SystemError`` from `fchown`.
    package func setOwner(_ owner: UInt32, group: UInt32) throws(SystemError) {
        try Syscall.run("fchown") { fchown(rawValue, owner, group) }
    }

    /// Sets this file's or directory's permissions to exactly `mode`, whatever the umask (`fchmod`).
    ///
    /// - Throws: ``SystemError`` from `fchmod`.
    package func setPermissions(_ mode: UInt32) throws(SystemError) {
        try Syscall.run("fchmod") { fchmod(rawValue, mode_t(mode)) }
    }

    /// Flushes this file or directory to disk (`fsync`).
    ///
    /// - Throws: ``SystemError`` from `fsync`.
    package func synchronize() throws(SystemError) {
        try Syscall.run("fsync") { fsync(rawValue) }
    }

    /// `fstat` of this descriptor: what will actually be read.
    ///
    /// - Throws: ``SystemError`` from `fstat` (never expected on an open descriptor).
    package func status() throws(SystemError) -> FileStatus {
        var info = stat()
        try Syscall.run("fstat") { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// `fstatat` of an entry of this directory, never following a symbolic link (`AT_SYMLINK_NOFOLLOW`).
    ///
    /// - Throws: ``SystemError`` naming the entry.
    package func statusOfEntry(_ name: String) throws(SystemError) -> FileStatus {
        var info = stat()
        try Syscall.run("fstatat", subject: name) { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
        return FileStatus(info)
    }

    /// `fstatat` of an entry of this directory, following a symbolic link (operator trees only).
    ///
    /// - Throws: ``SystemError`` naming the entry.
    package func statusOfEntryFollowingLinks(_ name: String) throws(SystemError) -> FileStatus {
        var info = stat()
        try Syscall.run("fstatat", subject: name) { fstatat(rawValue, name, &info, 0) }
        return FileStatus(info)
    }

    /// The text of a symbolic link inside this directory (`readlinkat`), never resolved here.
    ///
    /// - Throws: ``SystemError`` naming the entry.
    package func linkText(_ name: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try Syscall.run("readlinkat", subject: name) {
            buffer.withUnsafeMutableBufferPointer { readlinkat(rawValue, name, $0.baseAddress!, Int(PATH_MAX)) }
        }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `fstatat` of an entry named by a C string (``forEachEntryName(_:)``), following a symbolic
    /// link or not; the error names no entry, so that a check of many entries builds no string.
    ///
    /// - Returns: the status, or the error with its errno.
    package func statusOfEntry(cName name: UnsafePointer<CChar>, followLinks: Bool) -> Result<FileStatus, SystemError> {
        var info = stat()
        do {
            try Syscall.run("fstatat") { fstatat(rawValue, name, &info, followLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        } catch {
            return .failure(error)
        }
        return .success(FileStatus(info))
    }

    /// A descriptor of its own for the directory this one is open on (`openat` of `.`), for a
    /// second thread's `fstatat`s: each thread then bumps the count of its own open file, rather
    /// than both the count of one shared between two cores.
    ///
    /// - Throws: ``SystemError`` from `openat`.
    package func reopenedDirectory() throws(SystemError) -> FileDescriptor {
        FileDescriptor(owning: try Syscall.run("openat", subject: ".") { openat(rawValue, ".", Kind.directory.flags) })
    }

    /// Calls `body` with the name of every entry of this directory but `.` and `..`, in the order
    /// the file system lists them, as a NUL-terminated C string valid only during the call: a
    /// listing that keeps no names. Listed from a duplicate of this descriptor.
    ///
    /// The corresponding calls are `fdopendir`, `readdir` and `closedir`.
    /// - Throws: ``SystemError`` from `openat` or `fdopendir`.
    package func forEachEntryName(_ body: (UnsafePointer<CChar>) -> Void) throws(SystemError) {
        let own = try Syscall.run("openat", subject: ".") { openat(rawValue, ".", Kind.directory.flags) }
        guard let directory = fdopendir(own) else {
            let code = Glibc.errno
            Syscall.close(own)
            throw SystemError("fdopendir", errno: code)
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let name = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                // "." and "..".
                if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return }
                body(name)
            }
        }
    }

    /// The names in this directory, without `.` and `..`, sorted; listed from a duplicate of this descriptor.
    ///
    /// The corresponding calls are `fdopendir`, `readdir` and `closedir`.
    /// - Throws: ``SystemError`` from `openat` or `fdopendir`.
    package func entryNames() throws(SystemError) -> [String] {
        // fdopendir takes the descriptor over, and closedir closes it: give it one of its own,
        // positioned at the start (a duplicate would share this one's offset).
        let own = try Syscall.run("openat", subject: ".") { openat(rawValue, ".", Kind.directory.flags) }
        guard let directory = fdopendir(own) else {
            let code = Glibc.errno
            Syscall.close(own)
            throw SystemError("fdopendir", errno: code)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Maps the first `count` bytes of this file read-only (see ``MappedFile``).
    ///
    /// - Throws: ``SystemError`` from `mmap`.
    package func map(count: Int) throws(SystemError) -> MappedFile {
        try MappedFile(descriptor: rawValue, count: count)
    }

    /// Whether `openat2` may be tried: not disabled by `FONTREG_NO_OPENAT2=1` (to test the
    /// step-by-step walk) and not found missing by an earlier call.
    package static var hasOpenat2: Bool { openat2Available.load(ordering: .relaxed) }

    private static let openat2Available = Atomic<Bool>(getenv("FONTREG_NO_OPENAT2").map { String(cString: $0) } != "1")
}
