import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Foundation
import Glibc
import Synchronization
import Varlink

/// `io.fontreg.Registry` served in memory: a ``RegistryService`` over a registry of chosen
/// fixture fonts, called through ``VarlinkConnection`` as a chosen peer, with no socket and no process.
///
/// The bytes take the daemon's own path: a connection frames NUL-terminated messages, decodes
/// calls, answers `org.varlink.service`, `oneway` and `more`, and dispatches to the service with
/// the peer's credentials, as the event loop does. What the daemon runs on its workers (changes,
/// large queries) runs at once, in call order. What needs the kernel (socket credentials, file
/// permissions checked as the caller, signals, the sandbox, systemd) stays with ``DaemonProcess``.
package final class InMemoryRegistry {
    /// root: may change the registry, as in the daemon's default configuration.
    package static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)

    /// A peer that is not root: `uid`, primary group `gid` (`uid` by default) and `groups`.
    package static func user(_ uid: UInt32, gid: UInt32? = nil, groups: [UInt32] = [], pid: Int32 = 2)
        -> PeerCredentials
    {
        PeerCredentials(pid: pid, uid: uid, gid: gid ?? uid, groups: groups)
    }

    /// The temporary directory holding the state, the cache and whatever the test puts there.
    package let directory = TemporaryDirectory()
    /// The service called.
    package let service: RegistryService
    /// The server's side of `more`: hands each event the service sends to the connections subscribed then.
    private let events = EventBroadcaster()
    /// The longest message a connection accepts, in bytes (`--max-message-size`).
    private let maximumMessageSize: Int
    /// The last connection number handed out (the daemon numbers from 1 too).
    private let lastConnection = Atomic<UInt64>(0)

    /// The state directory (`--state-dir`).
    package var stateDirectory: String { directory.file("state") }
    /// Where users register their own fonts (`user-font-root` in fontregd.conf): absolute, so that test uids need
    /// no home in the user database.
    var userFontRoot: String { directory.file("users") }

    /// Builds the service over `fonts`, as `fontregd --no-system-fonts --fonts …` would.
    ///
    /// - Parameters:
    ///   - fonts: font directories (all the fixture fonts by default).
    ///   - access: who may change the registry (root by default).
    ///   - allowedRoots: where `Register` accepts paths (`--allow-root`).
    ///   - maximumMessageSize: the longest message accepted, in bytes.
    ///   - configure: changes to the platform settings (users' font roots, Bold Text).
    /// - Throws: what scanning the fonts throws.
    package init(
        fonts: [String] = [BuildProducts.fixtureFonts], access: AccessPolicy = AccessPolicy(),
        allowedRoots: [String] = [], maximumMessageSize: Int = 1 << 20,
        configure: (inout PlatformSettings) -> Void = { _ in }
    ) throws {
        try FileManager.default.createDirectory(
            atPath: directory.file("users"), withIntermediateDirectories: true)
        var platform = PlatformSettings()
        platform.userFontRoots = [directory.file("users")]
        configure(&platform)
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: fonts, cacheDirectory: directory.file("cache")))
        self.maximumMessageSize = maximumMessageSize
        service = RegistryService(
            registry: registry, store: RegistrationStore(directory: directory.file("state")), persisted: [],
            settings: .init(access: access, allowedRoots: AllowedRoots(allowedRoots), platform: platform),
            logger: Logger(minimumLevel: .error))
        _ = service.restorePlatformState()
        service.attach(events)
    }

    /// A directory in ``userFontRoot`` owned by `owner` (uid and gid), holding copies of `fonts` (paths).
    package func userFontDirectory(_ name: String, owner: UInt32, copying fonts: [String] = []) throws -> String {
        let path = userFontRoot + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chown(path, owner, owner)
        for font in fonts {
            let copy = path + "/" + URL(fileURLWithPath: font).lastPathComponent
            try FileManager.default.copyItem(atPath: font, toPath: copy)
            chown(copy, owner, owner)
        }
        return path
    }

    /// Opens a connection as `peer` (root by default).
    package func connect(as peer: PeerCredentials = InMemoryRegistry.root) -> InMemoryConnection {
        let numbered = PeerCredentials(
            pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: peer.groups,
            connection: lastConnection.add(1, ordering: .relaxed).newValue)
        let connection = InMemoryConnection(
            VarlinkConnection(
                peer: numbered, service: service, maximumMessageSize: maximumMessageSize,
                errors: RegistryService.limitErrors),
            service: service)
        events.add(connection)
        return connection
    }

    /// Calls `io.fontreg.Registry.<method>` on a new connection as `peer` and returns the reply.
    ///
    /// - Throws: ``VarlinkClientError/remote(_:)`` for an error reply, as ``VarlinkClient`` does.
    @discardableResult
    package func call(
        _ method: String, _ parameters: [String: JSONValue] = [:], as peer: PeerCredentials = InMemoryRegistry.root
    ) throws(VarlinkClientError) -> [String: JSONValue] {
        let connection = connect(as: peer)
        defer { connection.close() }
        return try connection.call("io.fontreg.Registry." + method, parameters)
    }
}

