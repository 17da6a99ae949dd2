import FontRegCore
import FontRegJSON
import FontRegSystem
import Varlink

/// The typed client of `io.fontreg.Registry`, for `fontresolve` and other Swift programs.
///
/// Wraps a ``VarlinkClient``: the one place that encodes each call's parameters and decodes
/// each reply. Errors the daemon sends come as ``VarlinkClientError/remote(_:)``
/// (``VarlinkError/explanation`` words them for people); a reply this client cannot read
/// comes as ``VarlinkClientError/malformedReply(_:)`` with
/// ``VarlinkProtocolError/invalidField(name:expected:)`` naming `parameters` and the method
/// (see ``unreadableReply(_:)``).
public final class RegistryClient {
    /// The underlying connection, for calls this class does not wrap.
    public let connection: VarlinkClient
    /// The socket this client is connected to.
    public let socketPath: String
    /// Seconds to wait for the reply of a query (`nil` waits forever).
    public var queryTimeout: Double?
    /// Seconds to wait for `Register`, `Unregister` and `Rescan`, which read font files first.
    public var changeTimeout: Double?
    private var appliedTimeout: Double?

    /// Connects to fontregd.
    ///
    /// - Parameters:
    ///   - socketPath: the daemon's socket.
    ///   - timeout: seconds to wait for a query's reply; `nil` waits forever.
    ///   - changeTimeout: seconds to wait for `Register`, `Unregister` and `Rescan`.
    /// - Throws: ``VarlinkClientError/cannotConnect(path:_:)`` when nothing listens on `socketPath`.
    public init(socketPath: String = "/run/fontreg/fontregd.sock", timeout: Double? = 30, changeTimeout: Double? = 900)
        throws(VarlinkClientError)
    {
        connection = try VarlinkClient(socketPath: socketPath, timeout: timeout)
        self.socketPath = socketPath
        queryTimeout = timeout
        self.changeTimeout = changeTimeout
        appliedTimeout = timeout
    }

    /// The error for a reply whose parameters do not have the shape of `method`'s reply.
    public static func unreadableReply(_ method: String) -> VarlinkClientError {
        .malformedReply(.invalidField(name: "parameters", expected: "a \(method) reply"))
    }

    func setTimeout(_ seconds: Double?) {
        guard seconds != appliedTimeout else { return }
        // A receive timeout of zero waits forever.
        UnixSocket.setReceiveTimeout(connection.fd, seconds: seconds ?? 0)
        appliedTimeout = seconds
    }

    func call(_ method: String, _ parameters: [String: JSONValue] = [:], change: Bool = false)
        throws(VarlinkClientError) -> [String: JSONValue]
    {
        setTimeout(change ? changeTimeout : queryTimeout)
        return try connection.call(RegistryInterface.qualified(method), parameters)
    }

