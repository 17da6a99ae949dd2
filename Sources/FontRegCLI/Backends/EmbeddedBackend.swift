import FontRegCore
import FontRegProtocol
import Foundation

/// An in-process registry built from `--fonts DIR`, `--rules DIR` and `--system-fonts`: embedded mode, no daemon.
///
/// It lives as long as the command, so it serves every read command; `register`,
/// `unregister` and `rescan` would change nothing that outlives it and are refused.
final class EmbeddedBackend: RegistryBackend {
    /// The registry, scanned when the backend was created.
    package let registry: FontRegistry
    private let directories: [String]
    private let pollInterval: Double

    /// Scans the fonts the arguments name.
    ///
    /// - Parameter pollInterval: seconds between rescans while watching.
    /// - Throws: ``CLIError/noInput(_:)`` when a `--fonts` path does not exist.
    package init(arguments: ParsedArguments, pollInterval: Double = 2) throws(CLIError) {
        try Self.checkPaths(arguments)
        do {
            registry = try EmbeddedRegistry.open(arguments)
        } catch {
            throw .noInput("--fonts \(CLIAdvice.message(error))")
        }
        directories = arguments.values("fonts").filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }.map(FontRegistry.absolute)
        self.pollInterval = pollInterval
    }

    package func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply {
        do {
            return ResolutionReply(try registry.resolve(query))
        } catch {
            throw .notFound(CLIAdvice.message(error))
        }
    }

    package func candidates(_ query: ResolveQuery) throws(CLIError) -> CandidateList {
        do {
            return try registry.candidates(query)
        } catch {
            throw .notFound(CLIAdvice.message(error))
        }
    }

    package func families() -> [FamilySummary] {
        registry.index.families.map(FamilySummary.init)
    }

    package func faces(family: String?) throws(CLIError) -> [FaceRecord] {
        let index = registry.index
        guard let family else { return index.faces }
        guard let entry = index.family(named: family) else {
            throw .notFound(
                CLIAdvice.message(
                    ResolveError.familyNotFound(family: family, suggestions: index.suggestions(for: family))))
        }
        return entry.faces
    }

    package func face(postscriptName: String) throws(CLIError) -> FaceRecord {
        guard let face = registry.index.face(postscriptName: postscriptName) else {
            throw .notFound(Self.faceNotFound(postscriptName, among: registry.index.faces.map(\.postscriptName)))
        }
        return face
    }

    package func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport {
        throw Self.needsDaemon("register")
    }

    package func unregister(paths: [String]) throws(CLIError) -> RegistrationReport {
        throw Self.needsDaemon("unregister")
    }

    package func rescan() throws(CLIError) -> RegistrationReport {
        throw Self.needsDaemon("rescan")
    }

    package func rules() throws(CLIError) -> RuleSet { registry.rules }

    /// Checks that the `--rules` directory and every `--fonts` path exist, so every command
    /// (the audit too) reports a missing one with the same words and exit status 1.
    ///
    /// - Throws: ``CLIError/notFound(_:)`` naming the option and the path.
    static func checkPaths(_ arguments: ParsedArguments) throws(CLIError) {
        if let rules = arguments.value("rules") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: rules, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .noInput(
                    "--rules \(rules): no such directory. Give the directory that holds the *.json rule files.")
            }
        }
        for path in arguments.values("fonts") where !FileManager.default.fileExists(atPath: path) {
            throw .noInput("--fonts \(RegistryError.fileNotFound(path: path).description)")
        }
    }

    /// The `--fonts` directories in which no font file was found (no face, no problem): a
    /// wrong path is more likely than an empty folder, so the command says so.
    var emptyDirectories: [String] {
        let index = registry.index
        let used = Set(index.faces.map(\.file) + index.problems.map(\.path))
        return directories.filter { directory in
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            return !used.contains { $0.hasPrefix(prefix) }
        }
    }

    package func status() -> RegistryStatus {
        let index = registry.index
        return RegistryStatus(
            mode: .embedded, faces: index.faceCount, families: index.familyCount, generation: index.generation,
            problems: index.problems + registry.rules.problemReports, fontDirectories: directories,
            registeredPaths: registry.registeredPaths, duplicates: DuplicateSummary.of(index))
    }

    /// Rescans every `pollInterval` seconds and reports each change (there is no daemon to tell us).
    package func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError) {
        var index = registry.index
        guard body(RegistryEvent(event: .subscribed, generation: index.generation, faces: index.faceCount)) else {
            return
        }
        while true {
            Thread.sleep(forTimeInterval: pollInterval)
            let report = registry.rescan()
            guard !report.added.isEmpty || !report.removed.isEmpty else { continue }
            index = registry.index
            let event = RegistryEvent(
                event: .changed, generation: index.generation, faces: index.faceCount, added: report.added,
                removed: report.removed)
            guard body(event) else { return }
        }
    }

    /// The sentence for a PostScript name that is not registered, with the closest names.
    static func faceNotFound(_ name: String, among names: [String]) -> String {
        let key = name.lowercased()
        let close = names.map { ($0, EditDistance.between(key, $0.lowercased())) }
            .filter { $0.1 <= max(2, key.count / 4) || $0.0.lowercased().hasPrefix(key) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
        let hint =
            close.isEmpty
            ? "List the faces of a family with `fontresolve list FAMILY`."
            : "Did you mean \(close.map { "\"\($0)\"" }.joined(separator: ", "))?"
        return "No registered face has the PostScript name \"\(name)\". \(hint)"
    }

    static func needsDaemon(_ command: String) -> CLIError {
        .usage(
            "fontresolve \(command): changes the daemon's registry, and --fonts means no daemon: a registry in process ends with the command. Drop --fonts to talk to fontregd, or add the path as another --fonts DIR.",
            usage: "usage: fontresolve \(command) PATH... [--socket PATH]")
    }
}
