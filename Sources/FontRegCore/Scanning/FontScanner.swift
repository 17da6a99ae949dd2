import FontRegSystem

/// Walks font directories and files through directory descriptors and reads every face through FreeType.
///
/// Nothing is looked up by path twice: a root is opened once, every entry is examined with
/// `fstatat` on its directory's descriptor, opened from that descriptor and checked again on
/// the descriptor that is then mapped and read (``FileDescriptor``, ``MappedFile``). Only
/// regular files are ever opened: FIFOs, sockets and device files are reported and skipped,
/// directory loops are detected by device and inode, and a file larger than
/// ``maximumFileSize`` is reported without being read. Roots given a confinement (what the
/// daemon's `Register` added) are opened beneath their allowed root with no link followed, and
/// links inside them lead only into the allowed roots (``ScanConfinement``). Files whose size,
/// modification time and inode are unchanged since the last scan are not read again.
/// Not thread-safe: one scanner per thread.
final class FontScanner {
    /// File name endings read when walking a directory; files named explicitly are always tried.
    static let fontExtensions = Set(FontExtension.all)

    /// The default bound on a font file's size: 64 MiB, four times the largest real fonts
    /// (CJK collections, colour emoji) shipped by Debian and Google Fonts.
    static let defaultMaximumFileSize: Int64 = 64 << 20

    /// The problem reported for a symbolic link the scanner does not follow; deliberately the same
    /// whether the link leads outside the allowed roots, into a directory the caller cannot see or
    /// to nothing at all, so that it reveals neither where it leads nor whether that exists.
    static let linkNotFollowed =
        "a symbolic link not followed: it leads outside the allowed roots, or to nothing that can be read"

    private let reader = FontFileReader(library: FreeTypeLibrary())
    /// Faces of files already read, by path, with the stat data that proves them unchanged.
    private(set) var cache: [String: ScannedFile] = [:]
    /// Whether the last scan read a file afresh or dropped one, so the cache file is out of date.
    private(set) var cacheChanged = false
    /// The roots whose files the last scan read afresh, found more or fewer of, or dropped (an
    /// unregistered root's): what the files of the index changed by. After a first scan (or a
    /// seed) that changed anything, every root.
    private(set) var changedRoots: Set<String> = []
    /// The roots the last scan walked, in order (the others reused their last scan).
    private(set) var walkedRoots: [String] = []
    /// Each registered root's last scan, by root: what a scan that does not walk a root again uses.
    private var rootScans: [String: RootScan] = [:]
    /// The roots of the last scan in order, and their scans at the same positions: a change that
    /// appends roots or removes a few finds the others' scans by walking both lists, comparing
    /// strings the registry hands back unchanged (the same storage: no byte read), instead of
    /// hashing each of thousands of long paths several times (issue 24, 40 % of a `Register`).
    private var lastRoots: [String] = []
    private var lastScans: [RootScan] = []
    /// `lastScans` put together (``combined(_:)``), kept so that a change that appends roots,
    /// or removes or rescans roots near the end, puts together only the roots from the first
    /// one that differs instead of all of them (issue 24: putting 10,240 roots' scans together
    /// at every user's `Register` was most of its cost).
    private var combination = ScanCombination()
    /// Files the current scan read afresh (not from the cache) and found faces in.
    private var filesRead = 0
    /// The files read afresh by each root of the current scan, by its position in the walk.
    private var readByRoot: [Int] = []
    /// The position of the root being walked, in the current scan's walk.
    private var currentRoot = 0
    /// The number of roots walked by every scan so far (tests: a change walks only its roots).
    private(set) var rootsWalked = 0
    /// The number of directories listed by every scan so far (tests).
    private(set) var directoriesListed = 0
    /// The uid every file of the root being scanned must belong to (a user's own registration,
    /// issue 15), or `nil` when any owner will do; set per root by ``scan(roots:confinement:owners:)``.
    private var requiredOwner: UInt32?
    /// Every directory the last scan walked and every root, with the `stat` fields that prove it
    /// unchanged at the next start (``DirectoryStamp``).
    private(set) var directories: [DirectoryStamp] = []
    /// The number of files parsed (not taken from the cache) by every scan so far: a warm start parses none.
    private(set) var filesParsed = 0
    /// Files larger than this are reported as problems and never read.
    let maximumFileSize: Int64

