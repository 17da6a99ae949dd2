import FontRegSystem

/// Splits a byte stream into NUL-terminated Varlink messages, with a bound on message size.
///
/// Bytes are appended as they arrive; complete messages are handed out in order. The
/// buffer never holds more than the limit plus one read's worth of an unterminated
/// message: a longer one is an error, so a client cannot make the server's memory grow.
package struct MessageFramer: Sendable {
    /// The longest message accepted, in bytes, without its NUL.
    package let maximumMessageSize: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0

    package init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Bytes received but not yet handed out as messages.
    var bufferedByteCount: Int { buffer.count - start }

    /// Bytes the input buffer holds room for (a large message leaves it large until it is emptied).
    package var capacity: Int { buffer.capacity }

    /// Whether part of a message has arrived without its NUL.
    package var hasPartialMessage: Bool { buffer.count > start }

    /// Gives a large buffer back once every message in it has been handed out, so a connection
    /// that sent one long message does not keep its buffer while it is idle.
    mutating func releaseConsumedBuffer() {
        guard start == buffer.count, buffer.capacity > 64 << 10 else { return }
        buffer = []
        start = 0
        scanned = 0
    }

    /// Appends received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            // A small buffer is reused; one a large message grew is given back.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
            start = 0
            scanned = 0
        } else if start > 65536 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Hands the next complete message (without its NUL) to `body`, if there is one.
    ///
    /// - Returns: `nil` when no complete message is buffered, else what `body` returned.
    /// - Throws: ``VarlinkProtocolError/messageTooLarge(limit:)`` when a message, complete or
    ///   not, is longer than ``maximumMessageSize``; errors thrown by `body`.
    package mutating func nextMessage<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(VarlinkProtocolError) -> Result
    ) throws(VarlinkProtocolError) -> Result? {
        let end = buffer.count
        let from = max(scanned, start)
        let found = buffer.withUnsafeBufferPointer { ByteSearch.first(0, in: $0, from: from) }
        guard let terminator = found else {
            scanned = end
            if end - start > maximumMessageSize { throw .messageTooLarge(limit: maximumMessageSize) }
            return nil
        }
        if terminator - start > maximumMessageSize { throw .messageTooLarge(limit: maximumMessageSize) }
        let messageStart = start
        start = terminator + 1
        scanned = start
        return try buffer.withUnsafeBufferPointer { (pointer) throws(VarlinkProtocolError) -> Result in
            try body(UnsafeBufferPointer(rebasing: pointer[messageStart..<terminator]))
        }
    }
}
