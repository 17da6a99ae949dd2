import FontRegSystem
import Foundation
import Synchronization

/// The font registry: scans font files, keeps the current ``FontIndex`` and the family rules, and resolves queries.
///
/// Thread-safe. Readers take the current snapshot without waiting for a scan; changes
/// (register, unregister, rescan, rule reload) are serialized and replace the snapshot whole.
public final class FontRegistry: Sendable {
    private struct State {
        var roots: [String]
        var index: FontIndex
        var rules: RuleSet
    }

    /// What serializes changes holds: the scanner, and what was last written to the index file.
    private struct Writer {
        /// The scanner, whose file records make rescans of unchanged files cheap.
        let scanner: FontScanner
        /// A warm start's mapped file, whose file table seeds the scanner at the first change.
        var seed: MappedSnapshot?
        /// The directories, problems and roots of the index file last written (or mapped).
        var written: (directories: [DirectoryStamp], problems: [ScanProblem], roots: [String])?
        /// Roots registered with a confinement, and the resolved directories their links may lead into.
        ///
        /// Kept here, where only changes reach them, and changed in place (issue 24: copying
        /// tables of 10,240 roots at every change was a share of every user's `Register`).
        var confinement: [String: [String]] = [:]
        /// Roots that are a user's own registration, and the uid their files must belong to (issue 15).
        var owners: [String: UInt32] = [:]
        /// The registered roots as a set, for asking whether a path is one without passing over
        /// all of them (kept with the state's roots by ``FontRegistry/change(rescanning:removing:settings:_:)``).
        var rootSet: Set<String> = []
    }

    private let configuration: RegistryConfiguration
    private let state: Mutex<State>
    /// Serializes changes; holds the scanner, whose records make rescans of unchanged files cheap.
    private let writer: Mutex<Writer>
    private let fontconfig = PrivateFontconfig()
    /// Why the index file could not be written the last time, reported with the index's problems.
    private let cacheProblem = Mutex<ScanProblem?>(nil)
    /// Whether the private fontconfig view is out of date: it is built from the current faces
    /// when something next needs it (``fontconfigChoice(family:weight:italic:)``). Nothing in
    /// serving does, so a daemon never fills it (issue 13: it held half of the memory per face).
    private let fontconfigStale = Mutex(true)
    /// Builds the private fontconfig view off the start-up and change paths.
    private let fontconfigQueue = DispatchQueue(label: "fontreg.private-fontconfig", qos: .utility)
    private let fallback = SystemFallback()
    private let observers = Mutex<[Int: @Sendable (RegistrationReport) -> Void]>([:])
    /// Every indexed file's identity on disk, by path, from the last scan (issue 15: `OpenFace`);
    /// empty while the index is served mapped (its file table answers).
    let indexedFiles = Mutex<[String: IndexedFile]>([:])
    private let nextObserver = Atomic<Int>(0)
    /// The index file: `index.snapshot` in the cache directory.
    let indexFile: (directory: String, name: String)

    /// How the registry started: from its index file, or by scanning (and why).
    public enum StartMode: Sendable, Equatable, CustomStringConvertible {
        /// The index file was current: mapped and served, no font examined.
        case warm
        /// The fonts were scanned; `reason` says why the index file could not be used.
        case cold(reason: String)

        /// A line for the log.
        public var description: String {
            switch self {
            case .warm: "warm start from the index file"
            case .cold(let reason): "cold start (\(reason))"
            }
        }
    }

    /// How this registry started.
    public let startMode: StartMode

    /// Whether a cold start's index file was written by the builder given to
    /// ``init(configuration:buildingElsewhere:)`` (a child process) and is served mapped from it,
    /// no font having been examined in this process.
    package let indexBuiltElsewhere: Bool

    /// Why the index file the builder of ``init(configuration:buildingElsewhere:)`` said it wrote
    /// could not be served (this process then scanned the fonts itself); `nil` otherwise.
    package let outOfProcessRefusal: String?

    /// The number of font files this registry has parsed so far (none after a warm start; tests).
    package var filesParsed: Int { writer.withLock { $0.scanner.filesParsed } }

    /// The number of registered roots this registry's scans have walked so far (tests: a change
    /// walks the roots it names, not every root).
    package var rootsWalked: Int { writer.withLock { $0.scanner.rootsWalked } }

    /// The number of directories this registry's scans have listed so far (tests).
    package var directoriesListed: Int { writer.withLock { $0.scanner.directoriesListed } }

    /// The font files a warm start's check of the recorded directories saw (``SeenFiles``),
    /// until ``takeWarmStartSeenFiles()`` hands them out.
    private let warmStartSeen = Mutex<SeenFiles?>(nil)

