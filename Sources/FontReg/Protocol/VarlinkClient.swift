import Glibc
internal import CShim

/// A blocking Varlink client over a Unix stream socket, for `fontresolve`, tests and benchmarks.
///
/// One call at a time with ``call(_:_:)``, or pipelined with ``send(_:)`` and
/// ``receive()``: replies come back in call order. Not thread-safe: use one client
/// per thread.
public final class VarlinkClient {
    /// The connected socket.
    public let fd: Int32
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
            fd = try Syscall.run("socket") { cshim_unix_stream_socket(0) }
            try Syscall.run("connect", subject: socketPath) { cshim_connect_unix(fd, socketPath) }
        } catch {
            throw .cannotConnect(path: socketPath, error)
        }
        if let timeout {
            var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
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
        try send(VarlinkCall(method: method, parameters: parameters))
        let reply = try receive()
        if let error = reply.error { throw .remote(VarlinkError(error, reply.parameters)) }
        return reply.parameters
    }

    /// Sends a call without waiting for its reply (for pipelining and `oneway`).
    public func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        try sendRaw(call.serialized())
    }

    /// Sends bytes as they are: for tests that need malformed or partial messages.
    public func sendRaw(_ bytes: [UInt8]) throws(VarlinkClientError) {
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do {
                written = try Syscall.run("send") {
                    bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                throw .io(error)
            }
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
    public func receiveMessage() throws(VarlinkClientError) -> [UInt8] {
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

    private func fill() throws(VarlinkClientError) {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                chunk.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                return
            }
            if count == 0 { throw .connectionClosed }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { throw .timedOut(seconds: timeout ?? 0) }
            if code == ECONNRESET { throw .connectionClosed }
            throw .io(SystemError("recv", errno: code))
        }
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