/// One connection to an ``InMemoryRegistry``, with ``VarlinkClient``'s calls: what a test sends
/// goes through ``VarlinkConnection`` as bytes, and what it receives is the bytes it wrote.
package final class InMemoryConnection: Sendable {
    private let state: Mutex<VarlinkConnection>
    private let service: RegistryService
    /// Replies written and not yet received, oldest first.
    private let unread = Mutex<[UInt8]>([])
    /// Whether the connection was closed by ``close()``.
    private let closed = Atomic<Bool>(false)

    init(_ state: VarlinkConnection, service: RegistryService) {
        self.state = Mutex(state)
        self.service = service
    }

    /// A connection as `peer` to a service built by the test (one that no ``InMemoryRegistry`` holds).
    package convenience init(service: RegistryService, peer: PeerCredentials, maximumMessageSize: Int = 1 << 20) {
        self.init(
            VarlinkConnection(
                peer: peer, service: service, maximumMessageSize: maximumMessageSize,
                errors: RegistryService.limitErrors),
            service: service)
    }

    /// Who the service sees on the other end.
    package var peer: PeerCredentials { state.withLock { $0.peer } }

    /// Whether the connection would be closed by the daemon now (after a protocol error, or at
    /// the end of the peer's input once everything is answered).
    package var shouldClose: Bool { state.withLock { $0.shouldClose } }

    /// Whether the connection follows a `more` stream.
    package var subscribed: Bool { state.withLock { $0.subscribed } }

    /// Calls a method and returns its reply parameters.
    ///
    /// - Throws: ``VarlinkClientError/remote(_:)`` for an error reply; ``VarlinkClientError/connectionClosed``
    ///   when no reply came.
    @discardableResult
    package func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(VarlinkClientError)
        -> [String: JSONValue]
    {
        send(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive()
        if let error = reply.error { throw .remote(VarlinkError(error, reply.parameters)) }
        return reply.parameters
    }

    /// Sends a call (with `oneway` or `more` as it says) and answers what can be answered.
    package func send(_ call: VarlinkCall) {
        sendRaw(call.serialized())
    }

    /// Sends bytes as they are (malformed or partial messages too) and answers what can be answered.
    package func sendRaw(_ bytes: [UInt8]) {
        state.withLock { $0.receive(bytes) }
        answer()
    }

    /// The peer shuts down its sending side: what is buffered is answered, then the connection closes.
    func sendEnd() {
        state.withLock { $0.receiveEnd() }
        answer()
    }

    /// The next reply, error replies included, parsed.
    ///
    /// - Throws: ``VarlinkClientError/connectionClosed`` when no reply is waiting;
    ///   ``VarlinkClientError/malformedReply(_:)`` when the bytes written are not a reply.
    package func receive() throws(VarlinkClientError) -> VarlinkReply {
        let message = try receiveMessage()
        do {
            return try message.withUnsafeBufferPointer { (bytes) throws(VarlinkProtocolError) in
                try VarlinkReply(parsing: bytes)
            }
        } catch {
            throw .malformedReply(error)
        }
    }

    /// The next reply as the bytes written, without its NUL.
    ///
    /// - Throws: ``VarlinkClientError/connectionClosed`` when no whole reply is waiting.
    package func receiveMessage() throws(VarlinkClientError) -> [UInt8] {
        let output = state.withLock { $0.takeOutput() }
        return try unread.withLock { (unread) throws(VarlinkClientError) -> [UInt8] in
            unread += output
            guard let nul = unread.firstIndex(of: 0) else { throw .connectionClosed }
            let message = Array(unread[..<nul])
            unread.removeSubrange(...nul)
            return message
        }
    }

    /// Every reply waiting, parsed, oldest first.
    package func receiveAll() throws(VarlinkClientError) -> [VarlinkReply] {
        var replies: [VarlinkReply] = []
        while hasUnreadReply { replies.append(try receive()) }
        return replies
    }

    /// Whether a whole reply is waiting.
    package var hasUnreadReply: Bool {
        let output = state.withLock { $0.takeOutput() }
        return unread.withLock {
            $0 += output
            return $0.contains(0)
        }
    }

    /// Closes the connection: the service forgets what it kept for it (connection-scoped registrations).
    package func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        service.connectionClosed(peer)
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { closed.load(ordering: .relaxed) }

    /// Queues a `more` event if the connection is subscribed.
    ///
    /// An event sent while this connection's own call is being answered finds it locked, and
    /// not subscribed (a subscriber answers no calls): it is not for this connection.
    func deliver(_ event: [UInt8]) {
        _ = state.withLockIfAvailable { _ = $0.deliver(event: event, limit: Int.max) }
    }

    /// Answers the calls buffered, running deferred and offloaded work at once, as the workers would.
    private func answer() {
        while true {
            let step = state.withLock { $0.process(maximumCalls: 64, outputLimit: Int.max) }
            switch step {
            case .waiting, .violated: return
            case .yielded: continue
            case .deferred(let work):
                let result = work()
                state.withLock { $0.complete(result) }
            case .offloaded(let work):
                let result = work()
                state.withLock { $0.complete(encoded: result) }
            }
        }
    }

    deinit { close() }
}

/// The server's side of `more`: counts the open connections and sends events to subscribers.
private final class EventBroadcaster: VarlinkBroadcaster {
    private struct Weak { weak var connection: InMemoryConnection? }
    private let connections = Mutex<[Weak]>([])

    func add(_ connection: InMemoryConnection) {
        connections.withLock { list in
            list.removeAll { $0.connection == nil || $0.connection?.isClosed == true }
            list.append(Weak(connection: connection))
        }
    }

    private var open: [InMemoryConnection] {
        connections.withLock { $0.compactMap(\.connection).filter { !$0.isClosed } }
    }

    var connectionCount: Int { open.count }

    func broadcast(_ parameters: [String: JSONValue]) {
        let event = VarlinkReply(parameters: parameters, continues: true).serialized()
        for connection in open { connection.deliver(event) }
    }
}