    /// The font files a warm start's check of the recorded directories saw, once: the first
    /// call after a warm start has them (the daemon's first classification of who may read each
    /// file, right after), later calls and a cold start `nil`.
    package func takeWarmStartSeenFiles() -> SeenFiles? {
        warmStartSeen.withLock { seen in
            defer { seen = nil }
            return seen
        }
    }

    /// The name of the index file in the cache directory.
    public static let indexFileName = "index.snapshot"

    /// Creates a registry: maps its index file when it is current (a warm start: each recorded
    /// directory listed and its font files `stat`ed, nothing read), else scans its configured
    /// fonts, before returning.
    ///
    /// Unreadable files are recorded in the index's problems, not thrown.
    /// - Parameter configuration: the fonts to scan, the rules directory and the cache directory.
    /// - Throws: ``RegistryError/fileNotFound(path:)`` when a configured directory or file does not exist.
    public convenience init(configuration: RegistryConfiguration) throws(RegistryError) {
        try self.init(configuration: configuration, buildingElsewhere: nil)
    }

    /// Creates a registry as ``init(configuration:)`` does, except that a cold start first asks
    /// `buildingElsewhere` to write the index file (the daemon builds it in a child process, so
    /// that its own heap never holds the scan; issue 29 item 2) and then maps that file as a warm
    /// start would; the scan happens here only when that fails.
    ///
    /// - Parameters:
    ///   - configuration: the fonts to scan, the rules directory and the cache directory.
    ///   - buildingElsewhere: called with the reason the index file cannot serve a warm start;
    ///     returns whether it wrote a new one into the cache directory. `nil`: scan here.
    /// - Throws: ``RegistryError/fileNotFound(path:)`` when a configured directory or file does not exist.
    package init(configuration: RegistryConfiguration, buildingElsewhere: ((_ reason: String) -> Bool)?)
        throws(RegistryError)
    {
        self.configuration = configuration
        for path in configuration.fontDirectories + configuration.fontFiles
        where !FileManager.default.fileExists(atPath: path) {
            throw .fileNotFound(path: path)
        }
        var roots = (configuration.fontDirectories + configuration.fontFiles).map(Self.absolute)
        let fallback = self.fallback
        if configuration.includeSystemFonts { roots += fallback.systemFontFiles() }
        let rules = configuration.rulesDirectory.map { RuleSet.load(directory: $0) } ?? .empty
        let cacheDirectory = configuration.cacheDirectory ?? Self.defaultCacheDirectory
        try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        indexFile = (cacheDirectory, Self.indexFileName)
        let confinement = Dictionary(configuration.confinement.map { (Self.absolute($0.key), $0.value) }) { a, _ in a }
        let stamp = Self.configStamp(roots: roots, configuration: configuration, confinement: confinement)
        let pool = Self.parserPool(configuration.parsing)
        var seen: SeenFiles? = SeenFiles()
        var opened = Self.openIndexFile(directory: cacheDirectory, stamp: stamp, noting: &seen)
        var builtElsewhere: String?, refusedElsewhere: String?
        if case .failure(let refusal) = opened, let buildingElsewhere, buildingElsewhere(refusal.reason) {
            seen = SeenFiles()
            opened = Self.openIndexFile(directory: cacheDirectory, stamp: stamp, noting: &seen)
            switch opened {
            case .success: builtElsewhere = refusal.reason
            case .failure(let second): refusedElsewhere = second.reason
            }
        }
        indexBuiltElsewhere = builtElsewhere != nil
        outOfProcessRefusal = refusedElsewhere
        if case .success(let snapshot) = opened {
            startMode = builtElsewhere.map { .cold(reason: $0) } ?? .warm
            let index = FontIndex(mapped: MappedIndex(snapshot: snapshot, problems: snapshot.problems), generation: 1)
            state = Mutex(State(roots: roots, index: index, rules: rules))
            writer = Mutex(
                Writer(
                    scanner: FontScanner(maximumFileSize: configuration.maximumFontFileSize, pool: pool),
                    seed: snapshot, written: (snapshot.directories, index.problems, roots), confinement: confinement,
                    rootSet: Set(roots)))
            warmStartSeen.withLock { $0 = seen }
            return
        }
        seen = nil
        var reason = ""
        var previous: [String: ScannedFile] = [:]
        switch opened {
        case .success: break
        case .failure(let failure):
            reason = failure.reason
            // Even an index file of another configuration or with changed directories spares
            // re-reading its unchanged files: each is checked by its identity, size and time.
            previous = failure.usable?.scannedFiles() ?? [:]
        }
        startMode = .cold(reason: reason)
        // The face cache of earlier versions: the index file replaces it.
        try? Syscall.removeName(cacheDirectory + "/faces.cache")
        let scanner = FontScanner(cache: previous, maximumFileSize: configuration.maximumFontFileSize, pool: pool)
        previous = [:]
        var index: FontIndex
        let problems: [ScanProblem], problem: ScanProblem?
        do {
            // In a block of its own: the scan's files and faces are released at its end.
            let result = scanner.scan(roots: roots, confinement: confinement)
            let faces = result.files.flatMap(\.faces)
            indexedFiles.withLock { $0 = IndexedFile.table(result.files) }
            problems = result.problems
            index = FontIndex(faces: faces, problems: problems, generation: 1, directories: roots)
            // Written now, not in the background: a short-lived process (the client) exits right after.
            problem = Self.writeIndexFile(
                index, rules: rules, directory: cacheDirectory,
                registry: SnapshotRegistryPart(
                    files: result.files, directories: scanner.directories, problems: problems, stamp: stamp))
            if let problem {
                cacheProblem.withLock { $0 = problem }
                index = FontIndex(faces: faces, problems: problems + [problem], generation: 1, directories: roots)
            }
        }
        var seed: MappedSnapshot?
        if problem == nil,
            case .success(let written) = Self.openIndexFile(directory: cacheDirectory, stamp: stamp, justWritten: true)
        {
            // Served from the file just written, mapped, as after a warm start (issue 29): the
            // built faces and the scanner's records are dropped and glibc gives their pages
            // back, so a cold start ends as small as a warm one. The first change seeds the
            // scanner from the file's table, as after a warm start.
            index = FontIndex(mapped: MappedIndex(snapshot: written, problems: written.problems), generation: 1)
            indexedFiles.withLock { $0 = [:] }
            scanner.seed([:])
            seed = written
            Memory.trim()
        }
        state = Mutex(State(roots: roots, index: index, rules: rules))
        writer = Mutex(
            Writer(
                scanner: scanner, seed: seed,
                written: problem == nil ? (scanner.directories, problems, roots) : nil, confinement: confinement,
                rootSet: Set(roots)))
    }

