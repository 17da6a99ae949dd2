internal import CShim

/// The kernel's file-system sandbox for unprivileged processes (Landlock, Linux 5.13+): a
/// process restricts itself, for good, to the file hierarchies it names, whatever its uid.
///
/// The workers use it on top of their seccomp filter (``WorkerSandbox``): seccomp says which
/// calls a worker may make, Landlock which files those calls may reach. What a ruleset can
/// enforce grows with the kernel's Landlock ABI; ``restrict(reading:writing:)`` handles every
/// right the running ABI knows and reports the rest (``Confinement``).
package enum Landlock {
    /// File-system access rights (`LANDLOCK_ACCESS_FS_*`).
    package struct Access: OptionSet, Sendable, Hashable {
        package let rawValue: UInt64
        package init(rawValue: UInt64) { self.rawValue = rawValue }

        package static let execute = Access(rawValue: 1 << 0)
        package static let writeFile = Access(rawValue: 1 << 1)
        package static let readFile = Access(rawValue: 1 << 2)
        package static let readDirectory = Access(rawValue: 1 << 3)
        package static let removeDirectory = Access(rawValue: 1 << 4)
        package static let removeFile = Access(rawValue: 1 << 5)
        package static let makeCharacterDevice = Access(rawValue: 1 << 6)
        package static let makeDirectory = Access(rawValue: 1 << 7)
        package static let makeRegular = Access(rawValue: 1 << 8)
        package static let makeSocket = Access(rawValue: 1 << 9)
        package static let makeFIFO = Access(rawValue: 1 << 10)
        package static let makeBlockDevice = Access(rawValue: 1 << 11)
        package static let makeSymbolicLink = Access(rawValue: 1 << 12)
        /// Linking or renaming a file into another directory (ABI 2).
        package static let refer = Access(rawValue: 1 << 13)
        /// Truncating a file (ABI 3).
        package static let truncate = Access(rawValue: 1 << 14)
        /// `ioctl` on a device file (ABI 5).
        package static let ioctlDevice = Access(rawValue: 1 << 15)

        /// Reading files and listing directories.
        package static let read: Access = [.readFile, .readDirectory]
        /// Everything a directory's owner does with ordinary files and directories in it, execution aside.
        package static let readWrite: Access = [
            .readFile, .readDirectory, .writeFile, .removeFile, .removeDirectory, .makeRegular, .makeDirectory,
            .refer, .truncate,
        ]
        /// The rights that apply to a file itself (a rule on a file may grant only these).
        static let fileRights: Access = [.execute, .writeFile, .readFile, .truncate, .ioctlDevice]

        /// Every right the kernel's Landlock ABI `abi` handles.
        package static func handled(abi: Int) -> Access {
            var rights = Access(rawValue: (1 << 13) - 1)
            if abi >= 2 { rights.insert(.refer) }
            if abi >= 3 { rights.insert(.truncate) }
            if abi >= 5 { rights.insert(.ioctlDevice) }
            return abi >= 1 ? rights : []
        }
    }

    /// The Landlock ABI the running kernel offers, 0 when it has none (built without it, or not
    /// enabled at boot: `lsm=` lacks `landlock`).
    package static var abi: Int {
        let version = cshim_landlock_abi()
        return version > 0 ? Int(version) : 0
    }

    /// What a restriction achieved: the kernel's ABI and what that ABI leaves unenforced.
    package struct Confinement: Sendable, Equatable, CustomStringConvertible {
        /// The kernel's Landlock ABI (0: none, nothing restricted).
        package var abi: Int
        /// What the ABI cannot refuse, in words (empty when the confinement is complete).
        package var gaps: [String]

        /// Whether everything asked for is enforced.
        package var isComplete: Bool { abi > 0 && gaps.isEmpty }

        /// What the running kernel leaves out, computed from its ABI alone.
        package init(abi: Int) {
            self.abi = abi
            var gaps: [String] = []
            if abi == 0 {
                gaps.append("the kernel has no Landlock: files are limited only by the worker's user")
            } else {
                if abi < 3 { gaps.append("truncating a readable file (Landlock ABI 3)") }
                if abi < 4 { gaps.append("TCP binds and connects (Landlock ABI 4; seccomp refuses sockets)") }
                if abi < 5 { gaps.append("ioctl on devices (Landlock ABI 5)") }
                if abi < 6 {
                    gaps.append(
                        "abstract Unix sockets and signals out of the sandbox (Landlock ABI 6; seccomp refuses both)")
                }
            }
            self.gaps = gaps
        }

        package var description: String {
            if abi == 0 { return "no Landlock (\(gaps.joined(separator: "; ")))" }
            if gaps.isEmpty { return "Landlock ABI \(abi), complete" }
            return "Landlock ABI \(abi), partial: not refused: \(gaps.joined(separator: "; "))"
        }
    }

    /// Restricts this process (and what it starts) to reading beneath `reading` and reading and
    /// writing beneath `writing`; every other path is refused (`EACCES`), whatever the uid. With no
    /// paths at all, no file can be opened by path. Paths that do not open are left out (nothing
    /// beneath them is allowed). TCP and, from ABI 6, abstract Unix sockets and signals to processes
    /// outside the sandbox are refused too.
    ///
    /// Needs `PR_SET_NO_NEW_PRIVS` (or `CAP_SYS_ADMIN`) first; cannot be undone or widened.
    /// - Returns: what the kernel enforces; ABI 0 (nothing restricted) when it has no Landlock.
    /// - Throws: ``SystemError`` when the kernel has Landlock and a step fails.
    @discardableResult
    package static func restrict(reading: [String], writing: [String]) throws(SystemError) -> Confinement {
        let abi = Self.abi
        let confinement = Confinement(abi: abi)
        guard abi > 0 else { return confinement }
        let handled = Access.handled(abi: abi)
        let net: UInt64 = abi >= 4 ? 0b11 : 0
        let scoped: UInt64 = abi >= 6 ? 0b11 : 0
        let ruleset = FileDescriptor(
            owning: try Syscall.run("landlock_create_ruleset") {
                cshim_landlock_create_ruleset(handled.rawValue, net, scoped)
            })
        func allow(_ path: String, _ access: Access) throws(SystemError) {
            let opened = cshim_open_path(path)
            guard opened >= 0 else { return }
            let parent = FileDescriptor(owning: opened)
            var rights = access.intersection(handled)
            if let status = try? parent.status(), status.kind != FileStatus.Kind.directory {
                rights.formIntersection(Access.fileRights)
            }
            try Syscall.run("landlock_add_rule", subject: path) {
                cshim_landlock_allow_beneath(ruleset.rawValue, parent.rawValue, rights.rawValue)
            }
        }
        for path in reading { try allow(path, .read) }
        for path in writing { try allow(path, .readWrite) }
        try Syscall.run("landlock_restrict_self") { cshim_landlock_restrict_self(ruleset.rawValue) }
        return confinement
    }
}
