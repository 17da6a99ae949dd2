import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Foundation
import Synchronization
import Varlink

/// The `io.fontreg.Registry` Varlink interface over a ``FontRegistry``.
///
/// Queries read the registry's current immutable snapshot on the event-loop thread; changes
/// (`Register`, `Unregister`, `Rescan`) are checked against the peer's credentials and the
/// allowed roots there, then run deferred on the server's serial worker.
package final class RegistryService: VarlinkService {
    /// The settings that SIGHUP may change.
    package struct Settings: Sendable, Hashable {
        /// Who may change the registry.
        package var access: AccessPolicy
        /// Where `Register` accepts paths.
        package var allowedRoots: AllowedRoots
        /// Users' own fonts and the Bold Text default (issue 15).
        package var platform: PlatformSettings

        package init(access: AccessPolicy, allowedRoots: AllowedRoots, platform: PlatformSettings = PlatformSettings())
        {
            self.access = access
            self.allowedRoots = allowedRoots
            self.platform = platform
        }
    }

    /// `org.varlink.service` answers for fontregd and `io.fontreg.Registry`.
    package let introspection = VarlinkIntrospection(info: .fontregd, interfaces: [.registry])
    /// The registry served.
    package let registry: FontRegistry
    let store: RegistrationStore
    let settings: Mutex<Settings>
    /// Paths registered with `persist`, as saved in the state directory.
    let persisted: Mutex<[String]>
    let started = Date()
    /// Serialized Resolve replies of the current generation: 4096 at most, 8 MiB, none over 16 KiB
    /// (a resolution with its trace is 1–3 KiB).
    let replies = ReplyCache<VisibleKey<ResolveCacheKey>>(
        capacity: 4096, maximumBytes: 8 << 20, maximumEntryBytes: 16 << 10)
    /// Whole `Resolve` and `Candidates` replies by request bytes and replay scope (issue 13), for
    /// the connection to answer a repeated call without parsing it: 4096 at most, 8 MiB, none over 16 KiB.
    let replayReplies = MessageReplyCache(capacity: 4096, maximumBytes: 8 << 20, maximumReplyBytes: 16 << 10)
    /// `ResolveText`'s fallback plans, by stack and style (issue 12), and the coverage index, for
    /// the whole index; a view that differs (private fonts, disabled faces) keeps its own.
    let textPlans = FallbackPlanCache()
    /// Serialized listings (`ListFamilies`, `ListFaces`) of the current generation, by method and
    /// family key: 1024 at most, 32 MiB, none over 8 MiB (the whole `ListFaces` of a large system).
    let listings = ReplyCache<String>(capacity: 1024, maximumBytes: 32 << 20, maximumEntryBytes: 8 << 20)
    let logger: Logger
    let server = Mutex<(any VarlinkBroadcaster)?>(nil)
    /// Problems found at start-up that the operator must act on (a corrupt state file moved aside,
    /// persisted paths refused), shown in `GetStatus` with the scan's problems.
    package let startupProblems = Mutex<[StartupProblem]>([])
    /// Users' persistent registrations restored after `READY=1` (issue 24), while not yet done.
    let deferredRestore = Mutex<DeferredRestore?>(nil)
    /// Registrations' owners and scopes, disabled faces, Bold Text settings (issue 15).
    package let platform = PlatformRegistry()
    /// Called with each path registered (a directory or a single file), so it can be watched.
    package let rootRegistered = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Called after the platform state or the rules change without a new index (issue 13: the
    /// published snapshot follows).
    package let stateChanged = Mutex<(@Sendable () -> Void)?>(nil)

    /// - Parameters:
    ///   - registry: the registry to serve.
    ///   - store: where `persist` registrations go.
    ///   - persisted: the paths the store holds already.
    ///   - settings: access policy and allowed roots.
    package init(
        registry: FontRegistry, store: RegistrationStore, persisted: [String], settings: Settings,
        logger: Logger = Logger()
    ) {
        self.registry = registry
        self.store = store
        self.persisted = Mutex(persisted)
        self.settings = Mutex(settings)
        self.logger = logger
    }

    /// Connects the service to its server, for connection counts and `Monitor` events.
    package func attach(_ server: any VarlinkBroadcaster) {
        self.server.withLock { $0 = server }
        _ = registry.addObserver { [weak self] report in self?.announce(report) }
    }

    /// Replaces the reloadable settings (on SIGHUP).
    package func update(_ settings: Settings) {
        self.settings.withLock { $0 = settings }
        replayReplies.invalidate()
    }

    /// Sends a `Monitor` event for a change that added or removed faces.
    func announce(_ report: RegistrationReport) {
        replayReplies.invalidate()  // a new generation: every replay scope changes
        guard !report.added.isEmpty || !report.removed.isEmpty else { return }
        let server = self.server.withLock { $0 }
        // One event goes to every subscriber: it shows public faces only (issue 15); a change to
        // private faces alone is an event with no faces listed, for their owner to query again.
        server?.broadcast([
            "event": "changed", "generation": .int(report.generation),
            "faces": .int(publicFaceCount(registry.index)),
            "added": .array(publicFaces(report.added).map(\.jsonValue)),
            "removed": .array(publicFaces(report.removed).map(\.jsonValue)),
        ])
        warmViews()
    }

    /// Answers one call to `io.fontreg.Registry`; changes are checked here and deferred to the worker.
    package func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome {
        do {
            switch call.methodName {
            case "Resolve":
                return replayable(call, peer: peer) { (context) throws(VarlinkError) in
                    .encodedReply(try resolve(call, in: context))
                }
            case "ResolveMany": return try resolveMany(call, peer: peer)
            case "Layout":  // issue 27
                return replayable(call, peer: peer) { (context) throws(VarlinkError) in
                    .encodedReply(try layout(call, in: context))
                }
            case "Candidates":
                return replayable(call, peer: peer) { (context) throws(VarlinkError) in
                    .encodedReply(try candidates(call, in: context))
                }
            case "ListFamilies": return .encodedReply(try listFamilies(call, peer: peer))
            case "ListFaces": return .encodedReply(try listFaces(call, peer: peer))
            case "GetFace": return .reply(try getFace(call, peer: peer))
            case "OpenFace": return try openFace(call, peer: peer)  // issue 15
            case "ResolveText": return try resolveText(call, peer: peer)  // issue 12
            case "FaceCoverage": return .reply(try faceCoverage(call, peer: peer))  // issue 12
            case "GetStatus": return .reply(try status(call, peer: peer))
            case "ListRules": return .reply(try listRules(call))
            // Issue 15: enable/disable and Bold Text.
            case "Disable": return try disable(call, peer: peer)
            case "Enable": return try enable(call, peer: peer)
            case "SetBoldText": return try setBoldText(call, peer: peer)
            case "GetBoldText": return .reply(try getBoldText(call, peer: peer))
            case "Monitor":
                _ = try ParameterReader(call, allowed: [])
                let index = view(for: peer).index
                return .subscribe(first: [
                    "event": "subscribed", "generation": .int(index.generation), "faces": .int(index.faceCount),
                    "added": [], "removed": [],
                ])
            case "Register": return try register(call, peer: peer)
            case "Unregister": return try unregister(call, peer: peer)
            case "Rescan": return try rescan(call, peer: peer)
            default: return .failure(.methodNotFound(call.method))
            }
        } catch {
            return .failure(error)
        }
    }

    // MARK: Queries

    /// Reads a query from parameters named as the client's flags.
    static func query(from reader: ParameterReader) throws(VarlinkError) -> ResolveQuery {
        let family = try reader.string("family", maximumBytes: maximumNameBytes)
        var weight = FontWeight.regular
        if let text = try reader.optionalWeightText("weight") {
            guard let parsed = Self.weight(parsing: text) else {
                throw VarlinkError(
                    RegistryInterface.ErrorName.invalidWeight,
                    ["weight": .string(text), "acceptedNames": .array(FontWeight.acceptedNames.map { .string($0) })])
            }
            weight = parsed
        }
        var policy: BoldTextPolicy?
        if let text = try reader.optionalString("boldPolicy", maximumBytes: maximumKeywordBytes) {
            guard let parsed = BoldTextPolicy(name: text) else {
                throw VarlinkError(
                    RegistryInterface.ErrorName.invalidBoldPolicy,
                    [
                        "boldPolicy": .string(text),
                        "acceptedPolicies": .array(BoldTextPolicy.allCases.map { .string($0.rawValue) }),
                    ])
            }
            policy = parsed
        }
        var query = ResolveQuery(
            family: family, weight: weight, italic: try reader.optionalBool("italic") ?? false,
            boldText: try reader.optionalBool("boldText") ?? false, boldPolicy: policy,
            strict: try reader.optionalBool("strict") ?? false)
        try readRenderingOptions(from: reader, into: &query)
        return query
    }

    /// Reads `style`, `width`, `opticalSize` and `synthesis` (CSS's `font-style`, `font-stretch`,
    /// the text size for `opsz`, and `font-synthesis`); a value out of their grammar is `InvalidParameter`.
    static func readRenderingOptions(from reader: ParameterReader, into query: inout ResolveQuery)
        throws(VarlinkError)
    {
        if let text = try reader.optionalString("style") {
            guard let style = RequestedStyle(parsing: text) else { throw VarlinkError.invalidParameter("style") }
            // `italic: true` is the shorthand; an explicit style wins unless it is plain `normal`.
            if style != .normal || !query.italic { query.style = style }
        }
        if let text = try reader.optionalWeightText("width") {
            guard let width = FontWidth.parse(text) else { throw VarlinkError.invalidParameter("width") }
            query.width = width
        }
        if let size = try reader.optionalDouble("opticalSize") {
            guard size > 0 && size <= 10_000 else { throw VarlinkError.invalidParameter("opticalSize") }
            query.opticalSize = size
        }
        if let text = try reader.optionalString("synthesis") {
            guard let permission = SynthesisPermission(parsing: text) else {
                throw VarlinkError.invalidParameter("synthesis")
            }
            query.synthesis = permission
        }
    }

    /// Parses a weight; plain numbers, the common case, skip the name table.
    static func weight(parsing text: String) -> FontWeight? {
        if let number = Int(text) { return FontWeight(number) }
        return FontWeight(parsing: text)
    }

    /// The most queries one `ResolveMany` call may carry; more get `InvalidParameter(queries)`.
    package static let maximumBatch = 1024

    /// The longest family or PostScript name accepted, in UTF-8 bytes; a longer one gets
    /// `InvalidParameter` with `maximumBytes`.
    ///
    /// OpenType's `name` table allows long strings, but PostScript names stop at 63 bytes and
    /// real family names at a few dozen; 256 leaves room for any of them. Names are compared,
    /// hashed, echoed in replies and scored for suggestions, so the bound is what keeps a call's
    /// cost independent of what the caller sends (a 4 MiB name once held a loop for 35 s).
    package static let maximumNameBytes = 256

    /// The longest keyword accepted (a Bold Text policy such as `fallback-synthesize`), in bytes.
    package static let maximumKeywordBytes = 64

    /// The longest path accepted by `Register` and `Unregister`, in bytes (`PATH_MAX`).
    package static let maximumPathBytes = 4096

    /// The most paths one `Register` or `Unregister` call may carry.
    package static let maximumPathsPerCall = 256

    static let queryParameters: Set<String> = [
        "family", "weight", "italic", "boldText", "boldPolicy", "strict", "style", "width", "opticalSize", "synthesis",
    ]

    private func resolve(_ call: VarlinkCall, in context: ReplayContext) throws(VarlinkError) -> [UInt8] {
        let query = try Self.query(from: ParameterReader(call, allowed: Self.queryParameters))
        return try resolve(context.applyingPreferences(query, parameters: call.parameters), in: context.view)
    }

    /// The reply parameters of `Resolve` for `query` in a view, serialized, from the cache when possible.
    private func resolve(_ query: ResolveQuery, in view: VisibleView) throws(VarlinkError) -> [UInt8] {
        let generation = view.index.generation
        let key = VisibleKey(view: view.key, base: ResolveCacheKey(query))
        if let cached = replies.lookup(key, generation: generation) { return cached }
        let resolution: Resolution
        do {
            resolution = try resolve(query, in: view)
        } catch {
            throw Self.varlinkError(error)
        }
        let bytes = ResolutionReply(resolution).jsonBytes
        replies.store(bytes, for: key, generation: generation)
        return bytes
    }

    /// Forgets cached replies; call after the rules change.
    package func invalidateCaches() {
        replies.removeAll()
        replayReplies.invalidate()
        textPlans.removeAll()
        listings.removeAll()
        stateChanged.withLock { $0 }?()
    }

    /// A listing's serialized reply from the cache, or built by `make` and kept.
    private func listing(_ key: String, generation: Int, _ make: () throws(VarlinkError) -> [String: JSONValue])
        throws(VarlinkError) -> [UInt8]
    {
        if let cached = listings.lookup(key, generation: generation) { return cached }
        let bytes = JSONValue.object(try make()).serialized()
        listings.store(bytes, for: key, generation: generation)
        return bytes
    }

    /// `Candidates`: the family's faces in CSS order for the query, each with variations and synthesis.
    private func candidates(_ call: VarlinkCall, in context: ReplayContext) throws(VarlinkError) -> [UInt8] {
        let query = try Self.query(from: ParameterReader(call, allowed: Self.queryParameters))
        do {
            return try resolver(for: context.view).candidates(
                context.applyingPreferences(query, parameters: call.parameters)
            ).jsonBytes
        } catch {
            throw Self.varlinkError(error)
        }
    }

    /// Batches up to this many queries are answered on the event loop; larger ones go to the query worker.
    package static let largestBatchOnLoop = 16

    private func resolveMany(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> CallOutcome {
        let reader = try ParameterReader(call, allowed: ["queries"])
        // Without a cap, one 4 MiB call of tiny queries made a reply 40 times larger (140 MiB)
        // and held its event loop for as long as it took to build.
        let queries = try reader.objectArray("queries", maximumCount: Self.maximumBatch)
        let view = view(for: peer)
        guard queries.count > Self.largestBatchOnLoop else {
            return .encodedReply(resolveMany(queries, in: view, uid: peer.uid))
        }
        // 1,024 unknown families cost 1,024 suggestion searches: bounded, but too long to hold
        // every other connection of the loop for.
        return .offloaded { [self] in .success(resolveMany(queries, in: view, uid: peer.uid)) }
    }

    private func resolveMany(_ queries: [[String: JSONValue]], in view: VisibleView, uid: UInt32) -> [UInt8] {
        // Built as bytes so that cached replies are spliced in without being parsed again.
        var output = Array(#"{"results":["#.utf8)
        for (offset, parameters) in queries.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: ",")) }
            do {
                let bytes = try resolveElement(parameters, offset: offset, in: view, uid: uid)
                output.append(contentsOf: #"{"resolution":"#.utf8)
                output.append(contentsOf: bytes)
                output.append(UInt8(ascii: "}"))
            } catch {
                let value: JSONValue = [
                    "error": ["error": .string(error.name), "parameters": .object(error.parameters)]
                ]
                value.write(to: &output)
            }
        }
        output.append(contentsOf: "]}".utf8)
        return output
    }

    private func resolveElement(_ parameters: [String: JSONValue], offset: Int, in view: VisibleView, uid: UInt32)
        throws(VarlinkError) -> [UInt8]
    {
        let inner: ParameterReader
        do {
            inner = try ParameterReader(VarlinkCall(method: "", parameters: parameters), allowed: Self.queryParameters)
        } catch {
            throw VarlinkError.invalidParameter(
                "queries[\(offset)].\(error.parameters["parameter"]?.stringValue ?? "")")
        }
        let query: ResolveQuery
        do {
            query = try Self.query(from: inner)
        } catch {
            // A known parameter of the wrong type is named with its place in the batch too.
            guard error.name == VarlinkError.invalidParameter("").name,
                let parameter = error.parameters["parameter"]?.stringValue
            else { throw error }
            throw VarlinkError.invalidParameter("queries[\(offset)].\(parameter)")
        }
        return try resolve(applyingPreferences(query, parameters: parameters, uid: uid), in: view)
    }

    private func listFamilies(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [UInt8] {
        _ = try ParameterReader(call, allowed: [])
        let view = view(for: peer)
        let index = view.index
        return try listing(view.key + "families", generation: index.generation) { () throws(VarlinkError) in
            let families: [JSONValue] = index.families.map { family in
                // Taken once: a family of a mapped index decodes its faces on each call.
                let faces = family.faces
                var seen: Set<String> = []
                return [
                    "name": .string(family.name), "faceCount": .int(faces.count),
                    "weights": .array(Set(faces.map(\.weight)).sorted().map { .int($0) }),
                    "hasItalic": .bool(faces.contains(where: \.italic)),
                    "files": .array(faces.compactMap { seen.insert($0.file).inserted ? .string($0.file) : nil }),
                ]
            }
            return ["families": .array(families)]
        }
    }

    private func listFaces(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [UInt8] {
        let reader = try ParameterReader(call, allowed: ["family"])
        let view = view(for: peer)
        let index = view.index
        guard let name = try reader.optionalString("family", maximumBytes: Self.maximumNameBytes) else {
            return cachedFaces(
                view.key + "faces", index.faces, duplicates: DuplicateSummary.of(index), disabled: view.disabled,
                generation: index.generation)
        }
        let disabled = view.disabled.filter { FamilyKey($0.family) == FamilyKey(name) }
        guard let family = index.family(named: name) else {
            guard disabled.isEmpty else {
                return cachedFaces(
                    view.key + "faces:" + name, [], duplicates: [], disabled: disabled, generation: index.generation)
            }
            throw Self.varlinkError(
                ResolveError.familyNotFound(family: name, suggestions: index.suggestions(for: name)))
        }
        return cachedFaces(
            view.key + "faces:" + family.name, family.faces,
            duplicates: DuplicateSummary.of(index, family: family.name),
            disabled: disabled, generation: index.generation)
    }

    /// `{"duplicates": [...], "faces": [...]}` for a list of faces and the duplicate groups among
    /// them (the faces that lost are listed under `duplicates`, not `faces`, for one family), from
    /// the listing cache or written straight to bytes.
    private func cachedFaces(
        _ key: String, _ faces: [FaceRecord], duplicates: [DuplicateSummary], disabled: [FaceRecord], generation: Int
    ) -> [UInt8] {
        if let cached = listings.lookup(key, generation: generation) { return cached }
        var writer = JSONBytesWriter()
        writer.begin()
        writer.member("duplicates", .array(duplicates.map(\.jsonValue)))
        writer.member("faces") { writer in writer.array(faces) { writer, face in face.writeJSON(to: &writer) } }
        if !disabled.isEmpty {
            writer.member("disabled") { writer in writer.array(disabled) { writer, face in face.writeJSON(to: &writer) }
            }
        }
        writer.end()
        listings.store(writer.output, for: key, generation: generation)
        return writer.output
    }

    private func getFace(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [String: JSONValue] {
        let reader = try ParameterReader(call, allowed: ["postscriptName"])
        let name = try reader.string("postscriptName", maximumBytes: Self.maximumNameBytes)
        guard let face = visibleFace(postscriptName: name, peer: peer) else {
            throw VarlinkError(RegistryInterface.ErrorName.faceNotFound, ["postscriptName": .string(name)])
        }
        return ["face": face.jsonValue]
    }

    private func status(_ call: VarlinkCall, peer: PeerCredentials) throws(VarlinkError) -> [String: JSONValue] {
        _ = try ParameterReader(call, allowed: [])
        let view = view(for: peer)
        let index = view.index
        let registered = registry.registeredPaths.filter { !view.hides($0) }
        // lstat, not stat: a registered directory swapped for a link must not reveal what the link reaches.
        let directories = registered.filter {
            (try? Syscall.status(ofPath: $0, followLinks: false))?.kind == .directory
        }
        return [
            "faces": .int(index.faceCount), "families": .int(index.familyCount),
            "generation": .int(index.generation),
            "problems": .array(
                (startupProblems(shownTo: peer) + restoringProblems
                    + index.problems).filter {
                        !view.hides($0.path)
                    }.map {
                        ["path": .string($0.path), "reason": .string($0.reason)]
                    } + Self.problems(of: registry.rules)),
            "fontDirectories": .array(directories.map { .string($0) }),
            "registeredPaths": .array(registered.map { .string($0) }),
            "uptimeSeconds": .double((Date().timeIntervalSince(started) * 1000).rounded() / 1000),
            "version": .string(FontRegVersion.current),
            "connections": .int(server.withLock { $0?.connectionCount } ?? 0),
            "duplicates": .array(DuplicateSummary.of(index).map(\.jsonValue)),
        ].merging(platformStatus(view: view, peer: peer)) { a, _ in a }
    }
}