    /// Why an index file cannot serve a warm start, and the file itself when it is at least readable.
    private struct Refusal: Error {
        /// Why, in words for the log.
        let reason: String
        /// The validated file (of another configuration, or with changed directories): its file
        /// table still spares parsing unchanged files.
        let usable: MappedSnapshot?
    }

    /// Why `path` cannot be `stat`ed, or `nil` when it can.
    private static func statusError(_ path: String) -> SystemError? {
        do {
            _ = try Syscall.status(ofPath: path, followLinks: true)
            return nil
        } catch {
            return error
        }
    }

    /// Maps and checks the index file: valid, this user's own, of this configuration, and every
    /// recorded directory unchanged (its font files, links and subdirectories, ``DirectoryStamp``).
    ///
    /// - Parameter justWritten: the file this start wrote from its scan: the directories are not
    ///   checked again (whatever changed since the scan is as out of date in the built index).
    private static func openIndexFile(directory: String, stamp: UInt64, justWritten: Bool = false)
        -> Result<MappedSnapshot, Refusal>
    {
        var none: SeenFiles?
        return openIndexFile(directory: directory, stamp: stamp, justWritten: justWritten, noting: &none)
    }

    /// ``openIndexFile(directory:stamp:justWritten:)``, noting the font files the check of the
    /// recorded directories saw (``SeenFiles``), for the classification that follows a warm start.
    private static func openIndexFile(
        directory: String, stamp: UInt64, justWritten: Bool = false, noting seen: inout SeenFiles?
    ) -> Result<MappedSnapshot, Refusal> {
        let path = directory + "/" + indexFileName
        let snapshot: MappedSnapshot
        do {
            snapshot = try MappedSnapshot(path: path)
        } catch {
            if case .unreadable = error, statusError(path)?.errno == .noSuchFileOrDirectory {
                return .failure(Refusal(reason: "no index file yet", usable: nil))
            }
            return .failure(Refusal(reason: error.description, usable: nil))
        }
        // Another user's file could name fonts that are not there: only this user's own is trusted.
        guard let status = snapshot.fileStatus, status.owner == Syscall.userID, status.permissions & 0o022 == 0 else {
            return .failure(Refusal(reason: "\(path) is not this user's own private file; not trusted", usable: nil))
        }
        guard snapshot.hasRegistryPart else {
            return .failure(Refusal(reason: "\(path) has no registry part", usable: nil))
        }
        guard snapshot.hasProblemKinds else {
            return .failure(Refusal(reason: "an index file of an earlier release (no problem kinds)", usable: snapshot))
        }
        guard snapshot.configStamp == stamp else {
            return .failure(
                Refusal(reason: "the configuration (directories, files or limits) changed", usable: snapshot))
        }
        // The file this start just wrote from its own scan records the directories as scanned.
        if justWritten { return .success(snapshot) }
        // About half the files: a large directory's other half is noted apart (``SeenFiles``).
        seen?.reserve((snapshot.fileCount + 1) / 2)
        for i in 0..<snapshot.directoryCount {
            if let change = snapshot.directory(at: i).change(noting: &seen) {
                return .failure(Refusal(reason: change, usable: snapshot))
            }
        }
        return .success(snapshot)
    }