    /// The sandboxed parsers files are handed to, or `nil` to parse in this process.
    let pool: ParserPool?
    /// How many opened files wait for the parsers at most: bounds the descriptors held open.
    static let pendingLimit = 128

    /// Creates a scanner; files in `cache` whose identity, size and modification time still
    /// match are not read again (the registry fills it from its index file's file table).
    ///
    /// - Parameter pool: the sandboxed parsers to hand files to; `nil` parses in this process.
    init(
        cache: [String: ScannedFile] = [:], maximumFileSize: Int64 = FontScanner.defaultMaximumFileSize,
        pool: ParserPool? = nil
    ) {
        self.cache = cache
        self.maximumFileSize = maximumFileSize
        self.pool = pool
    }

    /// Replaces the files checked against (a warm-started registry's first change) and forgets
    /// every root's last scan: the next scan walks every root.
    func seed(_ files: [String: ScannedFile]) {
        cache = files
        rootScans = [:]
        lastRoots = []
        lastScans = []
        combination = ScanCombination()
    }

    /// Scans the given roots (directories recursively, and single files).
    ///
    /// - Returns: every readable file with its faces (each file once, even when reached by
    ///   two roots or links), and a problem for each path that could not be used.
    /// - Parameters:
    ///   - confinement: for some roots, the allowed roots (symlinks resolved) they must be
    ///     reached beneath; such a root is opened from its allowed root's descriptor following no
    ///     link, and links found under it are followed only into the allowed roots.
    ///   - owners: for some roots (a user's own registrations), the uid their files must belong
    ///     to; a file of another owner is a problem, not read. Checked on the entry's `fstatat`
    ///     and again on the opened descriptor's `fstat`, never by a second path lookup.
    ///   - rescanning: the roots to walk again; the others reuse their last scan (``RootScan``)
    ///     when there is one of the same confinement and owner. `nil` walks every root.
    ///   - removed: the roots of the last scan that are not in `roots` (an `Unregister`'s), when
    ///     the caller knows them; `nil` finds them by comparing every root (a hash of each).
    func scan(
        roots: [String], confinement: [String: [String]] = [:], owners: [String: UInt32] = [:],
        rescanning: Set<String>? = nil, removed: [String]? = nil
    ) -> ScanResult {
        let initial = rootScans.isEmpty
        var walking: [String] = []
        var queued: Set<String> = []
        // What is reused is kept by position, for putting the scans together.
        var reused: [RootScan?] = []
        let edit = initial ? nil : endEdit(roots, rescanning: rescanning, removed: removed)
        if case .appended(let first)? = edit {
            // Nothing of the roots before `first` is looked at (issue 24: every change passed over
            // every root's last scan).
            for root in roots[first...] where queued.insert(root).inserted { walking.append(root) }
        } else if edit == nil,
            let aligned = alignedScans(roots, rescanning: rescanning, removed: removed, initial: initial)
        {
            reused = aligned
            for (position, scan) in reused.enumerated() where scan == nil && queued.insert(roots[position]).inserted {
                walking.append(roots[position])
            }
        } else if edit == nil {
            // One lookup of each root, and its confinement and owner compared with its last scan's.
            reused = []
            reused.reserveCapacity(roots.count)
            for root in roots {
                if let last = rootScans[root], rescanning.map({ !$0.contains(root) }) ?? false,
                    last.confinement == confinement[root], last.owner == owners[root]
                {
                    reused.append(last)
                    continue
                }
                reused.append(nil)
                if queued.insert(root).inserted { walking.append(root) }
            }
        }
        var walk = ScanWalk()
        walk.fresh = Array(repeating: [:], count: walking.count)
        readByRoot = Array(repeating: 0, count: walking.count)
        directories = []
        filesRead = 0
        var confinements: [[String]: ScanConfinement] = [:]
        var spans: [(entries: Range<Int>, directories: Range<Int>)] = []
        spans.reserveCapacity(walking.count)
        for (position, root) in walking.enumerated() {
            // Each root's walk is its own: what it finds does not depend on the other roots.
            walk.visitedDirectories = [:]
            walk.seenFiles = []
            walk.root = position
            currentRoot = position
            let confine = confinement[root].map { allowed in
                if let open = confinements[allowed] { return open }
                let made = ScanConfinement(roots: allowed)
                confinements[allowed] = made
                return made
            }
            requiredOwner = owners[root]
            let firstEntry = walk.entries.count, firstDirectory = directories.count
            scanRoot(root, confine: confine, walk: &walk)
            spans.append((firstEntry..<walk.entries.count, firstDirectory..<directories.count))
        }
        requiredOwner = nil
        if let pool {
            settle(pool.drain(), walk: &walk)
            pool.finish()
        }
        rootsWalked += walking.count
        var changed: Set<String> = []
        let seeded = initial ? cache : [:]
        let cachedBefore = cache.count
        if initial { cache = [:] }
        let dropping: [String]
        if let removed {
            dropping = removed
        } else {
            let kept = Set(roots)
            dropping = rootScans.keys.filter { !kept.contains($0) }
        }
        for root in dropping {
            guard let last = rootScans.removeValue(forKey: root) else { continue }
            for path in last.files.keys { cache[path] = nil }
            if !last.files.isEmpty { changed.insert(root) }
        }
        for (position, root) in walking.enumerated() {
            let files = walk.fresh[position]
            if let last = rootScans[root] {
                for path in last.files.keys { cache[path] = nil }
                if last.files.count != files.count { changed.insert(root) }
            } else if !initial {
                if !files.isEmpty { changed.insert(root) }
            }
            if readByRoot[position] > 0 { changed.insert(root) }
            cache.merge(files) { _, new in new }
            rootScans[root] = RootScan(
                entries: Array(walk.entries[spans[position].entries]),
                directories: Array(directories[spans[position].directories]),
                files: files, confinement: confinement[root], owner: owners[root])
        }
        // A first scan (or one after a seed) compares with the files it was seeded with: a root
        // that read a file afresh changed; a seeded file no root found any more, every root.
        cacheChanged = filesRead > 0 || (initial ? cache.count != cachedBefore : !changed.isEmpty)
        if initial, seeded.keys.contains(where: { cache[$0] == nil }) { changed = Set(roots) }
        changedRoots = changed
        walkedRoots = walking
        filesParsed += filesRead
        switch edit {
        case .appended(let first)?:
            lastRoots.append(contentsOf: roots[first...])
            for root in roots[first...] {
                let scan = rootScans[root]
                combination.append(scan)
                if let scan { lastScans.append(scan) }
            }
            return finishEdit()
        case .droppedLast(let count)?:
            lastRoots.removeLast(count)
            lastScans.removeLast(count)
            combination.truncate(to: roots.count)
            return finishEdit()
        case nil: break
        }
        // The combination of the last scan holds until the first position whose root differs
        // or was walked again; from there it is put together anew.
        var kept = 0
        let limit = min(combination.count, lastRoots.count, roots.count)
        while kept < limit, reused[kept] != nil, roots[kept] == lastRoots[kept] { kept += 1 }
        for position in reused.indices where reused[position] == nil { reused[position] = rootScans[roots[position]] }
        lastRoots = roots
        lastScans = reused.compactMap { $0 }
        if lastScans.count != roots.count {
            lastRoots = []
            lastScans = []
        }
        combination.truncate(to: kept)
        for position in kept..<reused.count { combination.append(reused[position]) }
        let result = combination.result
        // The scanner's own reference is dropped at the next scan's start, so that the
        // combination is extended in place rather than copied.
        directories = combination.stamps
        // Positions that do not line up with the roots cannot be reused next time.
        if lastScans.isEmpty { combination = ScanCombination() }
        return result
    }

