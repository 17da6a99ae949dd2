import FontRegSystem

/// The allowed roots a registered path was confined to, opened once per scan, and the only ways
/// the scanner reaches a confined path: beneath one of their descriptors.
///
/// A registered path is opened from the descriptor of the allowed root that contains it, with no
/// symbolic link followed on the way (``FileDescriptor/openBeneath(_:as:)``): a registered
/// directory or file replaced by a link after `Register` checked it is reported, not followed.
/// A link found inside a registered directory is followed only to a place inside an allowed
/// root, and only by the kernel (`RESOLVE_BENEATH` from that root's descriptor), never by
/// resolving a path in user space and opening it afterwards.
final class ScanConfinement {
    /// How many links in a row are followed before giving up (a loop or a chain).
    static let linkLimit = 8

    /// The allowed roots, symbolic links resolved, as `Register` checked paths against them.
    let roots: [String]
    private var descriptors: [String: FileDescriptor] = [:]

    /// Creates the confinement for these resolved roots; nothing is opened until needed.
    init(roots: [String]) {
        self.roots = roots.map(Self.normalized)
    }

    /// The allowed root `path` lies in (lexically), if any.
    func root(containing path: String) -> String? {
        roots.filter { Self.isInside(path, root: $0) }.max { $0.count < $1.count }
    }

    /// Opens a registered path beneath the allowed root that contains it, following no link.
    ///
    /// - Throws: ``SystemError`` (`ELOOP` when a component is a link; `EXDEV` outside every root).
    func open(registered path: String) throws(SystemError) -> LocatedEntry {
        let path = Self.normalized(path)
        guard let root = root(containing: path) else {
            throw SystemError("openat", subject: path, errno: .improperLink)
        }
        let rootDescriptor = try descriptor(of: root)
        let relative = Self.relative(path, to: root)
        guard let slash = relative.lastIndex(of: "/") else {
            if relative.isEmpty {
                return .directory(try rootDescriptor.openBeneath("", as: .directory), realPath: path)
            }
            return try locate(name: relative, in: rootDescriptor, realDirectory: root)
        }
        let parent = try rootDescriptor.openBeneath(String(relative[..<slash]), as: .directory)
        let parentPath = root + "/" + relative[..<slash]
        return try locate(
            name: String(relative[relative.index(after: slash)...]), in: parent, realDirectory: parentPath)
    }

    /// Follows the symbolic link `name` of `directory` to what it names inside an allowed root.
    ///
    /// - Parameter realDirectory: the directory's path with links resolved, for relative links.
    /// - Returns: what the link leads to, or `nil` when it leads outside every allowed root,
    ///   to nothing, through too many links, or through a link the kernel refuses. The caller
    ///   says only that the link was not followed: never where it leads or whether that exists.
    func follow(link name: String, in directory: FileDescriptor, realDirectory: String) -> LocatedEntry? {
        var directory = directory, realDirectory = realDirectory, name = name
        for _ in 0..<Self.linkLimit {
            guard let text = try? directory.linkText(name), !text.isEmpty else { return nil }
            let target = Self.normalized(text.hasPrefix("/") ? text : realDirectory + "/" + text)
            guard let root = root(containing: target), let rootDescriptor = try? descriptor(of: root) else {
                return nil
            }
            let relative = Self.relative(target, to: root)
            let slash = relative.lastIndex(of: "/")
            let parentRelative = slash.map { String(relative[..<$0]) } ?? ""
            let last = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
            if last.isEmpty {
                guard let again = try? rootDescriptor.openBeneath("", as: .directory) else { return nil }
                return .directory(again, realPath: root)
            }
            // Links between the root and the parent are followed by the kernel, beneath the root only.
            guard let parent = try? rootDescriptor.openFollowingLinksBeneath(parentRelative, as: .directory),
                let status = try? parent.statusOfEntry(last)
            else { return nil }
            let parentPath = parentRelative.isEmpty ? root : root + "/" + parentRelative
            guard status.kind == .symbolicLink else {
                return try? locate(name: last, in: parent, realDirectory: parentPath, status: status)
            }
            (directory, realDirectory, name) = (parent, parentPath, last)
        }
        return nil
    }

    /// An entry of an open directory: opened when it is a directory, else left for the scanner to open.
    private func locate(name: String, in parent: FileDescriptor, realDirectory: String, status known: FileStatus? = nil)
        throws(SystemError) -> LocatedEntry
    {
        let status: FileStatus
        if let known { status = known } else { status = try parent.statusOfEntry(name) }
        if status.kind == .directory {
            return .directory(try parent.openEntry(name, as: .directory), realPath: realDirectory + "/" + name)
        }
        return .entry(parent: parent, name: name, status: status)
    }

    /// The descriptor of an allowed root, opened on first use (the roots are the operator's configuration).
    private func descriptor(of root: String) throws(SystemError) -> FileDescriptor {
        if let open = descriptors[root] { return open }
        let opened = try FileDescriptor.open(root, as: .directory, followLinks: false)
        descriptors[root] = opened
        return opened
    }

    /// `path` without its `root` prefix and leading slash (empty for the root itself).
    static func relative(_ path: String, to root: String) -> String {
        if root == "/" { return String(path.dropFirst()) }
        return String(path.dropFirst(root.count).drop { $0 == "/" })
    }

    /// Whether `path` is `root` or inside it, component-wise (`/a/bc` is not inside `/a/b`).
    static func isInside(_ path: String, root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// An absolute path with `.`, `..` and repeated slashes removed lexically (no link is resolved).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