    /// Writes the index file (mode 0600, atomically); the problem to report when it cannot be written.
    private static func writeIndexFile(
        _ index: FontIndex, rules: RuleSet, directory: String, registry: SnapshotRegistryPart
    ) -> ScanProblem? {
        do {
            try AtomicFile.write(
                SnapshotWriter.bytes(of: index, rules: rules, registry: registry), directory: directory,
                name: indexFileName, mode: 0o600)
            return nil
        } catch {
            return cacheProblem(error, directory: directory)
        }
    }

    /// What the index depends on besides the fonts: the version of fontreg and of the layout,
    /// the roots in order, their confinement, the file-size limit. A file of another stamp is
    /// not served (its file table still spares re-reading unchanged files).
    static func configStamp(roots: [String], configuration: RegistryConfiguration, confinement: [String: [String]])
        -> UInt64
    {
        var text = "fontreg \(FontRegVersion.current) layout \(SnapshotLayout.version)\n"
        text += "system \(configuration.includeSystemFonts) limit \(configuration.maximumFontFileSize)\n"
        for root in roots {
            text += "root \(root)\n"
            if let allowed = confinement[root] { text += "confined \(allowed.joined(separator: "\u{0}"))\n" }
        }
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return value
    }

    /// The sandboxed parsers a configuration asks for, or `nil` to parse in process.
    private static func parserPool(_ parsing: FaceParsing) -> ParserPool? {
        guard case .sandboxed(let settings) = parsing else { return nil }
        return ParserPool(settings: settings)
    }

    /// The problem reported when the index file cannot be written: start-up scans every font again.
    private static func cacheProblem(_ error: any Error, directory: String) -> ScanProblem {
        ScanProblem(
            path: directory,
            reason:
                "cannot write the index file here (\(error)); every start scans all fonts again. "
                + "Make the cache directory writable by the daemon", kind: .other)
    }

    /// The current snapshot of every registered face.
    public var index: FontIndex { state.withLock { $0.index } }

    /// The family rules in force.
    public var rules: RuleSet { state.withLock { $0.rules } }

    /// The directories and files registered, in order.
    public var registeredPaths: [String] { state.withLock { $0.roots } }

    /// The number of face patterns in the private fontconfig configuration.
    package var fontconfigPatternCount: Int {
        fontconfigView().patternCount
    }

    /// The private fontconfig view, built now from the latest faces if a change left it out of date.
    private func fontconfigView() -> PrivateFontconfig {
        fontconfigQueue.sync {
            if fontconfigStale.withLock({ stale in
                defer { stale = false }
                return stale
            }) {
                fontconfig.replace(faces: index.faces)
            }
        }
        return fontconfig
    }

    /// The face fontconfig itself would choose among the registered fonts for a query's
    /// family, effective weight and style — for explanations that compare the two.
    ///
    /// fontconfig scores weight as a symmetric distance on its own scale and may pick a face
    /// of another family; see `docs/weights.md` of the shared notes.
    package func fontconfigChoice(family: String, weight: Int, italic: Bool) -> FaceRecord? {
        guard let (path, index) = fontconfigView().match(family: family, weight: weight, italic: italic)
        else { return nil }
        return self.index.faces.first { $0.file == path && $0.freetypeIndex == index }
    }

    /// A resolver over the current snapshot and rules.
    public var resolver: Resolver {
        let (index, rules) = state.withLock { ($0.index, $0.rules) }
        let fallback = self.fallback
        return Resolver(index: index, rules: rules) { fallback.face(weight: $0, italic: $1) }
    }

    /// Resolves a query against the current snapshot. See ``Resolver``.
    ///
    /// - Parameter query: the family, weight, style and Bold Text setting.
    /// - Returns: the face that serves the query, how it was found, and the trace.
    /// - Throws: ``ResolveError`` for an unknown family in strict mode or a family with no usable face.
    public func resolve(_ query: ResolveQuery) throws(ResolveError) -> Resolution {
        try resolver.resolve(query)
    }

