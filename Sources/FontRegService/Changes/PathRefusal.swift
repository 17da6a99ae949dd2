import FontRegSystem

/// Why a path given to `Register` is refused without being opened.
package enum PathRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is not absolute.
    case notAbsolute(String)
    /// The path has a `..` component.
    case parentReference(String)
    /// The path has a NUL byte or is empty.
    case malformed(String)
    /// Nothing exists at the path.
    case notFound(String)
    /// After resolving symlinks, the path lies outside every allowed root.
    case outsideAllowedRoots(path: String, resolved: String)
    /// A symbolic link inside the directory leads outside every allowed root.
    case escapingLink(path: String, link: String, target: String)
    /// The path is a FIFO, device, socket or other non-regular file.
    case notRegularFileOrDirectory(path: String, kind: String)
    /// The path cannot be examined.
    case inaccessible(path: String, SystemError)

    /// The path as the caller gave it.
    package var path: String {
        switch self {
        case .notAbsolute(let path), .parentReference(let path), .malformed(let path), .notFound(let path),
            .outsideAllowedRoots(let path, _), .notRegularFileOrDirectory(let path, _), .inaccessible(let path, _),
            .escapingLink(let path, _, _):
            return path
        }
    }

    package var description: String {
        switch self {
        case .notAbsolute(let path): return "\(path) is not an absolute path; give the full path"
        case .parentReference(let path): return "\(path) contains '..'; give the path without parent references"
        case .malformed(let path): return "'\(path)' is empty or contains a NUL byte"
        case .notFound(let path): return "\(path) does not exist"
        // Neither says where a link leads: the caller may not be allowed to see it.
        case .outsideAllowedRoots(let path, _):
            return
                "\(path) leads outside the allowed roots; copy the font into one of them or add an allow-root to the config"
        case .escapingLink(let path, let link, _):
            return
                "\(path) contains \(link), a symbolic link leading outside the allowed roots; remove the link or copy what it points to into the directory"
        case .notRegularFileOrDirectory(let path, let kind):
            return "\(path) is a \(kind), not a font file or directory"
        case .inaccessible(let path, let error): return "cannot examine \(path): \(error)"
        }
    }
}
