import FontRegJSON

/// The errors a server sends when a client breaks one of its limits, named by the service.
///
/// The Varlink layer knows no service's error names: whoever runs a server says which
/// fully qualified names its clients expect (io.fontreg uses `io.fontreg.Registry.MessageTooLarge`
/// and friends), so the wire is the service's, and this layer stays generic.
package struct VarlinkLimitErrors: Sendable, Hashable {
    /// The error for a message over the size limit; sent with `limit` (bytes), then the connection closes.
    package var messageTooLarge: String
    /// The error for a message that is not a well-formed call; sent with `reason`, then the connection closes.
    package var invalidMessage: String
    /// The error for a connection over the connection limit; sent with `limit`, then the connection closes.
    package var tooManyConnections: String

    /// Names the three errors.
    package init(messageTooLarge: String, invalidMessage: String, tooManyConnections: String) {
        self.messageTooLarge = messageTooLarge
        self.invalidMessage = invalidMessage
        self.tooManyConnections = tooManyConnections
    }

    /// The reply for a protocol violation: `messageTooLarge(limit)` or `invalidMessage(reason)`.
    package func reply(for violation: VarlinkProtocolError) -> VarlinkError {
        if case .messageTooLarge(let limit) = violation {
            return VarlinkError(messageTooLarge, ["limit": .int(limit)])
        }
        return VarlinkError(invalidMessage, ["reason": .string(violation.description)])
    }

    /// The reply for a connection refused because `limit` connections are open.
    package func tooManyConnections(limit: Int) -> VarlinkError {
        VarlinkError(tooManyConnections, ["limit": .int(limit)])
    }

    /// The reply for a connection refused by the ``ConnectionBudget``: `limit`, and `scope`
    /// (`uid` when the peer's own user holds its share, `total` otherwise).
    package func tooManyConnections(_ refusal: ConnectionBudget.Refusal) -> VarlinkError {
        switch refusal {
        case .total(let limit): VarlinkError(tooManyConnections, ["limit": .int(limit), "scope": "total"])
        case .perUID(let limit): VarlinkError(tooManyConnections, ["limit": .int(limit), "scope": "uid"])
        }
    }
}
