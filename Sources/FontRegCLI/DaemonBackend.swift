import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Foundation
import Varlink

/// The daemon's registry, over its Varlink socket (interface `io.fontreg.Registry`).
///
/// Replies are decoded into the same values the embedded backend returns, and errors
/// become sentences with the exit status they deserve (see ``DaemonErrorTranslator``).
package final class DaemonBackend: RegistryBackend {
    /// The socket this backend talks to.
    package let socketPath: String
    private let client: VarlinkClient

    /// Seconds to wait for a query's reply.
    static let queryTimeout = 60.0
    /// Seconds to wait for `Register` and `Rescan`, which read font files first.
    static let changeTimeout = 900.0

    /// Connects to the daemon.
    ///
    /// - Throws: ``CLIError/daemonUnreachable(socket:reason:)`` when nothing answers there,
    ///   ``CLIError/permissionDenied(_:)`` when the socket is closed to this user.
    package init(socketPath: String) throws(CLIError) {
        self.socketPath = socketPath
        do {
            client = try VarlinkClient(socketPath: socketPath, timeout: Self.queryTimeout)
        } catch {
            throw DaemonErrorTranslator(socketPath: socketPath).translate(error)
        }
    }

    /// Calls a method of the registry interface.
    private func call(_ method: String, _ parameters: [String: JSONValue] = [:], timeout: Double = queryTimeout)
        throws(CLIError) -> [String: JSONValue]
    {
        setTimeout(timeout)
        do {
            return try client.call(RegistryInterface.qualified(method), parameters)
        } catch {
            throw DaemonErrorTranslator(socketPath: socketPath).translate(error)
        }
    }

    private func setTimeout(_ seconds: Double?) {
        var value = timeval(
            tv_sec: Int(seconds ?? 0), tv_usec: Int(((seconds ?? 0) - (seconds ?? 0).rounded(.down)) * 1_000_000))
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Decodes a reply value with the types' `Codable` shape (the interface uses the same keys).
    private func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue?, method: String) throws(CLIError) -> T {
        guard let value, let result = try? JSONDecoder().decode(T.self, from: Data(value.description.utf8)) else {
            throw CLIError.failed(
                "fontregd at \(socketPath) sent a \(method) reply this fontresolve cannot read; are both the same version?"
            )
        }
        return result
    }

    package func resolve(_ query: ResolveQuery) throws(CLIError) -> ResolutionReply {
        var parameters: [String: JSONValue] = [
            "family": .string(query.family), "weight": .string(String(query.weight.value)),
            "italic": .bool(query.italic), "boldText": .bool(query.boldText), "strict": .bool(query.strict),
        ]
        if let policy = query.boldPolicy { parameters["boldPolicy"] = .string(policy.rawValue) }
        let reply = try call("Resolve", parameters)
        guard let resolution = ResolutionReply(parameters: reply) else {
            throw CLIError.failed(
                "fontregd at \(socketPath) sent a Resolve reply this fontresolve cannot read; are both the same version?"
            )
        }
        return resolution
    }

    package func families() throws(CLIError) -> [FamilySummary] {
        try decode([FamilySummary].self, call("ListFamilies")["families"], method: "ListFamilies")
    }

    package func faces(family: String?) throws(CLIError) -> [FaceRecord] {
        let reply = try call("ListFaces", family.map { ["family": .string($0)] } ?? [:])
        return try faces(reply["faces"], method: "ListFaces")
    }

    private func faces(_ value: JSONValue?, method: String) throws(CLIError) -> [FaceRecord] {
        guard let array = value?.arrayValue else {
            throw CLIError.failed(
                "fontregd at \(socketPath) sent a \(method) reply without faces; are both the same version?")
        }
        return array.compactMap(FaceRecord.init(jsonValue:))
    }

    package func face(postscriptName: String) throws(CLIError) -> FaceRecord {
        let reply = try call("GetFace", ["postscriptName": .string(postscriptName)])
        guard let face = reply["face"].flatMap(FaceRecord.init(jsonValue:)) else {
            throw CLIError.failed(
                "fontregd at \(socketPath) sent a GetFace reply without a face; are both the same version?")
        }
        return face
    }

    package func register(paths: [String], persist: Bool) throws(CLIError) -> RegistrationReport {
        let reply = try call(
            "Register", ["paths": .array(paths.map { .string($0) }), "persist": .bool(persist)],
            timeout: Self.changeTimeout)
        return try report(reply, method: "Register")
    }

    package func unregister(paths: [String]) throws(CLIError) -> RegistrationReport {
        let reply = try call("Unregister", ["paths": .array(paths.map { .string($0) })], timeout: Self.changeTimeout)
        return try report(reply, method: "Unregister")
    }

    package func rescan() throws(CLIError) -> RegistrationReport {
        try report(call("Rescan", timeout: Self.changeTimeout), method: "Rescan")
    }

    private func report(_ reply: [String: JSONValue], method: String) throws(CLIError) -> RegistrationReport {
        RegistrationReport(
            added: try reply["added"] == nil ? [] : faces(reply["added"], method: method),
            removed: try reply["removed"] == nil ? [] : faces(reply["removed"], method: method),
            problems: try reply["problems"] == nil ? [] : decode([ScanProblem].self, reply["problems"], method: method),
            generation: reply["generation"]?.intValue ?? 0)
    }

    package func status() throws(CLIError) -> RegistryStatus {
        var reply = try call("GetStatus")
        reply["mode"] = "daemon"
        reply["socket"] = .string(socketPath)
        return try decode(RegistryStatus.self, .object(reply), method: "GetStatus")
    }

    /// The family rules the daemon resolves with (`ListRules`), so `rules show` and `audit` use the real ones.
    package func rules() throws(CLIError) -> RuleSet {
        guard let rules = RuleSet(listRulesReply: try call("ListRules")) else {
            throw CLIError.failed(
                "fontregd at \(socketPath) sent a ListRules reply this fontresolve cannot read; are both the same version?"
            )
        }
        return rules
    }

    /// Follows `Monitor` until `body` returns `false`; waits for changes without a timeout.
    ///
    /// - Throws: ``CLIError/daemonUnreachable(socket:reason:)`` when the daemon stops.
    package func watch(_ body: (RegistryEvent) -> Bool) throws(CLIError) {
        setTimeout(nil)
        let translator = DaemonErrorTranslator(socketPath: socketPath)
        var failure: CLIError?
        do {
            try client.stream(RegistryInterface.qualified("Monitor")) {
                (parameters) throws(VarlinkClientError) -> Bool in
                let event = RegistryEvent(
                    event: parameters["event"]?.stringValue ?? "changed",
                    generation: parameters["generation"]?.intValue ?? 0, faces: parameters["faces"]?.intValue ?? 0,
                    added: (parameters["added"]?.arrayValue ?? []).compactMap(FaceRecord.init(jsonValue:)),
                    removed: (parameters["removed"]?.arrayValue ?? []).compactMap(FaceRecord.init(jsonValue:)))
                return body(event)
            }
        } catch {
            failure = translator.translate(error)
        }
        if let failure { throw failure }
        throw CLIError.daemonUnreachable(
            socket: socketPath, reason: "the daemon ended the Monitor stream (it is stopping)")
    }
}
