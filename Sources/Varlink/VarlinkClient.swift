import FontRegJSON
import FontRegSystem

/// A blocking Varlink client over a Unix stream socket, for `fontresolve`, tests and benchmarks.
///
/// One call at a time with ``call(_:_:)``, or pipelined with ``send(_:)`` and
/// ``receive()``: replies come back in call order. Not thread-safe: use one client
/// per thread.
public final class VarlinkClient {
    /// The connected socket.
    package let fd: Int32
    private var framer: MessageFramer
    private var closed = false

    /// Connects to the Varlink service listening on `socketPath`.
    ///
    /// - Parameters:
    ///   - socketPath: the path of the service's Unix socket.
    ///   - timeout: seconds to wait for each read; `nil` waits forever.
    ///   - maximumReplySize: the longest reply accepted, in bytes.
    /// - Throws: ``VarlinkClientError/cannotConnect(path:_:)``.
    public init(socketPath: String, timeout: Double? = 30, maximumReplySize: Int = 64 << 20)
        throws(VarlinkClientError)
    {
        let fd: Int32
        do {
            fd = try UnixSocket.stream(nonBlocking: false)
        } catch {
            throw .cannotConnect(path: socketPath, error)
        }
        do {
            try UnixSocket.connect(fd, to: socketPath)
        } catch {
            Syscall.close(fd)
            throw .cannotConnect(path: socketPath, error)
        }
        if let timeout { UnixSocket.setReceiveTimeout(fd, seconds: timeout) }
        self.fd = fd
        self.timeout = timeout
        self.framer = MessageFramer(maximumMessageSize: maximumReplySize)
    }

    private let timeout: Double?

    deinit {
        close()
    }

    /// Closes the connection.
    public func close() {
        if !closed {
            closed = true
            Syscall.close(fd)
        }
    }

    /// Calls a method and returns its reply parameters.
    ///
    /// - Throws: ``VarlinkClientError/remote(_:)`` for an error reply, other cases for transport failures.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(VarlinkClientError)
        -> [String: JSONValue]
    {
        try sendCall(method, parameters)
        let reply = try receive()
        if let error = reply.error { throw .remote(VarlinkError(error, reply.parameters)) }
        return reply.parameters
    }

