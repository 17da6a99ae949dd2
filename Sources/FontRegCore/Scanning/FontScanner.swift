import FontRegJSON
import FontRegSystem
import Foundation

/// Walks font directories and files safely and reads every face through FreeType.
///
/// Only regular files are ever opened: FIFOs, sockets and device files are reported and
/// skipped without being opened, directory loops are detected by device and inode, and a
/// file is read through one descriptor whose type is checked after opening (so a file
/// swapped for a FIFO between the check and the open is still refused). Files whose size,
/// modification time and inode are unchanged since the last scan are not read again.
/// Not thread-safe: one scanner per thread.
final class FontScanner {
    /// File name endings read when walking a directory; files named explicitly are always tried.
    static let fontExtensions: Set<String> = [
        "ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa", "t1", "cff", "pcf", "bdf", "dfont",
    ]

    private let reader = FontFileReader(library: FreeTypeLibrary())
    /// Faces of files already read, by path, with the stat data that proves them unchanged.
    private(set) var cache: [String: ScannedFile] = [:]
    /// Whether the last scan read a file afresh or dropped one, so the cache file is out of date.
    private(set) var cacheChanged = false
    /// Files the current scan read afresh (not from the cache) and found faces in.
    private var filesRead = 0
    /// Where the cache is kept between runs (see ``FaceCache``); `nil` keeps it in memory only.
    let cacheFile: String?

    /// Creates a scanner; with a cache file, files unchanged since the last run are not read again.
    init(cacheFile: String? = nil) {
        self.cacheFile = cacheFile
        if let cacheFile { cache = FaceCache.load(path: cacheFile) }
    }

    /// Writes the cache file, if there is one and the last scan changed it.
    func saveCache() {
        if let cacheFile, cacheChanged { FaceCache.save(cache, path: cacheFile) }
    }

    /// Scans the given roots (directories recursively, and single files).
    ///
    /// - Returns: every readable file with its faces (each file once, even when reached by
    ///   two roots or links), and a problem for each path that could not be used.
    /// - Parameter confinement: for some roots, the directories (symlinks resolved) that links
    ///   found under them may lead into; a link leading elsewhere is reported and not followed.
    func scan(roots: [String], confinement: [String: [String]] = [:]) -> ScanResult {
        var result = ScanResult()
        var seenFiles: Set<FileIdentity> = []
        var fresh: [String: ScannedFile] = [:]
        fresh.reserveCapacity(cache.count)
        filesRead = 0
        for root in roots {
            var visitedDirectories: [FileIdentity: String] = [:]
            walk(path: root, explicit: true, confine: confinement[root], visited: &visitedDirectories) { path, info in
                let outcome = self.scanFile(path: path, info: info)
                switch outcome {
                case .file(let file):
                    fresh[path] = file
                    if seenFiles.insert(file.identity).inserted { result.files.append(file) }
                case .problem(let problem):
                    result.problems.append(problem)
                }
            } problem: {
                result.problems.append($0)
            }
        }
        // Every file found in the cache is keyed by its path there: with nothing read afresh and as
        // many files as before, the cache holds exactly these files (no second lookup per path).
        cacheChanged = filesRead > 0 || fresh.count != cache.count
        cache = fresh
        return result
    }

    private enum FileOutcome {
        case file(ScannedFile)
        case problem(ScanProblem)
    }

