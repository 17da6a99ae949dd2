import FontRegCore
import FontRegSystem
import Varlink

/// Which indexed files not every user may read, and which of those each caller may (issue 24,
/// item 7: a link in a shared folder to a font in a root-only directory showed its faces to all).
///
/// A file is *public* when the kernel lets a stranger (a uid and gid no user has, no groups)
/// open it the way the daemon reached it (links followed, every directory counted) and the very
/// file indexed opens, and no component of its real path treats its owner or group more narrowly
/// than everyone else or carries an access ACL (so that what the stranger may, every user may).
/// Every other file is *restricted*: its faces are shown to a caller only after the kernel opened
/// it as that caller (uid, gid, supplementary groups; ``PeerFileAccess/checkMany(_:uid:gid:groups:checkEven:)``)
/// and found the indexed file. Root sees every file. Nothing here re-implements a permission
/// check: the mode and ACL test only sends more files to the per-caller kernel check.
struct FileReadability {
    /// The registry generation ``restricted`` was found for (-1: never).
    var generation = -1
    /// Counts the classifications, so that a view's key never means two hidden sets.
    var version = 0
    /// Whether the next classification must ask about every file again (a `Rescan` was asked for).
    var stale = false
    /// What the last classification learnt of each file: its identity, and whether it is public.
    /// A later generation asks again only about files that are new or changed.
    var known: [String: Known] = [:]
    /// The restricted files of that generation, sorted.
    var restricted: [String] = []
    /// The restricted files of the generation before, for faces a change removed.
    var previous: [String] = []
    /// By caller and candidate list: the positions in ``restricted`` the caller may not read.
    var hiddenByCaller: [CallerKey: [Int]] = [:]

    /// One file's classification.
    struct Known {
        var device: UInt64
        var inode: UInt64
        var isPublic: Bool
    }

    /// What a per-caller answer depends on: the credentials the kernel decides with, and which
    /// restricted files were asked about (those the caller's private owners leave visible).
    struct CallerKey: Hashable {
        var uid: UInt32
        var gid: UInt32
        var groups: [UInt32]
        var owners: String
    }

    /// The most per-caller answers kept; past it they are dropped and asked again.
    static let maximumCallers = 4096

    /// The identity of ``restricted``'s test: a uid and gid no account has.
    static let stranger: UInt32 = 0xFFFF_FFFE

    /// The restricted files of `index`: those a stranger may not open as the indexed file, or
    /// not evenly. Empty when this process cannot take other credentials (not root).
    ///
    /// - Parameters:
    ///   - files: the identity the scan recorded for a path (a file whose identity is unknown
    ///     or different is restricted).
    ///   - reusing: earlier answers, taken for files whose recorded identity is unchanged.
    /// - Returns: the restricted files, sorted, and what is now known of every file.
    static func classify(_ index: FontIndex, files: (String) -> IndexedFile?, reusing: [String: Known]) -> (
        restricted: [String], known: [String: Known]
    ) {
        let paths = Set(index.faceFiles).sorted()
        var known: [String: Known] = [:]
        known.reserveCapacity(paths.count)
        var ask: [String] = []
        for path in paths {
            if let indexed = files(path), let earlier = reusing[path], earlier.device == indexed.device,
                earlier.inode == indexed.inode
            {
                known[path] = earlier
            } else {
                ask.append(path)
            }
        }
        guard let checks = PeerFileAccess.checkMany(ask, uid: stranger, gid: stranger, groups: [], checkEven: true)
        else { return ([], [:]) }
        for (path, check) in zip(ask, checks) {
            let indexed = files(path)
            let same = indexed?.device == check.device && indexed?.inode == check.inode
            known[path] = Known(
                device: check.device, inode: check.inode, isPublic: check.error == nil && check.even && same)
        }
        return (paths.filter { known[$0]?.isPublic != true }, known)
    }

    /// The positions among `candidates` (positions in `restricted`) the caller may not read.
    static func hidden(
        _ candidates: [Int], of restricted: [String], files: (String) -> IndexedFile?, peer: PeerCredentials
    ) -> [Int] {
        let paths = candidates.map { restricted[$0] }
        guard
            let checks = PeerFileAccess.checkMany(
                paths, uid: peer.uid, gid: peer.gid, groups: peer.groups, checkEven: false)
        else { return [] }
        var hidden: [Int] = []
        for (position, (path, check)) in zip(candidates, zip(paths, checks)) {
            let indexed = files(path)
            if check.error != nil || indexed?.device != check.device || indexed?.inode != check.inode {
                hidden.append(position)
            }
        }
        return hidden
    }

    /// A short, exact spelling of a sorted set of positions for a view's key: runs as `a-b`.
    static func spelling(_ positions: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < positions.count {
            var end = index
            while end + 1 < positions.count && positions[end + 1] == positions[end] + 1 { end += 1 }
            parts.append(end == index ? "\(positions[index])" : "\(positions[index])-\(positions[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }
}