    /// A change at the end of the last scan's roots, which the scan applies to its last roots,
    /// their scans and their combination in place, without passing over the others.
    private enum EndEdit: Equatable {
        /// The roots from this position on were appended (and are the only ones to walk).
        case appended(Int)
        /// The last this many roots were removed, and nothing is walked.
        case droppedLast(Int)
    }

    /// Whether `roots` are the last scan's roots with roots appended (all of `rescanning` among
    /// them) or with their last ones removed (`removed`, nothing rescanned); `nil` for any other change.
    ///
    /// The registry changes its roots only by appending (`Register`) and removing
    /// (`Unregister`), keeping the others in order, so the last scan's roots are the prefix of
    /// `roots` when the root before the appended ones is the last scan's last root; the prefix is
    /// not compared root by root (issue 24: that pass over 10,240 roots was most of a change).
    private func endEdit(_ roots: [String], rescanning: Set<String>?, removed: [String]?) -> EndEdit? {
        guard let rescanning, let removed, !lastRoots.isEmpty, lastScans.count == lastRoots.count,
            combination.count == lastRoots.count
        else { return nil }
        if removed.isEmpty, roots.count > lastRoots.count, roots[lastRoots.count - 1] == lastRoots[lastRoots.count - 1]
        {
            let appended = roots[lastRoots.count...]
            guard rescanning.allSatisfy(appended.contains), !appended.contains(where: { rootScans[$0] != nil })
            else { return nil }
            return .appended(lastRoots.count)
        }
        let count = removed.count
        guard rescanning.isEmpty, count > 0, roots.count == lastRoots.count - count,
            Set(lastRoots.suffix(count)) == Set(removed), roots.isEmpty || roots.last == lastRoots[roots.count - 1]
        else { return nil }
        return .droppedLast(count)
    }

