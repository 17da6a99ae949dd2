import FontRegJSON

/// One Varlink server connection's protocol logic as a value with no socket.
///
/// The pattern is swift-nio's `EmbeddedChannel`: whoever owns the socket (the daemon's event
/// loop, the fuzz target, a test) hands in the bytes it read with ``receive(_:)``, asks for calls
/// to be answered with ``process(maximumCalls:outputLimit:)``, and writes out what
/// ``writeOutput(_:)`` gives it. The value decides everything else: framing, answering pipelined
/// calls in order, `oneway` (no reply), `more` subscriptions, the message-size limit, deferred
/// calls that hold back later replies, when to stop reading (back-pressure) and when to close.
package struct VarlinkConnection {
    /// Who is on the other end.
    package let peer: PeerCredentials
    private let service: any VarlinkService
    private let errors: VarlinkLimitErrors
    private var framer: MessageFramer
    private var outbox = OutputQueue()
    /// Whether the running deferred call was made with `oneway`.
    private var deferredOneway = false
    /// ``process(maximumCalls:outputLimit:)`` stopped at its quota with calls maybe still buffered.
    private var yielded = false
    /// A protocol violation was answered: nothing more is read or answered.
    private var refused = false
    /// The service's replay cache (issue 13), if it keeps one.
    private let replies: MessageReplyCache?
    /// The peer's replay scope, and the service's ``VarlinkService/replayScopeStamp`` it was computed at.
    private var replayScope: (stamp: UInt64, scope: String?)?
    /// Calls answered from the replay cache (for tests and the benchmark).
    package private(set) var replayed = 0

    /// A deferred call is running; later calls wait for ``complete(_:)`` so replies stay in order.
    package private(set) var awaitingDeferred = false
    /// The connection follows a `more` stream: it gets every event and answers no more calls.
    package private(set) var subscribed = false
    /// The peer shut down its sending side (``receiveEnd()``).
    package private(set) var peerClosed = false
    /// The connection closes once its output is written (after a protocol error, at the end of
    /// the peer's input, or when the server shuts down).
    package private(set) var closeWhenFlushed = false
    /// The server is shutting down: no further call is answered.
    package private(set) var shuttingDown = false
    /// Complete messages taken from the input so far (for the owner's slow-sender check).
    package private(set) var messagesReceived = 0

    /// What one ``process(maximumCalls:outputLimit:)`` step ended with.
    package enum ProcessResult {
        /// Nothing more to answer now: no complete call is buffered, or the connection waits
        /// (a deferred call, a subscription, output over the limit, shutdown, a violation).
        case waiting
        /// `maximumCalls` were answered and more may be buffered: give other connections a
        /// turn, then call ``VarlinkConnection/process(maximumCalls:outputLimit:)`` again.
        case yielded
        /// A call's work must run off the event loop; pass its result to ``VarlinkConnection/complete(_:)``.
        case deferred(@Sendable () -> Result<[String: JSONValue], VarlinkError>)
        /// A slow query must run on the query worker; pass its result to ``VarlinkConnection/complete(encoded:)``.
        case offloaded(@Sendable () -> Result<[UInt8], VarlinkError>)
        /// The client broke the protocol: the error reply is queued and the connection closes once it is written.
        case violated(VarlinkProtocolError)
    }

    /// Creates the state of a newly accepted connection.
    ///
    /// - Parameters:
    ///   - peer: the peer's credentials, passed to the service with every call.
    ///   - service: answers the calls.
    ///   - maximumMessageSize: the longest message accepted, in bytes.
    ///   - errors: the names of the errors sent for broken limits.
    package init(
        peer: PeerCredentials, service: any VarlinkService, maximumMessageSize: Int, errors: VarlinkLimitErrors
    ) {
        self.peer = peer
        self.service = service
        self.errors = errors
        self.framer = MessageFramer(maximumMessageSize: maximumMessageSize)
        self.replies = service.replayCache
    }

    // MARK: Input

    /// Appends bytes read from the peer.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !refused else { return }
        framer.append(bytes)
    }

    /// Appends bytes read from the peer.
    package mutating func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    /// The peer shut down its sending side: complete calls already received are still answered,
    /// then the connection closes.
    package mutating func receiveEnd() {
        peerClosed = true
        closeWhenFlushed = true
    }

    /// Bytes the input buffer holds room for: what closing the connection frees on the input side.
    package var inputCapacity: Int { framer.capacity }

    /// Part of a message arrived without its NUL.
    package var hasPartialMessage: Bool { framer.hasPartialMessage }

    /// Whether the owner may read more now: the input buffer holds less than one message over the
    /// limit (it then holds at most one message over it, which ``process(maximumCalls:outputLimit:)`` refuses).
    package var canBufferMoreInput: Bool { framer.bufferedByteCount <= framer.maximumMessageSize }

    /// Whether the owner should watch the socket for input: not when the connection is closing,
    /// its unanswered input already fills a message's worth, or its unsent output passes
    /// `outputLimit` (the client is ahead of the server and must catch up first).
    package func wantsInput(outputLimit: Int) -> Bool {
        !(peerClosed || closeWhenFlushed || shuttingDown || pendingOutputCount > outputLimit || !canBufferMoreInput)
    }

    // MARK: Answering calls

    /// Answers complete calls buffered so far, in order, until one is deferred, the unsent output
    /// passes `outputLimit`, or `maximumCalls` have been answered.
    package mutating func process(maximumCalls: Int, outputLimit: Int) -> ProcessResult {
        yielded = false
        var answered = 0
        while !awaitingDeferred && !subscribed && !shuttingDown && !refused && pendingOutputCount <= outputLimit {
            if answered == maximumCalls {
                yielded = true
                return .yielded
            }
            answered += 1
            let message: Message?
            do {
                message = try nextMessage()
            } catch {
                refuse(error)
                return .violated(error)
            }
            guard let message else { return .waiting }
            messagesReceived += 1
            switch message {
            case .replayed(let reply):
                replayed += 1
                outbox.append(shared: reply)
            case .call(let call, let replay):
                if let work = dispatch(call, replay: replay) { return work }
            }
        }
        return .waiting
    }

    /// What the next message is: a call to answer, or a reply the replay cache holds for its bytes.
    private enum Message {
        case replayed([UInt8])
        /// A call, with what storing its reply needs when it may be replayed.
        case call(VarlinkCall, replay: ReplayTicket?)
    }

    /// What a reply is stored with: the request's bytes, the caller's scope, the cache's stamp.
    private struct ReplayTicket {
        let request: [UInt8]
        let stamp: UInt64
    }

    /// Takes the next complete message: answered from the replay cache when its bytes and the
    /// peer's scope match an entry, else parsed.
    private mutating func nextMessage() throws(VarlinkProtocolError) -> Message? {
        guard let replies else {
            return try framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> Message in
                .call(try VarlinkCall(parsing: bytes), replay: nil)
            }
        }
        // The cache's stamp is read before the scope and the reply are computed: a reply computed
        // while the cache is emptied is not stored.
        let stamp = replies.stamp
        let scope = currentReplayScope()
        return try framer.nextMessage { (bytes) throws(VarlinkProtocolError) -> Message in
            // A request too long to be kept is neither looked up nor copied for its ticket.
            guard replies.mayKeep(requestOf: bytes.count) else {
                return .call(try VarlinkCall(parsing: bytes), replay: nil)
            }
            if let scope, let reply = replies.lookup(bytes, scope: scope) { return .replayed(reply) }
            return .call(try VarlinkCall(parsing: bytes), replay: ReplayTicket(request: Array(bytes), stamp: stamp))
        }
    }

    /// The peer's replay scope, computed again only when the service's state changed.
    private mutating func currentReplayScope() -> String? {
        let stamp = service.replayScopeStamp
        if let replayScope, replayScope.stamp == stamp { return replayScope.scope }
        let scope = service.replayScope(for: peer)
        replayScope = (stamp, scope)
        return scope
    }

    /// Queues the reply of the deferred call (none when it was `oneway`); later calls may then be answered.
    package mutating func complete(_ result: Result<[String: JSONValue], VarlinkError>) {
        guard awaitingDeferred else { return }
        awaitingDeferred = false
        if !deferredOneway { enqueue(result) }
    }

    /// Queues the reply of the offloaded call, given as serialized parameters (none when it was `oneway`).
    package mutating func complete(encoded result: Result<[UInt8], VarlinkError>) {
        guard awaitingDeferred else { return }
        awaitingDeferred = false
        guard !deferredOneway else { return }
        switch result {
        case .success(let bytes): Self.write(encodedParameters: bytes, to: &outbox)
        case .failure(let error): queue(VarlinkReply(error: error))
        }
    }

    /// Refuses the message being received because the server's input budget is spent: answers
    /// `MessageTooLarge` with `limit` (the bytes the connection could have held) and closes once
    /// the reply is written; its input buffer is freed at once.
    package mutating func refuseOverInputBudget(limit: Int) {
        guard !refused else { return }
        refuse(.messageTooLarge(limit: limit))
    }

    /// Frees a large input buffer once everything in it has been answered.
    package mutating func releaseConsumedInput() {
        framer.releaseConsumedBuffer()
    }

    private mutating func refuse(_ violation: VarlinkProtocolError) {
        queue(VarlinkReply(error: errors.reply(for: violation)))
        closeWhenFlushed = true
        refused = true
        framer = MessageFramer(maximumMessageSize: 0)
    }

    /// Answers one call; returns what to run off the loop for a deferred or offloaded one.
    private mutating func dispatch(_ call: VarlinkCall, replay: ReplayTicket?) -> ProcessResult? {
        if call.upgrade {
            answer(call, .failure(.methodNotImplemented(call.method)))
            return nil
        }
        if call.interface == VarlinkError.serviceInterface {
            let introspection = service.introspection
            answer(call, Result { () throws(VarlinkError) in try introspection.handle(call) })
            return nil
        }
        guard service.introspection.serves(call.interface) else {
            answer(call, .failure(.interfaceNotFound(call.interface)))
            return nil
        }
        return respond(call, service.handle(call, peer: peer), replay: replay)
    }

    /// Answers a call with what the service decided.
    private mutating func respond(_ call: VarlinkCall, _ outcome: CallOutcome, replay: ReplayTicket?) -> ProcessResult?
    {
        switch outcome {
        case .replayable(let outcome, let scope):
            guard let replay, let replies, !call.oneway, !call.more, !call.upgrade else {
                return respond(call, outcome, replay: nil)
            }
            let reply: [UInt8]
            switch outcome {
            case .reply(let parameters): reply = VarlinkReply(parameters: parameters).serialized()
            case .encodedReply(let bytes):
                var framed: [UInt8] = []
                framed.reserveCapacity(bytes.count + 16)
                VarlinkReply.write(encodedParameters: bytes, to: &framed)
                reply = framed
            case .failure(let error): reply = VarlinkReply(error: error).serialized()
            default: return respond(call, outcome, replay: nil)
            }
            replies.store(reply, for: replay.request, scope: scope, stamp: replay.stamp)
            outbox.append(shared: reply)
        case .reply(let parameters):
            answer(call, .success(parameters))
        case .encodedReply(let bytes):
            if !call.oneway { Self.write(encodedParameters: bytes, to: &outbox) }
        case .failure(let error):
            answer(call, .failure(error))
        case .deferred(let work):
            awaitingDeferred = true
            deferredOneway = call.oneway
            return .deferred(work)
        case .offloaded(let work):
            awaitingDeferred = true
            deferredOneway = call.oneway
            return .offloaded(work)
        case .subscribe(let first):
            guard call.more else {
                answer(call, .failure(.expectedMore))
                return nil
            }
            subscribed = true
            queue(VarlinkReply(parameters: first, continues: true))
        case .replyWithDescriptors(let parameters, let descriptors, let overLimit):
            guard !call.oneway else { return nil }
            guard outbox.descriptorCount + descriptors.count <= Self.maximumPendingDescriptors else {
                queue(VarlinkReply(error: overLimit))
                return nil
            }
            let reply = VarlinkReply(parameters: parameters)
            outbox.append(descriptors: descriptors) { reply.write(to: &$0) }
        }
        return nil
    }

    private mutating func answer(_ call: VarlinkCall, _ result: Result<[String: JSONValue], VarlinkError>) {
        guard !call.oneway else { return }
        enqueue(result)
    }

    private mutating func enqueue(_ result: Result<[String: JSONValue], VarlinkError>) {
        switch result {
        case .success(let parameters): queue(VarlinkReply(parameters: parameters))
        case .failure(let error): queue(VarlinkReply(error: error))
        }
    }

    // MARK: Events and shutdown

    /// Queues a `more` event (a serialized reply, NUL included) if the connection is subscribed.
    ///
    /// - Returns: `false` when the event would put more than `limit` bytes of unsent output on the
    ///   connection: a subscriber that does not read its events is to be closed.
    package mutating func deliver(event bytes: [UInt8], limit: Int) -> Bool {
        guard subscribed else { return true }
        if pendingOutputCount + bytes.count > limit { return false }
        outbox.append(shared: bytes)
        return true
    }

    /// The server is stopping: no further call is answered, and the connection closes once a
    /// running deferred call has finished and the output is written.
    ///
    /// - Returns: whether it can be closed right away (a subscriber, or nothing in flight).
    package mutating func shutDown() -> Bool {
        shuttingDown = true
        closeWhenFlushed = true
        yielded = false
        return subscribed || (!awaitingDeferred && pendingOutputCount == 0)
    }

    /// Nothing is in flight: no deferred call, no subscription, no unsent output (an idle timeout may close it).
    package var isIdle: Bool { !awaitingDeferred && !subscribed && pendingOutputCount == 0 }

    /// Whether the owner should close the connection now: it is closing and all is answered and written.
    package var shouldClose: Bool {
        closeWhenFlushed && !awaitingDeferred && !yielded && pendingOutputCount == 0
    }

    // MARK: Output

    /// Bytes of replies waiting to be written.
    package var pendingOutputCount: Int { outbox.count }

    /// Writes unsent output with `write`, which takes some bytes and returns how many it wrote
    /// (`nil` when it would block).
    ///
    /// - Returns: whether everything was written.
    /// - Throws: what `write` throws.
    package mutating func writeOutput<Failure: Error>(
        _ write: (UnsafeRawBufferPointer) throws(Failure) -> Int?
    ) throws(Failure) -> Bool {
        try outbox.write(write)
    }

    // Issue 15 (OpenFace): descriptors passed with replies.
    /// The most descriptors a connection holds unsent: a client that asks for descriptors and
    /// does not read gets an error instead of pinning more open files in the daemon.
    package static let maximumPendingDescriptors = 16

    /// Writes unsent output with `write`, which also takes the descriptors to pass with the bytes
    /// (`SCM_RIGHTS`, empty for most writes) and returns how many bytes it wrote.
    ///
    /// - Returns: whether everything was written.
    /// - Throws: what `write` throws.
    package mutating func writeOutput<Failure: Error>(
        passing write: (UnsafeRawBufferPointer, [Int32]) throws(Failure) -> Int?
    ) throws(Failure) -> Bool {
        try outbox.write(write)
    }

    /// Queues a reply, serialized into the output buffer.
    private mutating func queue(_ reply: VarlinkReply) {
        outbox.append { reply.write(to: &$0) }
    }

    /// Queues a reply whose parameters are serialized already; large ones by reference (see ``OutputQueue``).
    private static func write(encodedParameters bytes: [UInt8], to outbox: inout OutputQueue) {
        guard bytes.count >= OutputQueue.shareThreshold else {
            outbox.append { VarlinkReply.write(encodedParameters: bytes, to: &$0) }
            return
        }
        outbox.append { $0.append(contentsOf: #"{"parameters":"#.utf8) }
        outbox.append(shared: bytes)
        outbox.append { $0.append(contentsOf: [UInt8(ascii: "}"), 0]) }
    }

    /// Takes all unsent output at once, as a peer that reads everything would (for tests and the fuzz target).
    package mutating func takeOutput() -> [UInt8] {
        var taken: [UInt8] = []
        _ = writeOutput { (bytes) -> Int? in
            taken.append(contentsOf: bytes)
            return bytes.count
        }
        return taken
    }
}