    /// Calls `visit` for each candidate font file under `path`, with its `stat`.
    ///
    /// - Parameter known: the `stat` of `path` when the caller just took it (a directory
    ///   listing stats every entry); each file is then stat'ed once per scan, not three times.
    private func walk(
        path: String, explicit: Bool, known: stat? = nil, confine: [String]? = nil,
        visited: inout [FileIdentity: String],
        visit: (String, stat) -> Void, problem: (ScanProblem) -> Void
    ) {
        var info = known ?? stat()
        guard known != nil || stat(path, &info) == 0 else {
            let code = errno
            var linkInfo = stat()
            let dangling = lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK
            if explicit || code != ENOENT || dangling {
                problem(
                    ScanProblem(
                        path: path,
                        reason: dangling && code == ENOENT
                            ? "a symbolic link to nothing (dangling link)" : Self.describe(errno: code)))
            }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            let identity = FileIdentity(info)
            if let first = visited[identity] {
                problem(ScanProblem(path: path, reason: "directory loop: this is \(first) again; not followed"))
                return
            }
            visited[identity] = path
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            } catch {
                problem(
                    ScanProblem(
                        path: path,
                        reason: access(path, R_OK | X_OK) != 0
                            ? "permission denied: cannot list this directory"
                            : "cannot list this directory: \(error.localizedDescription)"))
                return
            }
            for name in entries where !name.hasPrefix(".") {
                let child = path.hasSuffix("/") ? path + name : path + "/" + name
                var childInfo = stat()
                if let confine, lstat(child, &childInfo) == 0, (childInfo.st_mode & S_IFMT) == S_IFLNK,
                    let target = Self.realPath(child), !confine.contains(where: { Self.isInside(target, root: $0) })
                {
                    problem(
                        ScanProblem(
                            path: child,
                            reason: "a symbolic link leading outside the allowed roots (to \(target)); not followed"))
                    continue
                }
                let statted = stat(child, &childInfo) == 0
                let isDirectory = statted && (childInfo.st_mode & S_IFMT) == S_IFDIR
                if isDirectory || Self.hasFontExtension(name) {
                    walk(
                        path: child, explicit: false, known: statted ? childInfo : nil, confine: confine,
                        visited: &visited, visit: visit, problem: problem)
                } else if lstat(child, &childInfo) == 0 && (childInfo.st_mode & S_IFMT) == S_IFLNK
                    && stat(child, &childInfo) != 0
                {
                    continue  // a dangling link with no font name: not ours to report
                }
            }
        default:
            visit(path, info)
        }
    }

    /// The path with every symbolic link resolved, or `nil` when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `root` or inside it (both already resolved).
    static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// Whether a file name ends in one of ``fontExtensions``, ignoring case.
    ///
    /// The extension is what follows the last dot, as `NSString.pathExtension` has it, but
    /// found without bridging: this runs for every entry of every scanned directory.
    static func hasFontExtension(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return false }
        let suffix = utf8[utf8.index(after: dot)...]
        guard suffix.count <= 5, !suffix.contains(where: { $0 >= 0x80 }) else { return false }
        return fontExtensions.contains(
            String(decoding: suffix.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self))
    }

    /// Checks and reads one file; never opens anything but a regular file.
    ///
    /// - Parameter info: the file's `stat`, just taken by the walk. Nothing is trusted from it
    ///   but the cache check: a file that is read is checked again on its open descriptor.
    private func scanFile(path: String, info: stat) -> FileOutcome {
        if let reason = Self.notRegularReason(mode: info.st_mode) {
            return .problem(ScanProblem(path: path, reason: reason))
        }
        if info.st_size == 0 { return .problem(ScanProblem(path: path, reason: "empty file (0 bytes): not a font")) }
        let identity = FileIdentity(info)
        if let cached = cache[path], cached.identity == identity, cached.size == Int64(info.st_size),
            cached.modified == info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        {
            return .file(cached)
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .problem(ScanProblem(path: path, reason: Self.describe(errno: errno))) }
        defer { close(fd) }
        var opened = stat()
        guard fstat(fd, &opened) == 0 else {
            return .problem(ScanProblem(path: path, reason: Self.describe(errno: errno)))
        }
        if let reason = Self.notRegularReason(mode: opened.st_mode) {
            return .problem(ScanProblem(path: path, reason: reason + " (it changed after it was checked)"))
        }
        guard opened.st_size > 0 else {
            return .problem(ScanProblem(path: path, reason: "empty file (0 bytes): not a font"))
        }
        let bytes: FontBytes
        do {
            bytes = try FontBytes(descriptor: fd, count: Int(opened.st_size))
        } catch {
            return .problem(ScanProblem(path: path, reason: error.description))
        }
        if let reason = bytes.notAFontReason {
            return .problem(ScanProblem(path: path, reason: reason))
        }
        do {
            let faces = try reader.readFaces(path: path, bytes: bytes)
            guard !faces.isEmpty else { return .problem(ScanProblem(path: path, reason: "no faces in this file")) }
            filesRead += 1  // only files that enter the cache: an unreadable one must not rewrite it at every scan
            return .file(
                ScannedFile(
                    path: path, identity: FileIdentity(opened), size: Int64(opened.st_size),
                    modified: opened.st_mtim.tv_sec * 1_000_000_000 + opened.st_mtim.tv_nsec, faces: faces))
        } catch {
            return .problem(ScanProblem(path: path, reason: error.description))
        }
    }

    /// Why a file of this mode is refused, or `nil` for a regular file.
    static func notRegularReason(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO (named pipe), not a font file; never opened"
        case S_IFCHR, S_IFBLK: "a device file, not a font file; never opened"
        case S_IFSOCK: "a socket, not a font file; never opened"
        case S_IFDIR: "a directory where a font file was expected"
        default: "not a regular file; never opened"
        }
    }

    /// A person's words for an errno from stat or open.
    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES, EPERM: "permission denied: the scanning user cannot read it"
        case ELOOP: "too many levels of symbolic links (a link loop)"
        case ENOTDIR: "a path component is not a directory"
        default: String(cString: strerror(code))
        }
    }
}

/// The outcome of a scan: readable files with their faces, and the problems met.
struct ScanResult {
    var files: [ScannedFile] = []
    var problems: [ScanProblem] = []
}

/// A font file that was read, with the stat data that tells whether it changed since.
struct ScannedFile: Sendable {
    let path: String
    let identity: FileIdentity
    let size: Int64
    let modified: Int
    let faces: [FaceRecord]
}

/// A file's identity on disk: the same file reached by two paths has one identity.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