    /// What a scan that changed the last roots in place returns: the combination's result, its
    /// stamps as ``directories``.
    private func finishEdit() -> ScanResult {
        directories = combination.stamps
        return combination.result
    }

    /// The last scans reused at each position of `roots` (`nil`: walk it), found by walking the
    /// last scan's roots beside `roots`, when the change is of the kind the registry makes: some
    /// roots removed (`removed`, a few), some appended, a few rescanned. `nil` when it is not
    /// (a first scan, a full rescan, many roots named): every root is then looked up by path.
    /// A root kept keeps the confinement and owner it was registered with (they are set when
    /// it is registered, and a registered root is not registered again).
    private func alignedScans(_ roots: [String], rescanning: Set<String>?, removed: [String]?, initial: Bool)
        -> [RootScan?]?
    {
        guard !initial, let rescanning, let removed, rescanning.count <= 16, removed.count <= 16,
            !lastRoots.isEmpty
        else { return nil }
        var reused = [RootScan?](repeating: nil, count: roots.count)
        var last = 0
        for position in roots.indices {
            while last < lastRoots.count, lastRoots[last] != roots[position], removed.contains(lastRoots[last]) {
                last += 1
            }
            guard last < lastRoots.count, lastRoots[last] == roots[position] else { continue }
            reused[position] = lastScans[last]
            last += 1
        }
        for root in rescanning {
            for position in roots.indices where roots[position] == root { reused[position] = nil }
        }
        return reused
    }

    /// The last scans of `roots` put together in order, as one walk of them finds them: each
    /// file once (the first root reaching it keeps it), every problem, and the directory stamps.
    /// Roots not scanned yet are left out.
    func combined(_ roots: [String]) -> (result: ScanResult, directories: [DirectoryStamp]) {
        Self.combined(roots.map { rootScans[$0] })
    }

    /// Root scans put together in order (``combined(_:)``); `nil`s are left out.
    private static func combined(_ scans: [RootScan?]) -> (result: ScanResult, directories: [DirectoryStamp]) {
        var combination = ScanCombination()
        for scan in scans { combination.append(scan) }
        return (combination.result, combination.stamps)
    }

