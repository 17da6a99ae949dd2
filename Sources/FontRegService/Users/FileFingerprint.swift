import FontRegSystem

/// What a file or a directory of its path was when a readability answer was found: its
/// identity and what decides who may open or search it (issue 29 item 3).
///
/// - A file's ``stamp`` is its status change time (`st_ctime`), which the kernel moves at every
///   `chmod`, `chown`, ACL or other extended attribute change and write, and no user can set back.
/// - A directory's is a hash of its permission bits, owner, group and access ACL: what its
///   search permission depends on. Not its `st_ctime`, which moves at every entry made or removed
///   in it (`/tmp` and a home directory change all the time); which entry the path takes next is
///   checked by the next component's own identity instead.
///
/// A mount over a directory changes the device and inode `lstat` reports. So while a file and
/// every directory above it show the fingerprints they had before a stranger's open of it was
/// tried, that open would be answered the same.
struct FileFingerprint: Sendable, Hashable {
    /// The device it lives on.
    var device: UInt64
    /// Its inode on that device.
    var inode: UInt64
    /// A file's `st_ctime` in nanoseconds since the epoch; a directory's hash of its mode,
    /// owner, group and access ACL.
    var stamp: Int

    /// The fingerprint of the file `path` itself (`lstat`: a link is not followed).
    ///
    /// - Returns: `nil` when it cannot be examined or is not a regular file (a link, for one).
    static func file(_ path: String) -> FileFingerprint? {
        guard let status = try? Syscall.status(ofPath: path, followLinks: false), status.kind == .regular else {
            return nil
        }
        return FileFingerprint(device: status.device, inode: status.inode, stamp: status.changedNanoseconds)
    }

    /// The fingerprint of the directory `path` itself (`lstat` and its access ACL).
    ///
    /// - Returns: `nil` when it cannot be examined or is not a directory (a link, for one).
    static func directory(_ path: String) -> FileFingerprint? {
        let status: FileStatus, acl: [UInt8]?
        do {
            status = try Syscall.status(ofPath: path, followLinks: false)
            acl = try Syscall.accessACL(ofPath: path)
        } catch {
            return nil
        }
        guard status.kind == .directory else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ (value >> UInt64(shift) & 0xFF)) &* 0x0000_0100_0000_01b3
            }
        }
        mix(UInt64(status.permissions))
        mix(UInt64(status.owner))
        mix(UInt64(status.group))
        mix(acl.map { UInt64($0.count) } ?? UInt64.max)
        for byte in acl ?? [] { mix(UInt64(byte)) }
        return FileFingerprint(device: status.device, inode: status.inode, stamp: Int(bitPattern: UInt(hash)))
    }

    /// The directories above an absolute path, nearest first, ending with `/`; `nil` for a path
    /// the kernel would not look up component by component as written (relative, with `.`, `..`
    /// or an empty component), whose answer is then never reused.
    static func directories(above path: String) -> [String]? {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count > 1, bytes.last != UInt8(ascii: "/") else { return nil }
        var parents: [String] = []
        var start = 1
        for end in 1...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
            let component = bytes[start..<end]
            if component.isEmpty || component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
                return nil
            }
            if end < bytes.count { parents.append(String(decoding: bytes[0..<end], as: UTF8.self)) }
            start = end + 1
        }
        return parents.reversed() + ["/"]
    }
}