    /// The faces of the query's family, best first. See ``Resolver/candidates(_:)``.
    public func candidates(_ query: ResolveQuery) throws(ResolveError) -> CandidateList {
        try resolver.candidates(query)
    }

    /// Registers files or directories (scanned recursively).
    ///
    /// - Parameters:
    ///   - paths: font files or directories; relative paths are taken from the current directory.
    ///   - confinedTo: directories (symlinks resolved) that symbolic links found under
    ///     these paths may lead into, now and in every later rescan; a link leading elsewhere is
    ///     reported as a problem and not followed. The daemon passes its allowed roots.
    ///   - filesOwnedBy: the uid every file under these paths must belong to, now and in every
    ///     later rescan (a user's own registration); a file of another owner is a problem and
    ///     serves no face. `nil` accepts any owner.
    /// - Returns: the faces added and the files that could not be used.
    /// - Throws: ``RegistryError`` when a path does not exist, is already registered, or is a
    ///   single file that is not a usable font.
    @discardableResult
    public func register(paths: [String], confinedTo: [String]? = nil, filesOwnedBy: UInt32? = nil)
        throws(RegistryError) -> RegistrationReport
    {
        // Each path once, in the order given: `Register [X, X]` registers (and persists) X once.
        var unique: Set<String> = []
        let paths = paths.map(Self.absolute).filter { unique.insert($0).inserted }
        let settings = Dictionary(paths.map { ($0, RootSettings(confinedTo: confinedTo, owner: filesOwnedBy)) }) {
            first, _ in first
        }
        return try change(rescanning: Set(paths), settings: settings) {
            (_: [String], registered: Set<String>, scanner: FontScanner) throws(RegistryError) -> [String] in
            for path in paths {
                let info: FileStatus
                do throws(SystemError) {
                    info = try Syscall.status(ofPath: path, followLinks: true)
                } catch {
                    if error.errno == .permissionDenied { throw RegistryError.permissionDenied(path: path) }
                    throw RegistryError.fileNotFound(path: path)
                }
                if registered.contains(path) { throw RegistryError.alreadyRegistered(path: path) }
                // Its ancestors asked of the roots, not every root of a path prefix (each one copied).
                if info.kind == .directory, let parent = Self.ancestors(of: path).first(where: registered.contains) {
                    throw RegistryError.alreadyRegistered(path: path, within: parent)
                }
                if info.kind != .directory {
                    if let reason = FontScanner.notRegularReason(info.kind) {
                        throw RegistryError.invalidFontData(path: path, reason: reason)
                    }
                    // Probed the way every later scan reads it: beneath its allowed root when confined.
                    let probe = FontScanner(maximumFileSize: configuration.maximumFontFileSize, pool: scanner.pool)
                        .scan(
                            roots: [path], confinement: confinedTo.map { [path: $0] } ?? [:])
                    if let problem = probe.problems.first, probe.files.isEmpty {
                        throw Self.refusal(of: path, problem)
                    }
                }
            }
            return paths
        }
    }

