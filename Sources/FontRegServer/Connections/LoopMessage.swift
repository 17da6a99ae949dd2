import FontRegJSON
import Varlink

/// Messages other threads post to an event loop.
enum LoopMessage: Sendable {
    /// A deferred call finished.
    case completed(connection: UInt64, result: Result<[String: JSONValue], VarlinkError>)
    /// An offloaded query finished; its reply parameters are serialized.
    case completedEncoded(connection: UInt64, result: Result<[UInt8], VarlinkError>)
    /// A `Monitor` event for every subscribed connection (a serialized reply, NUL included).
    case broadcast([UInt8])
    /// Stop accepting, finish in-flight calls, close everything and return from ``EventLoop/run()``.
    case shutdown
}