    /// Decodes a reply member with its type's `Codable` shape (the interface uses the same keys).
    private func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue?, method: String) throws(VarlinkClientError)
        -> T
    {
        guard let value, let result = try? value.decode(type) else { throw Self.unreadableReply(method) }
        return result
    }

    func faces(_ value: JSONValue?, method: String) throws(VarlinkClientError) -> [FaceRecord] {
        guard let array = value?.arrayValue else { throw Self.unreadableReply(method) }
        return array.compactMap(FaceRecord.init(jsonValue:))
    }

    /// Resolves a query; the reply is the same record as `fontresolve resolve --json`.
    ///
    /// - Parameters:
    ///   - query: the query.
    ///   - statingBoldText: send `boldText` even when it is off, so the caller's Bold Text setting
    ///     (`SetBoldText`) and the daemon's default do not apply; without it an off `boldText` is left
    ///     out and the setting decides.
    public func resolve(_ query: ResolveQuery, statingBoldText: Bool = false) throws(VarlinkClientError)
        -> ResolutionReply
    {
        let parameters = try call("Resolve", query.varlinkParameters(statingBoldText: statingBoldText))
        guard let reply = ResolutionReply(parameters: parameters) else { throw Self.unreadableReply("Resolve") }
        return reply
    }

    /// The query's family, its faces in the order CSS Fonts 4 tries them, each with variations and synthesis.
    ///
    /// - Parameters:
    ///   - query: the query.
    ///   - statingBoldText: send `boldText` even when it is off, as for ``resolve(_:statingBoldText:)``.
    public func candidates(_ query: ResolveQuery, statingBoldText: Bool = false) throws(VarlinkClientError)
        -> CandidateList
    {
        let parameters = try call("Candidates", query.varlinkParameters(statingBoldText: statingBoldText))
        guard let list = CandidateList(parameters: parameters) else { throw Self.unreadableReply("Candidates") }
        return list
    }

    /// Resolves a batch in one call: each query's resolution, or the error it got.
    public func resolveMany(_ queries: [ResolveQuery]) throws(VarlinkClientError) -> [Result<
        ResolutionReply, VarlinkError
    >] {
        let parameters = try call("ResolveMany", ["queries": .array(queries.map { .object($0.varlinkParameters) })])
        guard let results = parameters["results"]?.arrayValue else { throw Self.unreadableReply("ResolveMany") }
        return results.map { result in
            if let object = result["resolution"]?.objectValue, let reply = ResolutionReply(parameters: object) {
                return .success(reply)
            }
            let error = result["error"]
            return .failure(
                VarlinkError(error?["error"]?.stringValue ?? "unknown", error?["parameters"]?.objectValue ?? [:]))
        }
    }

    /// The faces of one family (by any spelling of its name), or every registered face.
    public func faces(family: String? = nil) throws(VarlinkClientError) -> [FaceRecord] {
        let parameters = try call("ListFaces", family.map { ["family": .string($0)] } ?? [:])
        return try faces(parameters["faces"], method: "ListFaces")
    }

    /// The registered families with a summary of their faces, sorted by name.
    public func families() throws(VarlinkClientError) -> [FamilySummary] {
        try decode([FamilySummary].self, call("ListFamilies")["families"], method: "ListFamilies")
    }

    /// The registered family names, sorted.
    public func familyNames() throws(VarlinkClientError) -> [String] {
        try families().map(\.name)
    }

    /// A face by PostScript name, ignoring case.
    ///
    /// - Throws: ``VarlinkClientError/remote(_:)`` with `FaceNotFound` when no face has that name.
    public func face(postscriptName: String) throws(VarlinkClientError) -> FaceRecord {
        let reply = try call("GetFace", ["postscriptName": .string(postscriptName)])
        guard let face = reply["face"].flatMap(FaceRecord.init(jsonValue:)) else {
            throw Self.unreadableReply("GetFace")
        }
        return face
    }

    /// Registers files or directories (absolute paths); with `persist`, they survive restarts.
    ///
    /// - Parameter scope: `connection`, `session` (`runtime`) or `persistent` (issue 15); `nil`
    ///   leaves it to `persist`.
    @discardableResult
    public func register(paths: [String], persist: Bool = false, scope: String? = nil) throws(VarlinkClientError)
        -> RegistrationReport
    {
        var parameters: [String: JSONValue] = ["paths": .array(paths.map { .string($0) })]
        if persist { parameters["persist"] = true }
        if let scope { parameters["scope"] = .string(scope) }
        return try report(call("Register", parameters, change: true), method: "Register")
    }

    /// Unregisters files or directories registered before (absolute paths).
    @discardableResult
    public func unregister(paths: [String]) throws(VarlinkClientError) -> RegistrationReport {
        let parameters: [String: JSONValue] = ["paths": .array(paths.map { .string($0) })]
        return try report(call("Unregister", parameters, change: true), method: "Unregister")
    }

    /// Makes the daemon re-read every registered directory and file.
    @discardableResult
    public func rescan() throws(VarlinkClientError) -> RegistrationReport {
        try report(call("Rescan", change: true), method: "Rescan")
    }

    private func report(_ reply: [String: JSONValue], method: String) throws(VarlinkClientError)
        -> RegistrationReport
    {
        RegistrationReport(
            added: try reply["added"] == nil ? [] : faces(reply["added"], method: method),
            removed: try reply["removed"] == nil ? [] : faces(reply["removed"], method: method),
            problems: try reply["problems"] == nil ? [] : decode([ScanProblem].self, reply["problems"], method: method),
            generation: reply["generation"]?.intValue ?? 0)
    }

    /// The daemon's status: counts, generation, problems, directories, uptime, version, connections.
    public func status() throws(VarlinkClientError) -> RegistryStatus {
        var reply = try call("GetStatus")
        reply["mode"] = .string(RegistryStatus.Mode.daemon.rawValue)
        reply["socket"] = .string(socketPath)
        return try decode(RegistryStatus.self, .object(reply), method: "GetStatus")
    }

    /// The family rules the daemon resolves with (`ListRules`).
    ///
    /// - Throws: ``VarlinkClientError`` for a transport failure, an error reply, or a reply this
    ///   client cannot read (``unreadableReply(_:)``).
    public func rules() throws(VarlinkClientError) -> RuleSet {
        guard let rules = RuleSet(listRulesReply: try call("ListRules")) else {
            throw Self.unreadableReply("ListRules")
        }
        return rules
    }

    /// Follows `Monitor`: the state when it starts, then every change, until `body` returns `false`
    /// or the daemon ends the stream. Waits for changes without a timeout.
    ///
    /// - Throws: ``VarlinkClientError/connectionClosed`` and other transport errors when the daemon stops.
    public func monitor(_ body: (RegistryEvent) -> Bool) throws(VarlinkClientError) {
        setTimeout(nil)
        try connection.stream(RegistryInterface.qualified("Monitor")) {
            (parameters) throws(VarlinkClientError) -> Bool in
            let event = RegistryEvent(
                event: parameters["event"]?.stringValue.flatMap(RegistryEvent.Kind.init(rawValue:)) ?? .changed,
                generation: parameters["generation"]?.intValue ?? 0, faces: parameters["faces"]?.intValue ?? 0,
                added: (parameters["added"]?.arrayValue ?? []).compactMap(FaceRecord.init(jsonValue:)),
                removed: (parameters["removed"]?.arrayValue ?? []).compactMap(FaceRecord.init(jsonValue:)))
            return body(event)
        }
    }
}