    /// Opens one root (confined beneath its allowed root, or by the path the operator gave) and scans it.
    private func scanRoot(_ root: String, confine: ScanConfinement?, walk: inout ScanWalk) {
        let located: LocatedEntry
        do {
            if let confine {
                located = try confine.open(registered: root)
            } else {
                located = try Self.openUnconfined(root)
            }
        } catch {
            let linkRefused = error.errno == .tooManySymbolicLinkLevels && confine != nil
            let reason =
                linkRefused
                ? "a symbolic link where a registered directory or file was; not followed"
                : error.errno == .improperLink
                    ? "outside the allowed roots; not read" : Self.describe(errno: error.errno)
            walk.add(
                ScanProblem(
                    path: root, reason: reason, kind: linkRefused ? .notFollowed : Self.kind(errno: error.errno)))
            return
        }
        if case .entry(_, _, let status) = located { directories.append(DirectoryStamp(path: root, status: status)) }
        visit(located, path: root, confine: confine, walk: &walk)
    }

    /// A root the operator configured (or an embedding program named): links in it are followed.
    private static func openUnconfined(_ path: String) throws(SystemError) -> LocatedEntry {
        let path = ScanConfinement.normalized(path)
        do {
            return .directory(try FileDescriptor.open(path, as: .directory), realPath: path)
        } catch  where error.errno == .notDirectory {
            let slash = path.lastIndex(of: "/") ?? path.startIndex
            let parentPath = slash == path.startIndex ? "/" : String(path[..<slash])
            let parent = try FileDescriptor.open(parentPath, as: .directory)
            let name = String(path[path.index(after: slash)...])
            return .entry(parent: parent, name: name, status: try parent.statusOfEntryFollowingLinks(name))
        }
    }

    /// Reads a located file, or walks a located directory.
    private func visit(_ located: LocatedEntry, path: String, confine: ScanConfinement?, walk: inout ScanWalk) {
        switch located {
        case .directory(let directory, let realPath):
            walkDirectory(directory, path: path, realPath: realPath, confine: confine, walk: &walk)
        case .entry(let parent, let name, let status):
            if status.kind == .symbolicLink {
                walk.add(ScanProblem(path: path, reason: Self.linkNotFollowed, kind: .notFollowed))
                return
            }
            switch scanFile(parent: parent, name: name, path: path, status: status, followLinks: confine == nil) {
            case .file(let file):
                walk.fresh[walk.root][path] = file
                if walk.seenFiles.insert(file.identity).inserted { walk.add(file) }
            case .problem(let problem):
                walk.add(problem)
            case .pending(let job, let opened):
                guard let pool, walk.seenFiles.insert(FileIdentity(opened)).inserted else { return }
                // The first file to parse starts the workers; the walk goes on while they start and parse.
                if pool.outstanding == 0 { pool.prepare() }
                walk.addPending(ticket: pool.submit(job), path: job.path, status: opened)
                settle(pool.collect(waiting: false), walk: &walk)
                while pool.outstanding >= Self.pendingLimit {
                    settle(pool.collect(waiting: true), walk: &walk)
                }
            }
        }
    }

