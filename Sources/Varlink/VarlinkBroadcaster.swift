import FontRegJSON

/// What a service may ask of the server that runs it: the number of open connections, and
/// an event sent to every client subscribed with `more`.
///
/// The server implements it; the service holds it weakly, so a service can be tested with a
/// broadcaster of its own and no socket.
package protocol VarlinkBroadcaster: AnyObject, Sendable {
    /// Connections open now.
    var connectionCount: Int { get }

    /// Sends `parameters` as a `continues` reply to every subscribed connection.
    func broadcast(_ parameters: [String: JSONValue])
}
