import FontRegJSON
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
        /// Roots registered with a confinement, and the resolved directories their links may lead into.
        var confinement: [String: [String]] = [:]
        /// Roots that are a user's own registration, and the uid their files must belong to (issue 15).
        var owners: [String: UInt32] = [:]
    }

    private let configuration: RegistryConfiguration
    private let state: Mutex<State>
    /// Serializes changes; holds the scanner, whose cache makes rescans of unchanged files cheap.
    private let writer: Mutex<FontScanner>
    private let fontconfig = PrivateFontconfig()
    /// Why the face cache could not be written the last time, reported with the index's problems.
    private let cacheProblem = Mutex<ScanProblem?>(nil)
    /// The faces the private fontconfig view is to be built from when something next needs it
    /// (``fontconfigChoice(family:weight:italic:)``); `nil` once it is built. Nothing in serving
    /// does, so a daemon never fills it (issue 13: it held half of the memory per face).
    private let fontconfigPending = Mutex<[FaceRecord]?>(nil)
    /// Builds the private fontconfig view and writes the face cache off the start-up and change
    /// paths: nothing in resolution waits for either.
    private let fontconfigQueue = DispatchQueue(label: "fontreg.private-fontconfig", qos: .utility)
    private let fallback = SystemFallback()
    private let observers = Mutex<[Int: @Sendable (RegistrationReport) -> Void]>([:])
    /// Every indexed file's identity on disk, by path, from the last scan (issue 15: `OpenFace`).
    let indexedFiles = Mutex<[String: IndexedFile]>([:])
    private let nextObserver = Atomic<Int>(0)

    /// Creates a registry and scans its configured fonts before returning.
    ///
    /// Unreadable files are recorded in the index's problems, not thrown.
    /// - Parameter configuration: the fonts to scan, the rules directory and the cache directory.
    /// - Throws: ``RegistryError/fileNotFound(path:)`` when a configured directory or file does not exist.
    public init(configuration: RegistryConfiguration) throws(RegistryError) {
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
        let scanner = FontScanner(
            cacheFile: (cacheDirectory as NSString).appendingPathComponent("faces.cache"),
            maximumFileSize: configuration.maximumFontFileSize, pool: Self.parserPool(configuration.parsing))
        let confinement = Dictionary(configuration.confinement.map { (Self.absolute($0.key), $0.value) }) { a, _ in a }
        let result = scanner.scan(roots: roots, confinement: confinement)
        var problems = result.problems
        // Written now, not in the background: a short-lived process (the client) exits right after.
        do {
            try scanner.saveCache()
        } catch {
            let problem = Self.cacheProblem(error, directory: cacheDirectory)
            cacheProblem.withLock { $0 = problem }
            problems.append(problem)
        }
        let faces = result.files.flatMap(\.faces)
        indexedFiles.withLock { $0 = IndexedFile.table(result.files) }
        state = Mutex(
            State(
                roots: roots,
                index: FontIndex(faces: faces, problems: problems, generation: 1, directories: roots),
                rules: rules, confinement: confinement))
        writer = Mutex(scanner)
        fontconfigPending.withLock { $0 = faces }
    }

    /// The sandboxed parsers a configuration asks for, or `nil` to parse in process.
    private static func parserPool(_ parsing: FaceParsing) -> ParserPool? {
        guard case .sandboxed(let settings) = parsing else { return nil }
        return ParserPool(settings: settings)
    }

    /// The problem reported when the face cache cannot be written: start-up reads every font again.
    private static func cacheProblem(_ error: any Error, directory: String) -> ScanProblem {
        ScanProblem(
            path: directory,
            reason:
                "cannot write the face cache here (\(error)); every start reads all fonts again. "
                + "Make the cache directory writable by the daemon")
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
            if let faces = fontconfigPending.withLock({ pending in
                defer { pending = nil }
                return pending
            }) {
                fontconfig.replace(faces: faces)
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
        if let confinedTo {
            state.withLock { state in for path in paths { state.confinement[path] = confinedTo } }
        }
        state.withLock { state in for path in paths { state.owners[path] = filesOwnedBy } }
        return try change { (roots: [String], scanner: FontScanner) throws(RegistryError) -> [String] in
            for path in paths {
                var info = stat()
                guard stat(path, &info) == 0 else {
                    if errno == EACCES { throw RegistryError.permissionDenied(path: path) }
                    throw RegistryError.fileNotFound(path: path)
                }
                if roots.contains(path) { throw RegistryError.alreadyRegistered(path: path) }
                if (info.st_mode & S_IFMT) == S_IFDIR,
                    let parent = roots.first(where: { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
                {
                    throw RegistryError.alreadyRegistered(path: path, within: parent)
                }
                if (info.st_mode & S_IFMT) != S_IFDIR {
                    if let reason = FontScanner.notRegularReason(mode: info.st_mode) {
                        throw RegistryError.invalidFontData(path: path, reason: reason)
                    }
                    // Probed the way every later scan reads it: beneath its allowed root when confined.
                    let probe = FontScanner(maximumFileSize: configuration.maximumFontFileSize, pool: scanner.pool)
                        .scan(
                            roots: [path], confinement: confinedTo.map { [path: $0] } ?? [:])
                    if let problem = probe.problems.first, probe.files.isEmpty {
                        if problem.reason.hasPrefix("permission denied") {
                            throw RegistryError.permissionDenied(path: path)
                        }
                        throw RegistryError.invalidFontData(path: path, reason: problem.reason)
                    }
                }
            }
            return roots + paths
        }
    }

    /// The reason of the problem reported for a file, under a path registered with `filesOwnedBy`,
    /// that another uid owns.
    public static let fileNotOwnedReason = FontScanner.notOwnedByRegistrant

    /// Unregisters directories or files that were registered.
    ///
    /// - Parameter paths: registered directories or files, as given to ``register(paths:confinedTo:filesOwnedBy:)``.
    /// - Returns: the faces removed.
    /// - Throws: ``RegistryError/notRegistered(path:)`` for a path that is not a registered root.
    @discardableResult
    public func unregister(paths: [String]) throws(RegistryError) -> RegistrationReport {
        let paths = paths.map(Self.absolute)
        return try change { (roots: [String], _: FontScanner) throws(RegistryError) -> [String] in
            for path in paths where !roots.contains(path) { throw RegistryError.notRegistered(path: path) }
            return roots.filter { !paths.contains($0) }
        }
    }

    /// Re-reads every registered directory and file; unchanged files are not read again.
    ///
    /// - Returns: the faces added and removed since the last scan, and the files that could not be used.
    @discardableResult
    public func rescan() -> RegistrationReport {
        (try? change { roots, _ in roots }) ?? RegistrationReport(generation: index.generation)
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

    /// Applies a change to the roots, rescans, swaps the snapshot and tells the observers.
    private func change(_ newRoots: ([String], FontScanner) throws(RegistryError) -> [String]) throws(RegistryError)
        -> RegistrationReport
    {
        let report = try writer.withLock { scanner throws(RegistryError) -> RegistrationReport in
            let old = state.withLock { $0 }
            let roots = try newRoots(old.roots, scanner)
            let result = scanner.scan(roots: roots, confinement: old.confinement, owners: old.owners)
            let cacheCopy = scanner.cache, cacheFile = scanner.cacheChanged ? scanner.cacheFile : nil
            let faces = result.files.flatMap(\.faces)
            indexedFiles.withLock { $0 = IndexedFile.table(result.files) }
            // A file read afresh or dropped changes the faces; an unchanged scan keeps fontconfig's view.
            let changedFiles = scanner.cacheChanged || old.index.faces.count != faces.count
            fontconfigQueue.async { [self] in
                if let cacheFile {
                    do {
                        try FaceCache.save(cacheCopy, path: cacheFile)
                        cacheProblem.withLock { $0 = nil }
                    } catch {
                        let directory = (cacheFile as NSString).deletingLastPathComponent
                        let problem = Self.cacheProblem(error, directory: directory)
                        cacheProblem.withLock { $0 = problem }
                    }
                }
                if changedFiles { fontconfigPending.withLock { $0 = faces } }
            }
            let index = FontIndex(
                faces: faces, problems: result.problems + [cacheProblem.withLock { $0 }].compactMap { $0 },
                generation: old.index.generation + 1, directories: roots)
            state.withLock { state in
                state.roots = roots
                state.index = index
                state.confinement = state.confinement.filter { roots.contains($0.key) }
                state.owners = state.owners.filter { roots.contains($0.key) }
            }
            return Self.difference(old: old.index, new: index)
        }
        for observer in observers.withLock({ Array($0.values) }) { observer(report) }
        return report
    }

    private static func difference(old: FontIndex, new: FontIndex) -> RegistrationReport {
        func key(_ face: FaceRecord) -> String { "\(face.file)#\(face.freetypeIndex)" }
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
        return (NSTemporaryDirectory() as NSString).appendingPathComponent("fontreg-cache-\(getuid())")
    }

    /// An absolute, standardized path (symbolic links are kept: the registry shows paths as given).
    package static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}
