import FontRegSystem
import Foundation

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
        let resolved: String
        do {
            resolved = try Syscall.resolvedPath(path)
        } catch {
            if error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory { throw .notFound(path) }
            throw .inaccessible(path: path, error)
        }
        guard resolvedRoots.contains(where: { AllowedRoots.isInside(resolved, root: $0) }) else {
            throw .outsideAllowedRoots(path: path, resolved: resolved)
        }
        let status: FileStatus
        do {
            status = try Syscall.status(ofPath: resolved, followLinks: true)
        } catch {
            throw .inaccessible(path: path, error)
        }
        switch status.kind {
        case .regular, .directory: return resolved
        case .fifo: throw .notRegularFileOrDirectory(path: path, kind: "FIFO")
        case .characterDevice: throw .notRegularFileOrDirectory(path: path, kind: "character device")
        case .blockDevice: throw .notRegularFileOrDirectory(path: path, kind: "block device")
        case .socket: throw .notRegularFileOrDirectory(path: path, kind: "socket")
        case .symbolicLink, .other: throw .notRegularFileOrDirectory(path: path, kind: "special file")
        }
    }

    /// The first symbolic link under `directory` (walked without following links) whose target
    /// lies outside every allowed root, so that registering the directory cannot reach beyond them.
    ///
    /// - Returns: the link and what it resolves to, or `nil` when every link stays inside.
    func firstEscapingLink(under directory: String, limit: Int = 200_000) -> (link: String, target: String)? {
        let roots = resolvedRoots
        var pending = [directory]
        var examined = 0
        while let current = pending.popLast(), examined < limit {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names {
                examined += 1
                let path = current + "/" + name
                guard let status = try? Syscall.status(ofPath: path, followLinks: false) else { continue }
                switch status.kind {
                case .directory:
                    pending.append(path)
                case .symbolicLink:
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

    /// `roots` keyed for ``enclosing(_:in:)``: each without a trailing slash (`/` stays `/`).
    static func lookup<Value>(_ roots: [(String, Value)]) -> [String: Value] {
        var keyed: [String: Value] = [:]
        for (root, value) in roots {
            // `utf8.count`, not `count`: counting characters walked each 1,000-byte root (issue 24).
            let key = root.utf8.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
            if keyed[key] == nil { keyed[key] = value }
        }
        return keyed
    }

    /// The value of the nearest root `path` is inside (as ``isInside(_:root:)`` says), found by
    /// looking up `path` and each of its ancestors in `roots` (keyed by ``lookup(_:)``): as many
    /// lookups as `path` has components, however many roots there are (issue 24: asking each of
    /// 4,000 users' roots for each of 4,000 paths kept `GetStatus` from answering for minutes).
    static func enclosing<Value>(_ path: String, in roots: [String: Value]) -> Value? {
        guard !roots.isEmpty else { return nil }
        if let exact = roots[path] { return exact }
        var end = path.utf8.endIndex
        while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
            let parent = slash == path.utf8.startIndex ? "/" : String(path[..<slash])
            if let found = roots[parent] { return found }
            end = slash
        }
        return nil
    }

    /// Whether `path` or one of its ancestors is a root in `roots` (keyed by ``lookup(_:)``)
    /// whose value passes `test`: as ``enclosing(_:in:)`` asked of the roots that pass only.
    static func anyEnclosing<Value>(_ path: String, in roots: [String: Value], where test: (Value) -> Bool) -> Bool {
        guard !roots.isEmpty else { return false }
        if let exact = roots[path], test(exact) { return true }
        var end = path.utf8.endIndex
        while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
            let parent = slash == path.utf8.startIndex ? "/" : String(path[..<slash])
            if let found = roots[parent], test(found) { return true }
            end = slash
        }
        return false
    }

    /// `realpath(3)` through ``Syscall/resolvedPath(_:)``: the absolute path with every symlink,
    /// `.` and `..` resolved; `nil` when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        try? Syscall.resolvedPath(path)
    }
}