    /// Calls a method and hands a plain reply's parameters to `direct`, a reader of their bytes,
    /// before any parse (issue 29 item 4: `ResolveText`'s compact reply).
    ///
    /// When the reply is exactly `{"parameters":` *P* `}`, what this project's server writes for
    /// a success, `direct` gets the bytes of *P*; what it returns is the answer. When it returns
    /// `nil`, or the reply has another shape (an error, `continues`, other spacing), the reply is
    /// parsed as ``call(_:_:)`` parses it and `general` reads its parameters. So `direct` must read
    /// *P* whole or give up: it need not know every form `general` accepts.
    ///
    /// - Returns: the answer, or `nil` when `general` could not read the parameters.
    /// - Throws: as ``call(_:_:)``: ``VarlinkClientError/remote(_:)`` for an error reply, other cases
    ///   for transport failures and malformed replies.
    package func call<Answer>(
        _ method: String, _ parameters: [String: JSONValue], direct: (UnsafeBufferPointer<UInt8>) -> Answer?,
        general: ([String: JSONValue]) -> Answer?
    ) throws(VarlinkClientError) -> Answer? {
        try sendCall(method, parameters)
        while true {
            let received: Received<Answer>?
            do {
                received = try framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> Received<Answer> in
                    if let inner = Self.plainParameters(bytes), let answer = direct(inner) { return .read(answer) }
                    return .parsed(try VarlinkReply(parsing: bytes))
                }
            } catch {
                throw .malformedReply(error)
            }
            switch received {
            case .read(let answer)?: return answer
            case .parsed(let reply)?:
                if let error = reply.error { throw .remote(VarlinkError(error, reply.parameters)) }
                return general(reply.parameters)
            case nil: try fill()
            }
        }
    }

    /// A reply read by a direct reader, or parsed.
    private enum Received<Answer> {
        case read(Answer)
        case parsed(VarlinkReply)
    }

    private static let plainReplyPrefix = Array(#"{"parameters":"#.utf8)

    /// The bytes of *P* when `message` is exactly `{"parameters":` *P* `}`.
    private static func plainParameters(_ message: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let prefix = plainReplyPrefix.count
        guard message.count > prefix + 1, message[message.count - 1] == UInt8(ascii: "}"),
            message.starts(with: plainReplyPrefix)
        else { return nil }
        return UnsafeBufferPointer(rebasing: message[prefix..<(message.count - 1)])
    }

    /// Sends a call that expects a reply.
    private func sendCall(_ method: String, _ parameters: [String: JSONValue]) throws(VarlinkClientError) {
        do {
            try send(VarlinkCall(method: method, parameters: parameters))
        } catch .io(let error) where error.errno == .brokenPipe || error.errno == .connectionReset {
            // The service may have refused the connection (too many connections) before the call
            // went out: its one error reply is still there to read and says why.
            guard let reply = try? receive(), let name = reply.error else { throw .io(error) }
            throw .remote(VarlinkError(name, reply.parameters))
        }
    }

    /// Sends a call without waiting for its reply (for pipelining and `oneway`).
    public func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        try sendRaw(call.serialized())
    }

    /// Sends bytes as they are: for tests that need malformed or partial messages.
    package func sendRaw(_ bytes: [UInt8]) throws(VarlinkClientError) {
        var offset = 0
        while offset < bytes.count {
            let written: Int?
            do {
                written = try UnixSocket.send(fd, bytes, from: offset)
            } catch {
                throw .io(error)
            }
            // A blocking socket only reports "would block" when a send timeout expires.
            guard let written else { throw .timedOut(seconds: timeout ?? 0) }
            offset += written
        }
    }

    /// Receives the next reply, error replies included.
    ///
    /// - Throws: ``VarlinkClientError/connectionClosed`` when the service closed the connection.
    public func receive() throws(VarlinkClientError) -> VarlinkReply {
        while true {
            let reply: VarlinkReply?
            do {
                reply = try framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> VarlinkReply in
                    try VarlinkReply(parsing: bytes)
                }
            } catch {
                throw .malformedReply(error)
            }
            if let reply { return reply }
            try fill()
        }
    }

    /// Receives the next message as raw bytes (without its NUL), unparsed: for benchmarks and tools
    /// that only relay replies. An error reply starts with `{"error"`, as keys are sorted.
    package func receiveMessage() throws(VarlinkClientError) -> [UInt8] {
        while true {
            let message: [UInt8]?
            do {
                message = try framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> [UInt8] in Array(bytes) }
            } catch {
                throw .malformedReply(error)
            }
            if let message { return message }
            try fill()
        }
    }

    private var chunk = [UInt8](repeating: 0, count: 65536)
    /// Descriptors the service passed with replies (`SCM_RIGHTS`), oldest first, not yet taken.
    private var passedDescriptors: [FileDescriptor] = []

    // Issue 15 (OpenFace): a reply that carries descriptors.
    /// Calls a method whose reply passes descriptors, and returns the parameters with them.
    ///
    /// The reply's parameters name the descriptors by index into the returned array, as systemd's
    /// sd-varlink does (`OpenFace` answers `fileDescriptor: 0`).
    /// - Throws: ``VarlinkClientError/remote(_:)`` for an error reply, other cases for transport failures.
    package func callReceivingDescriptors(_ method: String, _ parameters: [String: JSONValue] = [:])
        throws(VarlinkClientError) -> (parameters: [String: JSONValue], descriptors: [FileDescriptor])
    {
        passedDescriptors = []
        let reply = try call(method, parameters)
        defer { passedDescriptors = [] }
        return (reply, passedDescriptors)
    }

    private func fill() throws(VarlinkClientError) {
        let received: Int?
        do {
            received = try UnixSocket.receive(fd, into: &chunk, descriptors: &passedDescriptors)
            if passedDescriptors.count > 16 { passedDescriptors.removeFirst(passedDescriptors.count - 16) }
        } catch {
            if error.errno == .connectionReset { throw .connectionClosed }
            throw .io(error)
        }
        // A blocking socket only reports "would block" when the receive timeout expires.
        guard let count = received else { throw .timedOut(seconds: timeout ?? 0) }
        if count == 0 { throw .connectionClosed }
        chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Calls a method with `more` and hands each reply to `body` until the stream ends or `body` returns false.
    ///
    /// - Throws: ``VarlinkClientError/remote(_:)`` for an error reply.
    public func stream(
        _ method: String, _ parameters: [String: JSONValue] = [:],
        _ body: ([String: JSONValue]) throws(VarlinkClientError) -> Bool
    ) throws(VarlinkClientError) {
        try send(VarlinkCall(method: method, parameters: parameters, more: true))
        while true {
            let reply = try receive()
            if let error = reply.error { throw .remote(VarlinkError(error, reply.parameters)) }
            if try !body(reply.parameters) || !reply.continues { return }
        }
    }
}