    /// Lists an open directory and visits its hidden-free entries in name order.
    private func walkDirectory(
        _ directory: FileDescriptor, path: String, realPath: String, confine: ScanConfinement?, walk: inout ScanWalk
    ) {
        let names: [String]
        let directoryStatus: FileStatus
        do {
            directoryStatus = try directory.status()
        } catch {
            walk.add(ScanProblem(path: path, reason: Self.listingProblem(error), kind: Self.kind(errno: error.errno)))
            return
        }
        let identity = FileIdentity(directoryStatus)
        if let first = walk.visitedDirectories[identity] {
            directories.append(
                DirectoryStamp(path: path, status: directoryStatus, contents: DirectoryContents.of(directory)))
            walk.add(
                ScanProblem(
                    path: path, reason: "directory loop: this is \(first) again; not followed", kind: .notFollowed))
            return
        }
        walk.visitedDirectories[identity] = path
        directoriesListed += 1
        do {
            names = try directory.entryNames()
        } catch {
            directories.append(DirectoryStamp(path: path, status: directoryStatus, contents: .unlisted))
            walk.add(ScanProblem(path: path, reason: Self.listingProblem(error), kind: Self.kind(errno: error.errno)))
            return
        }
        // What the next warm start checks: counted as the walk examines each entry.
        var contents = DirectoryContents()
        let stamp = directories.count
        directories.append(DirectoryStamp(path: path, status: directoryStatus, contents: .unlisted))
        defer { directories[stamp] = DirectoryStamp(path: path, status: directoryStatus, contents: contents) }
        for name in names where !name.hasPrefix(".") {
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            let status: FileStatus
            do {
                status = try directory.statusOfEntry(name)
            } catch {
                // Gone since the listing: nothing to report.
                if error.errno != .noSuchFileOrDirectory {
                    contents.add(name: name, status: nil, in: directory)
                    walk.add(
                        ScanProblem(
                            path: child, reason: Self.describe(errno: error.errno), kind: Self.kind(errno: error.errno))
                    )
                }
                continue
            }
            contents.add(name: name, status: status, in: directory)
            let located: LocatedEntry?
            switch status.kind {
            case .symbolicLink:
                located =
                    confine.map { $0.follow(link: name, in: directory, realDirectory: realPath) }
                    ?? Self.followUnconfined(name, in: directory, realPath: realPath)
                if located == nil {
                    // A link with no font name that leads nowhere usable is not ours to report.
                    if Self.hasFontExtension(name) {
                        walk.add(ScanProblem(path: child, reason: Self.linkNotFollowed, kind: .notFollowed))
                    }
                    continue
                }
            case .directory:
                do {
                    located = .directory(
                        try directory.openEntry(name, as: .directory), realPath: realPath + "/" + name)
                } catch {
                    let reason =
                        error.errno == .tooManySymbolicLinkLevels
                        ? "it changed into a symbolic link while it was read; not followed"
                        : Self.describe(errno: error.errno)
                    walk.add(
                        ScanProblem(
                            path: child, reason: reason,
                            kind: error.errno == .tooManySymbolicLinkLevels
                                ? .notFollowed : Self.kind(errno: error.errno)))
                    continue
                }
            default:
                guard Self.hasFontExtension(name) else { continue }
                located = .entry(parent: directory, name: name, status: status)
            }
            if let located {
                if case .entry = located, !Self.hasFontExtension(name) { continue }
                visit(located, path: child, confine: confine, walk: &walk)
            }
        }
    }

    /// The problem reported for a directory that cannot be examined or listed.
    private static func listingProblem(_ error: SystemError) -> String {
        error.errno == .permissionDenied || error.errno == .notPermitted
            ? "permission denied: cannot list this directory"
            : "cannot list this directory: \(describe(errno: error.errno))"
    }

    /// Follows a link in a tree the operator configured, wherever it leads.
    ///
    /// - Returns: the opened directory or the entry to read, or `nil` when it leads nowhere.
    private static func followUnconfined(_ name: String, in directory: FileDescriptor, realPath: String)
        -> LocatedEntry?
    {
        guard let status = try? directory.statusOfEntryFollowingLinks(name) else { return nil }
        if status.kind == .directory {
            guard let opened = try? directory.openEntryFollowingLinks(name, as: .directory) else { return nil }
            return .directory(opened, realPath: realPath + "/" + name)
        }
        return .entry(parent: directory, name: name, status: status)
    }

    /// The path with every symbolic link resolved, or `nil` when it does not resolve.
    static func realPath(_ path: String) -> String? {
        try? Syscall.resolvedPath(path)
    }

    /// Whether a file name ends in one of ``fontExtensions``, ignoring case.
    ///
    /// The extension is what follows the last dot, as `NSString.pathExtension` has it, but
    /// found on the name's bytes (``FontExtension``): this runs for every entry of every
    /// scanned directory.
    static func hasFontExtension(_ name: String) -> Bool {
        FontExtension.matches(name.utf8)
    }

