import FontRegCore
import FontRegJSON
import FontRegSystem
import Varlink

/// A typed client of `io.fontreg.Registry`, for `fontresolve` and other Swift programs.
///
/// Wraps a ``VarlinkClient``; every method is one call. Errors the daemon sends come as
/// ``VarlinkClientError/remote(_:)``; ``VarlinkError/explanation`` words them for people.
public final class RegistryClient {
    /// The underlying connection, for calls this class does not wrap.
    public let connection: VarlinkClient

    /// Connects to fontregd.
    ///
    /// - Throws: ``VarlinkClientError/cannotConnect(path:_:)`` when nothing listens on `socketPath`.
    public init(socketPath: String = "/run/fontreg/fontregd.sock", timeout: Double? = 30) throws(VarlinkClientError) {
        connection = try VarlinkClient(socketPath: socketPath, timeout: timeout)
    }

    private func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(VarlinkClientError)
        -> [String: JSONValue]
    {
        try connection.call(RegistryInterface.qualified(method), parameters)
    }

    /// Resolves a query; the reply is the same record as `fontresolve resolve --json`.
    public func resolve(_ query: ResolveQuery) throws(VarlinkClientError) -> ResolutionReply {
        let parameters = try call("Resolve", query.varlinkParameters)
        guard let reply = ResolutionReply(parameters: parameters) else {
            throw .malformedReply(.invalidField(name: "parameters", expected: "a Resolve reply"))
        }
        return reply
    }

    /// Resolves a batch in one call: each query's resolution, or the error it got.
    public func resolveMany(_ queries: [ResolveQuery]) throws(VarlinkClientError) -> [Result<
        ResolutionReply, VarlinkError
    >] {
        let parameters = try call("ResolveMany", ["queries": .array(queries.map { .object($0.varlinkParameters) })])
        return (parameters["results"]?.arrayValue ?? []).map { result in
            if let object = result["resolution"]?.objectValue, let reply = ResolutionReply(parameters: object) {
                return .success(reply)
            }
            let error = result["error"]
            return .failure(
                VarlinkError(error?["error"]?.stringValue ?? "unknown", error?["parameters"]?.objectValue ?? [:]))
        }
    }

    /// The faces of one family, or every registered face.
    public func faces(family: String? = nil) throws(VarlinkClientError) -> [FaceRecord] {
        let parameters = try call("ListFaces", family.map { ["family": .string($0)] } ?? [:])
        return (parameters["faces"]?.arrayValue ?? []).compactMap { FaceRecord(jsonValue: $0) }
    }

    /// The registered family names, sorted.
    public func familyNames() throws(VarlinkClientError) -> [String] {
        (try call("ListFamilies")["families"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    /// A face by PostScript name.
    public func face(postscriptName: String) throws(VarlinkClientError) -> FaceRecord? {
        try call("GetFace", ["postscriptName": .string(postscriptName)])["face"].flatMap { FaceRecord(jsonValue: $0) }
    }

    /// Registers files or directories; with `persist`, they survive restarts. Returns the faces added.
    @discardableResult
    public func register(paths: [String], persist: Bool = false) throws(VarlinkClientError) -> [FaceRecord] {
        var parameters: [String: JSONValue] = ["paths": .array(paths.map { .string($0) })]
        if persist { parameters["persist"] = true }
        return (try call("Register", parameters)["added"]?.arrayValue ?? []).compactMap { FaceRecord(jsonValue: $0) }
    }

    /// Unregisters files or directories. Returns the faces removed.
    @discardableResult
    public func unregister(paths: [String]) throws(VarlinkClientError) -> [FaceRecord] {
        let parameters: [String: JSONValue] = ["paths": .array(paths.map { .string($0) })]
        return (try call("Unregister", parameters)["removed"]?.arrayValue ?? []).compactMap {
            FaceRecord(jsonValue: $0)
        }
    }

    /// Makes the daemon re-read every registered directory and file; returns the new generation.
    @discardableResult
    public func rescan() throws(VarlinkClientError) -> Int {
        try call("Rescan")["generation"]?.intValue ?? 0
    }

    /// The daemon's status: counts, generation, problems, directories, uptime, version, connections.
    public func status() throws(VarlinkClientError) -> [String: JSONValue] {
        try call("GetStatus")
    }
}
