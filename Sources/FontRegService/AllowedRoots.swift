import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Foundation
import Glibc
import Varlink

/// The directories inside which `Register` accepts paths, checked after resolving symlinks.
///
/// A path is refused, without ever being opened, when it is relative, has a `..`
/// component, resolves (through symlinks) to a place outside every root, or is not a
/// regular file or directory (a FIFO or device would block or misbehave when read).
/// Only `realpath` (`lstat`/`readlink`) and `stat` look at it.
package struct AllowedRoots: Sendable, Hashable {
    /// The roots as configured.
    package let roots: [String]

    package init(_ roots: [String]) {
        self.roots = roots
    }

    /// The roots that exist, with their symlinks resolved.
    package var resolvedRoots: [String] {
        roots.compactMap { AllowedRoots.realPath($0) }
    }

    /// Checks `path` and returns it with symlinks resolved.
    ///
    /// - Throws: ``PathRefusal`` saying why the path is refused.
    package func validate(_ path: String) throws(PathRefusal) -> String {
        guard !path.isEmpty, !path.utf8.contains(0) else { throw .malformed(path) }
        guard path.hasPrefix("/") else { throw .notAbsolute(path) }
        guard !path.split(separator: "/").contains("..") else { throw .parentReference(path) }
        guard let resolved = AllowedRoots.realPath(path) else {
            if errno == ENOENT || errno == ENOTDIR { throw .notFound(path) }
            throw .inaccessible(path: path, SystemError("realpath", subject: path, errno: errno))
        }
        guard resolvedRoots.contains(where: { AllowedRoots.isInside(resolved, root: $0) }) else {
            throw .outsideAllowedRoots(path: path, resolved: resolved)
        }
        var info = stat()
        guard stat(resolved, &info) == 0 else {
            throw .inaccessible(path: path, SystemError("stat", subject: resolved, errno: errno))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return resolved
        case S_IFIFO: throw .notRegularFileOrDirectory(path: path, kind: "FIFO")
        case S_IFCHR: throw .notRegularFileOrDirectory(path: path, kind: "character device")
        case S_IFBLK: throw .notRegularFileOrDirectory(path: path, kind: "block device")
        case S_IFSOCK: throw .notRegularFileOrDirectory(path: path, kind: "socket")
        default: throw .notRegularFileOrDirectory(path: path, kind: "special file")
        }
    }

    /// The first symbolic link under `directory` (walked without following links) whose target
    /// lies outside every allowed root, so that registering the directory cannot reach beyond them.
    ///
    /// - Returns: the link and what it resolves to, or `nil` when every link stays inside.
    package func firstEscapingLink(under directory: String, limit: Int = 200_000) -> (link: String, target: String)? {
        let roots = resolvedRoots
        var pending = [directory]
        var examined = 0
        while let current = pending.popLast(), examined < limit {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names {
                examined += 1
                let path = current + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append(path)
                case S_IFLNK:
                    // A dangling link reaches nothing; the scanner reports it.
                    guard let target = AllowedRoots.realPath(path) else { continue }
                    if !roots.contains(where: { AllowedRoots.isInside(target, root: $0) }) { return (path, target) }
                default:
                    continue
                }
            }
        }
        return nil
    }

    /// Whether `path` is `root` or lies below it (component-wise: `/a/bc` is not inside `/a/b`).
    static func isInside(_ path: String, root: String) -> Bool {
        if root == "/" { return true }
        return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `realpath(3)`: the absolute path with every symlink, `.` and `..` resolved; `nil` with errno set on failure.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