    /// The ancestors of an absolute path, nearest first (`/a/b/c`: `/a/b`, `/a`, `/`), each also
    /// spelled with a trailing slash as a root may be.
    static func ancestors(of path: String) -> [String] {
        var found: [String] = []
        var end = path.utf8.endIndex
        while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
            let parent = String(path[..<slash])
            if !parent.isEmpty { found.append(parent) }
            found.append(parent + "/")
            end = slash
        }
        return found
    }

    /// How a registered root is scanned: confined beneath allowed roots, and whose its files must be.
    struct RootSettings {
        /// As `confinedTo` of ``register(paths:confinedTo:filesOwnedBy:)``.
        var confinedTo: [String]?
        /// As `filesOwnedBy` of ``register(paths:confinedTo:filesOwnedBy:)``.
        var owner: UInt32?
    }

    /// One path of ``register(each:)``: the path and how its later scans are confined.
    package struct PendingRegistration: Sendable {
        /// The file or directory.
        package var path: String
        /// As `confinedTo` of ``register(paths:confinedTo:filesOwnedBy:)``.
        package var confinedTo: [String]?
        /// As `filesOwnedBy` of ``register(paths:confinedTo:filesOwnedBy:)``.
        package var filesOwnedBy: UInt32?

        package init(path: String, confinedTo: [String]?, filesOwnedBy: UInt32?) {
            self.path = path
            self.confinedTo = confinedTo
            self.filesOwnedBy = filesOwnedBy
        }
    }

    /// Registers many paths in one change (one scan, one new index), each checked as
    /// ``register(paths:confinedTo:filesOwnedBy:)`` checks it; a path refused is left out and
    /// returned with why, without failing the others.
    ///
    /// The daemon restores users' persistent registrations with this at start (issue 24): one
    /// change per registration rescanned every root each time, so 1,000 of them took minutes.
    /// The checks are linear: whether a directory lies inside a root is asked of its ancestors
    /// of the lengths roots have, not of every root.
    /// - Parameter registrations: the paths, in order; a path inside an earlier one is refused.
    /// - Returns: the change's report and the paths refused.
    package func register(each registrations: [PendingRegistration])
        -> (report: RegistrationReport, refused: [(path: String, error: RegistryError)])
    {
        let pending = registrations.map {
            PendingRegistration(path: Self.absolute($0.path), confinedTo: $0.confinedTo, filesOwnedBy: $0.filesOwnedBy)
        }
        let settings = Dictionary(
            pending.map { ($0.path, RootSettings(confinedTo: $0.confinedTo, owner: $0.filesOwnedBy)) }
        ) { first, _ in first }
        var refused: [(path: String, error: RegistryError)] = []
        let report = try? change(rescanning: Set(pending.map(\.path)), settings: settings) {
            (roots: [String], registered: Set<String>, scanner: FontScanner) -> [String] in
            refused = []
            var taken = registered
            var lengths = Set(roots.map(\.utf8.count))
            var accepted: [String] = []
            for registration in pending {
                let path = registration.path
                if let error = refusal(of: registration, taken: taken, lengths: lengths, scanner: scanner) {
                    refused.append((path, error))
                    continue
                }
                accepted.append(path)
                taken.insert(path)
                lengths.insert(path.utf8.count)
            }
            return accepted
        }
        return (report ?? RegistrationReport(generation: index.generation), refused)
    }

    /// Why ``register(each:)`` refuses one path, or `nil` when it is registered.
    private func refusal(
        of registration: PendingRegistration, taken: Set<String>, lengths: Set<Int>, scanner: FontScanner
    ) -> RegistryError? {
        let path = registration.path
        let info: FileStatus
        do {
            info = try Syscall.status(ofPath: path, followLinks: true)
        } catch {
            return error.errno == .permissionDenied ? .permissionDenied(path: path) : .fileNotFound(path: path)
        }
        if taken.contains(path) { return .alreadyRegistered(path: path) }
        if info.kind == .directory {
            let bytes = Array(path.utf8)
            for (offset, byte) in bytes.enumerated()
            where byte == UInt8(ascii: "/") && offset > 0 && lengths.contains(offset) {
                let parent = String(decoding: bytes[..<offset], as: UTF8.self)
                if taken.contains(parent) { return .alreadyRegistered(path: path, within: parent) }
            }
            return nil
        }
        if let reason = FontScanner.notRegularReason(info.kind) {
            return .invalidFontData(path: path, reason: reason)
        }
        let probe = FontScanner(maximumFileSize: configuration.maximumFontFileSize, pool: scanner.pool)
            .scan(roots: [path], confinement: registration.confinedTo.map { [path: $0] } ?? [:])
        if let problem = probe.problems.first, probe.files.isEmpty { return Self.refusal(of: path, problem) }
        return nil
    }

    /// Why a file given to ``register(paths:confinedTo:filesOwnedBy:)`` is refused, by the kind of
    /// the problem its probe found: one the daemon may not read is `PermissionDenied`, anything
    /// else invalid font data.
    static func refusal(of path: String, _ problem: ScanProblem) -> RegistryError {
        problem.kind == .permissionDenied
            ? .permissionDenied(path: path) : .invalidFontData(path: path, reason: problem.reason)
    }

    /// The reason of the problem reported for a file, under a path registered with `filesOwnedBy`,
    /// that another uid owns: the words a person reads. Code tells such a problem by its kind,
    /// ``ScanProblem/Kind/notOwned``, not by these words.
    public static let fileNotOwnedReason = FontScanner.notOwnedByRegistrant

    /// Unregisters directories or files that were registered.
    ///
    /// - Parameter paths: registered directories or files, as given to ``register(paths:confinedTo:filesOwnedBy:)``.
    /// - Returns: the faces removed.
    /// - Throws: ``RegistryError/notRegistered(path:)`` for a path that is not a registered root.
    @discardableResult
    public func unregister(paths: [String]) throws(RegistryError) -> RegistrationReport {
        let paths = paths.map(Self.absolute)
        return try change(rescanning: [], removing: paths) {
            (_: [String], registered: Set<String>, _: FontScanner) throws(RegistryError) -> [String] in
            for path in paths where !registered.contains(path) { throw RegistryError.notRegistered(path: path) }
            return []
        }
    }

    /// Re-reads every registered directory and file; unchanged files are not read again.
    ///
    /// - Returns: the faces added and removed since the last scan, and the files that could not be used.
    @discardableResult
    public func rescan() -> RegistrationReport {
        (try? change(rescanning: nil) { _, _, _ in [] }) ?? RegistrationReport(generation: index.generation)
    }

    /// Re-reads the given registered roots only (a watcher's, for the roots whose folders
    /// changed); the other roots keep what their last scan found. A path that is not a
    /// registered root is ignored.
    ///
    /// - Returns: the faces added and removed, and the files that could not be used.
    @discardableResult
    public func rescan(roots changed: [String]) -> RegistrationReport {
        (try? change(rescanning: Set(changed)) { _, _, _ in [] })
            ?? RegistrationReport(generation: index.generation)
    }

    /// Re-reads the rules directory. Problems are reported in ``RuleSet/problems``.
    public func reloadRules() {
        guard let directory = configuration.rulesDirectory else { return }
        let rules = RuleSet.load(directory: directory)
        state.withLock { $0.rules = rules }
    }

    /// Calls `handler` after every change to the registry, on the thread that made it.
    ///
    /// - Parameter handler: called with the report of each change.
    /// - Returns: a token for ``removeObserver(_:)``.
    public func addObserver(_ handler: @escaping @Sendable (RegistrationReport) -> Void) -> Int {
        let token = nextObserver.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[token] = handler }
        return token
    }

    /// Stops calling an observer.
    ///
    /// - Parameter token: the token ``addObserver(_:)`` returned.
    public func removeObserver(_ token: Int) {
        _ = observers.withLock { $0.removeValue(forKey: token) }
    }

    /// Applies a change to the roots, scans the roots it names (reusing the others' last scans),
    /// swaps the snapshot, rewrites the index file when anything it records changed, and tells
    /// the observers.
    ///
    /// The index file records the roots that are not a user's own registration (no owner): what
    /// the next start is configured with. Users' own roots are restored after the start and
    /// scanned then, so a change of them only does not rewrite it (issue 24: with 5,120 others'
    /// registrations each user's `Register` rewrote several MiB).
    ///
    /// A warm-started registry's first change checks every file against the mapped file table;
    /// a rescan that finds nothing changed keeps serving the mapped index (with a new generation).
    /// - Parameters:
    ///   - rescanning: the roots to walk again (and any root not scanned since the registry
    ///     started); `nil` walks every root.
    ///   - removing: the roots the change takes off (none but an `Unregister`'s), each found from
    ///     the end, where a just registered one is: nothing is asked of every root to find them.
    ///   - settings: how the roots `newRoots` appends are confined and whose files they must be;
    ///     applied to those roots only, once accepted (a refused path, or one already registered,
    ///     leaves every root's settings as they were).
    ///   - newRoots: checks the change against the roots now and the set of them, and returns
    ///     the roots it appends (throwing leaves everything as it was).
    ///
    /// The roots are edited in place, in the state, once the change is accepted and before its
    /// scan (issue 24, session 8: building each change's list anew and releasing the old one
    /// retained and released each of 10,240 others' paths, a quarter of a user's pair); a reader
    /// may meanwhile see the new roots beside the old index, as it could already see the index
    /// and the roots of two changes, read one after the other.
    private func change(
        rescanning: Set<String>?, removing: [String] = [], settings: [String: RootSettings] = [:],
        _ newRoots: ([String], Set<String>, FontScanner) throws(RegistryError) -> [String]
    ) throws(RegistryError) -> RegistrationReport {
        let report = try writer.withLock { writer throws(RegistryError) -> RegistrationReport in
            let scanner = writer.scanner
            if let seed = writer.seed {
                scanner.seed(seed.scannedFiles())
                writer.seed = nil
            }
            let old = state.withLock { (index: $0.index, rules: $0.rules) }
            let appended = try newRoots(state.withLock { $0.roots }, writer.rootSet, scanner)
            // The roots a registration appends, and only those, take the settings it gave.
            for path in appended {
                writer.rootSet.insert(path)
                guard let given = settings[path] else { continue }
                writer.confinement[path] = given.confinedTo
                writer.owners[path] = given.owner
            }
            for root in removing { writer.rootSet.remove(root) }
            let roots = state.withLock { state -> [String] in
                for path in Set(removing) {
                    if let position = state.roots.lastIndex(of: path) { state.roots.remove(at: position) }
                }
                state.roots.append(contentsOf: appended)
                return state.roots
            }
            let result = scanner.scan(
                roots: roots, confinement: writer.confinement, owners: writer.owners, rescanning: rescanning,
                removed: removing)
            let saved = Self.savedPart(
                roots: roots, owners: writer.owners, removing: removing, scanner: scanner, result: result,
                written: writer.written)
            let onlySaved = saved.roots.count == roots.count
            if onlySaved, !saved.changed, case .mapped(let mapped) = old.index.storage {
                let index = FontIndex(mapped: mapped, generation: old.index.generation + 1)
                state.withLock { $0.index = index }
                return RegistrationReport(problems: index.problems, generation: index.generation)
            }
            let faces = result.files.flatMap(\.faces)
            indexedFiles.withLock { $0 = IndexedFile.table(result.files) }
            // A file read afresh or dropped changes the faces; an unchanged scan keeps fontconfig's view.
            if scanner.cacheChanged || old.index.faceCount != faces.count { fontconfigStale.withLock { $0 = true } }
            var index = FontIndex(
                faces: faces, problems: result.problems, generation: old.index.generation + 1, directories: roots)
            if saved.changed {
                let part =
                    onlySaved ? (result: result, directories: scanner.directories) : scanner.combined(saved.roots)
                let written =
                    onlySaved
                    ? index
                    : FontIndex(
                        faces: part.result.files.flatMap(\.faces), problems: part.result.problems,
                        generation: index.generation, directories: saved.roots)
                let problem = Self.writeIndexFile(
                    written, rules: old.rules, directory: indexFile.directory,
                    registry: SnapshotRegistryPart(
                        files: part.result.files, directories: part.directories, problems: part.result.problems,
                        stamp: Self.configStamp(
                            roots: saved.roots, configuration: configuration, confinement: writer.confinement)))
                cacheProblem.withLock { $0 = problem }
                writer.written = problem == nil ? (part.directories, part.result.problems, saved.roots) : nil
            }
            if let problem = cacheProblem.withLock({ $0 }) {
                index = FontIndex(
                    faces: faces, problems: result.problems + [problem], generation: index.generation,
                    directories: roots)
            }
            for root in removing {
                writer.confinement[root] = nil
                writer.owners[root] = nil
            }
            state.withLock { $0.index = index }
            return Self.difference(old: old.index, new: index)
        }
        for observer in observers.withLock({ Array($0.values) }) { observer(report) }
        return report
    }

    /// The roots the index file records (those with no owner, in order), and whether what it
    /// would record of them differs from what was last written: roots, problems, directories,
    /// or a file read afresh or dropped.
    private static func savedPart(
        roots: [String], owners: [String: UInt32], removing: [String], scanner: FontScanner, result: ScanResult,
        written: (directories: [DirectoryStamp], problems: [ScanProblem], roots: [String])?
    ) -> (roots: [String], changed: Bool) {
        // Only users' own roots were walked, changed or removed: the saved roots are as written
        // (each of thousands of roots is not asked for its owner at every user's change).
        if let written,
            !(scanner.walkedRoots + scanner.changedRoots + removing).contains(where: { owners[$0] == nil })
        {
            return (written.roots, false)
        }
        let saved = owners.isEmpty ? roots : roots.filter { owners[$0] == nil }
        // A saved root unregistered changes the roots; one read afresh or dropping files, the files.
        guard let written, written.roots == saved else { return (saved, true) }
        let savedSet = Set(saved)
        if scanner.changedRoots.contains(where: savedSet.contains) { return (saved, true) }
        // Nothing saved was walked again: what the file records of it is what its last scans found.
        guard scanner.walkedRoots.contains(where: savedSet.contains) else { return (saved, false) }
        let part =
            saved.count == roots.count ? (result: result, directories: scanner.directories) : scanner.combined(saved)
        return (saved, written.problems != part.result.problems || written.directories != part.directories)
    }

    private static func difference(old: FontIndex, new: FontIndex) -> RegistrationReport {
        // The name too: a file rewritten in place keeps its path and index but not its face.
        func key(_ face: FaceRecord) -> String { "\(face.file)#\(face.freetypeIndex)#\(face.postscriptName)" }
        let before = Set(old.faces.map(key)), after = Set(new.faces.map(key))
        return RegistrationReport(
            added: new.faces.filter { !before.contains(key($0)) },
            removed: old.faces.filter { !after.contains(key($0)) },
            problems: new.problems, generation: new.generation)
    }

    /// `$XDG_CACHE_HOME/fontreg`, else `~/.cache/fontreg`, else a per-user temporary folder.
    static var defaultCacheDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/fontreg" }
        if let home = environment["HOME"], home.hasPrefix("/"), home != "/" { return home + "/.cache/fontreg" }
        return (NSTemporaryDirectory() as NSString).appendingPathComponent("fontreg-cache-\(Syscall.userID)")
    }

    /// An absolute, standardized path (symbolic links are kept: the registry shows paths as given).
    package static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}
