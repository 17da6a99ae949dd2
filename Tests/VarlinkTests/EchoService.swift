import FontRegJSON
import Testing
import Varlink

/// A small real service for driving ``VarlinkConnection`` in memory: `org.example.echo` with
/// methods that reply, fail, defer, subscribe and answer from pre-encoded bytes.
struct EchoService: VarlinkService {
    /// The interface the service answers.
    static let interface = "org.example.echo"

    /// The limit errors tests expect on the wire.
    static let errors = VarlinkLimitErrors(
        messageTooLarge: "org.example.echo.MessageTooLarge", invalidMessage: "org.example.echo.InvalidMessage",
        tooManyConnections: "org.example.echo.TooManyConnections")

    let introspection = VarlinkIntrospection(
        info: VarlinkServiceInfo(vendor: "test", product: "echo", version: "1", url: "https://example.org"),
        interfaces: [
            VarlinkInterfaceDescription(
                name: EchoService.interface,
                text: """
                    interface org.example.echo
                    method Echo(value: int) -> (value: int)
                    """)
        ])

    func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome {
        switch call.methodName {
        case "Echo":
            return .reply(call.parameters)
        case "Fail":
            return .failure(VarlinkError("org.example.echo.Failed", ["uid": .int(Int(peer.uid))]))
        case "Slow":
            let parameters = call.parameters
            return .deferred { .success(parameters) }
        case "Heavy":
            let bytes = JSONValue.object(call.parameters).serialized()
            return .offloaded { .success(bytes) }
        case "Watch":
            return .subscribe(first: ["event": .string("hello")])
        case "Cached":
            return .encodedReply(Array(#"{"cached":true}"#.utf8))
        default:
            return .failure(.methodNotFound(call.method))
        }
    }
}

/// One connection of ``EchoService`` driven with bytes, as a socket would drive it.
struct EmbeddedConnection {
    var connection = VarlinkConnection(
        peer: PeerCredentials(pid: 7, uid: 1000, gid: 1000), service: EchoService(), maximumMessageSize: 256,
        errors: EchoService.errors)

    /// Feeds `text` (NULs written as `\0`) and answers what can be answered.
    @discardableResult
    mutating func send(_ text: String, outputLimit: Int = 1 << 20) -> VarlinkConnection.ProcessResult {
        connection.receive(Array(text.utf8))
        return connection.process(maximumCalls: 64, outputLimit: outputLimit)
    }

    /// The replies written so far, each as its JSON text.
    mutating func replies() -> [String] {
        let bytes = connection.takeOutput()
        #expect(bytes.isEmpty || bytes.last == 0)
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The replies written so far, parsed.
    mutating func parsedReplies() throws -> [VarlinkReply] {
        try replies().map { text in
            try Array(text.utf8).withUnsafeBufferPointer { (buffer) throws(VarlinkProtocolError) in
                try VarlinkReply(parsing: buffer)
            }
        }
    }
}

/// A `Echo` call message with `value`, NUL included.
func echo(_ value: Int, flag: String = "") -> String {
    let extra = flag.isEmpty ? "" : #","\#(flag)":true"#
    return #"{"method":"org.example.echo.Echo","parameters":{"value":\#(value)}\#(extra)}"# + "\0"
}