    private enum FileOutcome {
        case file(ScannedFile)
        case problem(ScanProblem)
        /// Opened and checked, waiting for a sandboxed parser.
        case pending(ParseJob, FileStatus)
    }

    /// Puts the parsers' answers where their files were met in the walk.
    private func settle(_ answers: [(ticket: Int, reply: ParseReply)], walk: inout ScanWalk) {
        for (ticket, reply) in answers {
            guard let waiting = walk.pending.removeValue(forKey: ticket) else { continue }
            switch reply {
            case .faces(let faces):
                filesRead += 1
                readByRoot[waiting.root] += 1
                let file = ScannedFile(
                    path: waiting.path, identity: FileIdentity(waiting.status), size: waiting.status.size,
                    modified: waiting.status.modifiedNanoseconds, faces: faces)
                walk.fresh[waiting.root][waiting.path] = file
                walk.entries[waiting.entry] = .file(file)
            case .problem(let reason, let kind):
                // The file was taken when it was handed over: a later path to it is left out, as in one walk.
                walk.entries[waiting.entry] = .problem(
                    ScanProblem(path: waiting.path, reason: reason, kind: kind), claimed: FileIdentity(waiting.status))
            }
        }
    }

    /// Checks and reads one entry of an open directory; never opens anything but a regular file.
    ///
    /// - Parameters:
    ///   - status: the entry's `fstatat`, just taken. Nothing is trusted from it but the cache
    ///     check: a file that is read is checked again on its open descriptor.
    ///   - followLinks: whether the entry may be a link to follow (operator trees only).
    private func scanFile(parent: FileDescriptor, name: String, path: String, status: FileStatus, followLinks: Bool)
        -> FileOutcome
    {
        if case let (reason, kind)? = checkReason(status) ?? ownerReason(status) {
            return .problem(ScanProblem(path: path, reason: reason, kind: kind))
        }
        let identity = FileIdentity(status)
        if let cached = cache[path], cached.identity == identity, cached.size == status.size,
            cached.modified == status.modifiedNanoseconds
        {
            return .file(cached)
        }
        let opened: FileStatus
        let bytes: FontBytes
        do {
            let file =
                followLinks
                ? try parent.openEntryFollowingLinks(name, as: .file) : try parent.openEntry(name, as: .file)
            opened = try file.status()
            if case let (reason, kind)? = checkReason(opened) ?? ownerReason(opened) {
                return .problem(
                    ScanProblem(path: path, reason: reason + " (it changed after it was checked)", kind: kind))
            }
            if pool != nil { return .pending(ParseJob(path: path, descriptor: file, size: opened.size), opened) }
            bytes = FontBytes(try file.map(count: Int(opened.size)))
        } catch {
            let linkRefused = error.errno == .tooManySymbolicLinkLevels && !followLinks
            let reason =
                linkRefused
                ? "it changed into a symbolic link while it was read; not followed"
                : Self.describe(errno: error.errno)
            return .problem(
                ScanProblem(
                    path: path, reason: reason, kind: linkRefused ? .notFollowed : Self.kind(errno: error.errno)))
        }
        switch reader.reply(path: path, bytes: bytes) {
        case .faces(let faces):
            filesRead += 1  // only files that enter the cache: an unreadable one must not rewrite it at every scan
            readByRoot[currentRoot] += 1
            return .file(
                ScannedFile(
                    path: path, identity: FileIdentity(opened), size: opened.size,
                    modified: opened.modifiedNanoseconds, faces: faces))
        case .problem(let reason, let kind):
            return .problem(ScanProblem(path: path, reason: reason, kind: kind))
        }
    }

