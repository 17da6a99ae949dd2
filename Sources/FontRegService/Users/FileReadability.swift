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
    /// A later classification asks again only about files that are new, or whose file or a
    /// directory above it changed (``FileFingerprint``).
    var known: [String: Known] = [:]
    /// The directories above the files of ``known``, as they were when those answers were found.
    var directories: [String: FileFingerprint] = [:]
    /// When set, ``known`` and ``directories`` are this kept classification's, not decoded yet:
    /// a warm start reused every answer it holds (``reusingWhole(_:kept:)``), and the next
    /// classification, after a change, decodes them.
    var kept: PersistedReadability?
    /// The restricted files of that generation, sorted.
    var restricted: [String] = []
    /// The restricted files of the generation before, for faces a change removed.
    var previous: [String] = []
    /// By caller and candidate list: the positions in ``restricted`` the caller may not read.
    var hiddenByCaller: [CallerKey: [Int]] = [:]

    /// One file's classification.
    struct Known: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var isPublic: Bool
        /// The file as it was before it was asked about, or `nil` when the answer is never
        /// reused (a link on its path, or the file replaced while it was asked about).
        var fingerprint: FileFingerprint?
    }

    /// What ``classify(_:files:reusing:)`` found.
    struct Classification {
        /// The restricted files, sorted.
        var restricted: [String]
        /// What is now known of every file.
        var known: [String: Known]
        /// The directories above them, as they were before any file was asked about.
        var directories: [String: FileFingerprint]
        /// How many files were asked about (the others' answers were reused).
        var asked: Int
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
    /// An earlier answer is reused only while the file and every directory above it show the
    /// ``FileFingerprint`` they had before it was found (so a `chmod`, `chown` or `setfacl` of
    /// any of them, a file replaced or a mount over a directory is asked about again), and the
    /// registry's recorded identity of the file is the one answered for. A file with a link on
    /// its path is asked about every time (the directories its lookup passes are not all above it).
    /// The fingerprints are taken before the kernel is asked: a change after them shows next time.
    ///
    /// - Parameters:
    ///   - files: the identity the scan recorded for a path (a file whose identity is unknown
    ///     or different is restricted).
    ///   - reusing: earlier answers and the directories they were found under (those of the
    ///     last classification, or of ``PersistedReadability`` at a start).
    /// - Returns: the restricted files, sorted, and what is now known of every file.
    static func classify(
        _ index: FontIndex, files: (String) -> IndexedFile?,
        reusing: (known: [String: Known], directories: [String: FileFingerprint])
    ) -> Classification {
        // Each file once, in the faces' order (the faces of a family, and so of a directory, come
        // together); sorting every path was a fifth of a 10k warm start's classification.
        let faceFiles = index.faceFiles
        var known: [String: Known] = [:]
        known.reserveCapacity(faceFiles.count)
        var restricted: [String] = []
        var directories: [String: FileFingerprint] = [:]
        // By parent directory: whether every directory above it is a plain directory, and unchanged.
        var parents: [String: (plain: Bool, unchanged: Bool)] = [:]
        var last: (path: String, parentLength: Int, above: (plain: Bool, unchanged: Bool))?
        var ask: [(path: String, print: FileFingerprint?)] = []
        for path in faceFiles where known[path] == nil {
            // The files of one directory mostly come together, and then cost one look-up.
            var bytes = path
            let parentLength = bytes.withUTF8 { $0.lastIndex(of: UInt8(ascii: "/")) ?? 0 }
            let above: (plain: Bool, unchanged: Bool)
            if let last, last.parentLength == parentLength, Self.samePrefix(last.path, path, parentLength) {
                above = last.above
            } else {
                let parent = String(decoding: path.utf8.prefix(parentLength), as: UTF8.self)
                if let found = parents[parent] {
                    above = found
                } else {
                    above = Self.directories(above: path, into: &directories, earlier: reusing.directories)
                    parents[parent] = above
                }
            }
            last = (path, parentLength, above)
            let print = above.plain ? FileFingerprint.file(path) : nil
            if above.unchanged, let print, let earlier = reusing.known[path], earlier.fingerprint == print,
                let indexed = files(path), earlier.device == indexed.device, earlier.inode == indexed.inode
            {
                known[path] = earlier
                if !earlier.isPublic { restricted.append(path) }
            } else {
                // Restricted until the kernel answers (this also marks the path as seen).
                known[path] = Known(device: 0, inode: 0, isPublic: false, fingerprint: nil)
                ask.append((path, print))
            }
        }
        guard !ask.isEmpty else {
            return Classification(restricted: restricted.sorted(), known: known, directories: directories, asked: 0)
        }
        guard
            let checks = PeerFileAccess.checkMany(
                ask.map(\.path), uid: stranger, gid: stranger, groups: [], checkEven: true)
        else { return Classification(restricted: [], known: [:], directories: [:], asked: 0) }
        for ((path, print), check) in zip(ask, checks) {
            let indexed = files(path)
            let same = indexed?.device == check.device && indexed?.inode == check.inode
            let answered = print.flatMap { $0.device == check.device && $0.inode == check.inode ? $0 : nil }
            let isPublic = check.error == nil && check.even && same
            known[path] = Known(device: check.device, inode: check.inode, isPublic: isPublic, fingerprint: answered)
            if !isPublic { restricted.append(path) }
        }
        return Classification(
            restricted: restricted.sorted(), known: known, directories: directories, asked: ask.count)
    }

    /// Whether `a` and `b` begin with the same `count` bytes (both are at least that long).
    private static func samePrefix(_ a: String, _ b: String, _ count: Int) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count >= count, y.count >= count else { return false }
                var i = count - 1
                while i >= 0 {  // from the end: paths of one tree differ late
                    if x[i] != y[i] { return false }
                    i -= 1
                }
                return true
            }
        }
    }

    /// Fingerprints the directories above `path` not yet in `directories`.
    ///
    /// - Returns: whether each is a plain directory (no link, `.` or `..` on the way), and
    ///   whether each shows the fingerprint `earlier` recorded.
    static func directories(
        above path: String, into directories: inout [String: FileFingerprint], earlier: [String: FileFingerprint]
    ) -> (plain: Bool, unchanged: Bool) {
        guard let above = FileFingerprint.directories(above: path) else { return (false, false) }
        var unchanged = true
        for directory in above {
            let print: FileFingerprint
            if let found = directories[directory] {
                print = found
            } else {
                guard let found = FileFingerprint.directory(directory) else { return (false, false) }
                directories[directory] = found
                print = found
            }
            if earlier[directory] != print { unchanged = false }
        }
        return (true, unchanged)
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