    /// Why a file with this status is not read: not a regular file, empty, or too large.
    private func checkReason(_ status: FileStatus) -> (String, ScanProblem.Kind)? {
        if let reason = Self.notRegularReason(status.kind) {
            return (reason, status.kind == .symbolicLink ? .notFollowed : .notRegularFile)
        }
        if status.size == 0 { return ("empty file (0 bytes): not a font", .notAFont) }
        if status.size > maximumFileSize {
            return (
                "\(status.size) bytes, larger than any font file (the limit is \(maximumFileSize >> 20) MiB); not read. "
                    + "Remove it, or raise font-size-limit if it really is a font", .tooLarge
            )
        }
        return nil
    }

    /// The problem reported for a file of a user's own registration that another uid owns.
    static let notOwnedByRegistrant =
        "not owned by the user who registered it (swapped or changed hands since); not served. "
        + "A user may register only files they own: make it theirs, or remove it"

    /// Why a file is refused for its owner (a user's own registration, issue 15), or `nil`.
    private func ownerReason(_ status: FileStatus) -> (String, ScanProblem.Kind)? {
        guard let requiredOwner, status.owner != requiredOwner else { return nil }
        return (Self.notOwnedByRegistrant, .notOwned)
    }

    /// Why a file of this kind is refused, or `nil` for a regular file.
    static func notRegularReason(_ kind: FileStatus.Kind) -> String? {
        switch kind {
        case .regular: nil
        case .fifo: "a FIFO (named pipe), not a font file; never opened"
        case .characterDevice, .blockDevice: "a device file, not a font file; never opened"
        case .socket: "a socket, not a font file; never opened"
        case .directory: "a directory where a font file was expected"
        case .symbolicLink: linkNotFollowed
        case .other: "not a regular file; never opened"
        }
    }

    /// A person's words for an errno from stat or open.
    static func describe(errno code: Errno) -> String {
        switch code {
        case .noSuchFileOrDirectory: "no such file or directory"
        case .permissionDenied, .notPermitted: "permission denied: the scanning user cannot read it"
        case .tooManySymbolicLinkLevels: "too many levels of symbolic links (a link loop)"
        case .notDirectory: "a path component is not a directory"
        case .improperLink: "outside the allowed roots; not read"
        default: code.message
        }
    }

    /// The kind of problem an errno from stat, open, listing or mapping is.
    static func kind(errno code: Errno) -> ScanProblem.Kind {
        switch code {
        case .noSuchFileOrDirectory, .notDirectory: .missing
        case .permissionDenied, .notPermitted: .permissionDenied
        case .tooManySymbolicLinkLevels, .improperLink: .notFollowed
        default: .unreadable
        }
    }
}

/// The state of one scan: what was found so far, and what was seen (to read each file once and stop loops).
struct ScanWalk {
    /// A file or problem in the order the walk met it; a file waiting for a parser holds its place.
    enum Entry {
        case file(ScannedFile)
        /// A problem; `claimed` is the file it is about when that file counts as met (one handed
        /// to a parser that failed): a later path to the same file is then left out.
        case problem(ScanProblem, claimed: FileIdentity? = nil)
        case pending
    }

    /// A file handed to a sandboxed parser, and where its outcome goes in ``entries``.
    struct Waiting {
        let path: String
        let status: FileStatus
        let entry: Int
        /// The position of its root in the walk.
        let root: Int
    }

    var entries: [Entry] = []
    /// The files found of each root (read or from the cache), by the root's position in the walk, by path.
    var fresh: [[String: ScannedFile]] = []
    /// The position of the root being walked.
    var root = 0
    /// The files handed to the parsers and not yet answered, by the pool's ticket.
    var pending: [Int: Waiting] = [:]
    var seenFiles: Set<FileIdentity> = []
    var visitedDirectories: [FileIdentity: String] = [:]

    /// Records a file that was read.
    mutating func add(_ file: ScannedFile) { entries.append(.file(file)) }
    /// Records a problem.
    mutating func add(_ problem: ScanProblem) { entries.append(.problem(problem)) }
    /// Records a file handed to the parsers under its ticket, keeping its place.
    mutating func addPending(ticket: Int, path: String, status: FileStatus) {
        pending[ticket] = Waiting(path: path, status: status, entry: entries.count, root: root)
        entries.append(.pending)
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

    init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
