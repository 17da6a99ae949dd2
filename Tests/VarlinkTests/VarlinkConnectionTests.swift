import FontRegJSON
import Testing
import Varlink

/// The connection state machine driven in memory with bytes: no socket, no thread, no timing.
@Suite("Varlink connection driven with bytes")
struct VarlinkConnectionTests {
    @Test func aMessageSplitAcrossReadsIsAnsweredOnceItsNulArrives() throws {
        var embedded = EmbeddedConnection()
        let message = echo(1)
        let cut = message.index(message.startIndex, offsetBy: 10)
        embedded.send(String(message[..<cut]))
        #expect(embedded.replies().isEmpty)
        #expect(embedded.connection.hasPartialMessage)
        embedded.send(String(message[cut...]))
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["value": 1])])
        #expect(!embedded.connection.hasPartialMessage)
    }

    @Test func byteByByteInputGivesTheSameRepliesAsOneRead() throws {
        var whole = EmbeddedConnection()
        var trickled = EmbeddedConnection()
        let stream = echo(1) + echo(2) + echo(3)
        whole.send(stream)
        for byte in stream.utf8 { trickled.send(String(decoding: [byte], as: UTF8.self)) }
        #expect(try trickled.parsedReplies() == whole.parsedReplies())
    }

    @Test func pipelinedCallsInOneReadAreAnsweredInOrder() throws {
        var embedded = EmbeddedConnection()
        embedded.send(echo(1) + echo(2) + #"{"method":"org.example.echo.Fail"}"# + "\0" + echo(3))
        #expect(
            try embedded.parsedReplies() == [
                VarlinkReply(parameters: ["value": 1]), VarlinkReply(parameters: ["value": 2]),
                VarlinkReply(error: VarlinkError("org.example.echo.Failed", ["uid": 1000])),
                VarlinkReply(parameters: ["value": 3]),
            ])
    }

    @Test func onewayCallsGetNoReplyAndLaterCallsStillDo() throws {
        var embedded = EmbeddedConnection()
        embedded.send(echo(1, flag: "oneway") + #"{"method":"org.example.echo.Fail","oneway":true}"# + "\0" + echo(2))
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["value": 2])])
    }

    @Test func introspectionAndUnknownInterfacesAreAnsweredByTheConnection() throws {
        var embedded = EmbeddedConnection()
        embedded.send(
            #"{"method":"org.varlink.service.GetInfo"}"# + "\0" + #"{"method":"org.example.other.Call"}"# + "\0"
                + #"{"method":"org.example.echo.Echo","upgrade":true}"# + "\0")
        let replies = try embedded.parsedReplies()
        #expect(replies.count == 3)
        #expect(replies[0].parameters["product"] == "echo")
        #expect(replies[1] == VarlinkReply(error: .interfaceNotFound("org.example.other")))
        #expect(replies[2] == VarlinkReply(error: .methodNotImplemented("org.example.echo.Echo")))
    }

    @Test func preEncodedRepliesAreWrittenVerbatim() {
        var embedded = EmbeddedConnection()
        embedded.send(#"{"method":"org.example.echo.Cached"}"# + "\0")
        #expect(embedded.replies() == [#"{"parameters":{"cached":true}}"#])
    }

    @Test func aSubscriptionNeedsMoreThenGetsEventsAndAnswersNoFurtherCalls() throws {
        var embedded = EmbeddedConnection()
        embedded.send(#"{"method":"org.example.echo.Watch"}"# + "\0")
        #expect(try embedded.parsedReplies() == [VarlinkReply(error: .expectedMore)])
        #expect(!embedded.connection.subscribed)

        embedded.send(#"{"method":"org.example.echo.Watch","more":true}"# + "\0" + echo(1))
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["event": "hello"], continues: true)])
        #expect(embedded.connection.subscribed)
        let event = VarlinkReply(parameters: ["event": "changed"], continues: true).serialized()
        let delivered = embedded.connection.deliver(event: event, limit: 1 << 20)
        #expect(delivered)
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["event": "changed"], continues: true)])
    }

    @Test func eventsAreNotDeliveredToConnectionsThatDidNotSubscribe() {
        var embedded = EmbeddedConnection()
        let event = VarlinkReply(parameters: ["event": "changed"], continues: true).serialized()
        let delivered = embedded.connection.deliver(event: event, limit: 1 << 20)
        #expect(delivered)
        #expect(embedded.connection.pendingOutputCount == 0)
    }

    @Test func aSubscriberThatDoesNotReadIsToBeClosedAtTheLimit() {
        var embedded = EmbeddedConnection()
        embedded.send(#"{"method":"org.example.echo.Watch","more":true}"# + "\0")
        let event = VarlinkReply(parameters: ["event": "changed"], continues: true).serialized()
        let limit = embedded.connection.pendingOutputCount + event.count * 2
        let results = (0..<3).map { _ in embedded.connection.deliver(event: event, limit: limit) }
        #expect(results == [true, true, false])
    }

    @Test func anOversizeMessageGetsTheServicesErrorAndClosesTheConnection() throws {
        var embedded = EmbeddedConnection()
        let result = embedded.send(echo(1) + String(repeating: "x", count: 300))
        guard case .violated(.messageTooLarge(limit: 256)) = result else {
            Issue.record("expected a messageTooLarge violation, got \(result)")
            return
        }
        #expect(
            embedded.replies() == [
                #"{"parameters":{"value":1}}"#,
                #"{"error":"org.example.echo.MessageTooLarge","parameters":{"limit":256}}"#,
            ])
        #expect(embedded.connection.shouldClose)
        #expect(!embedded.connection.wantsInput(outputLimit: 1 << 20))
        embedded.send(echo(2))
        #expect(embedded.replies().isEmpty)
    }

    @Test func readingStopsOnceAMessagesWorthIsBufferedWithoutItsNul() {
        var embedded = EmbeddedConnection()
        embedded.connection.receive(Array(repeating: UInt8(ascii: " "), count: 256))
        #expect(embedded.connection.canBufferMoreInput)
        embedded.connection.receive([UInt8(ascii: " ")])
        #expect(!embedded.connection.canBufferMoreInput)
        #expect(!embedded.connection.wantsInput(outputLimit: 1 << 20))
    }

    @Test(arguments: ["{nope", "[1,2]", #"{"method":"NoDot"}"#, #"{"method":"a.B","extra":1}"#])
    func aMalformedMessageGetsInvalidMessageWithItsReason(message: String) throws {
        var embedded = EmbeddedConnection()
        let result = embedded.send(echo(1) + message + "\0" + echo(2))
        guard case .violated(let violation) = result else {
            Issue.record("expected a violation, got \(result)")
            return
        }
        let replies = try embedded.parsedReplies()
        #expect(
            replies == [
                VarlinkReply(parameters: ["value": 1]),
                VarlinkReply(
                    error: VarlinkError("org.example.echo.InvalidMessage", ["reason": .string(violation.description)])),
            ])
        #expect(embedded.connection.shouldClose)
    }

    @Test func aDeferredCallHoldsBackLaterRepliesUntilItCompletes() throws {
        var embedded = EmbeddedConnection()
        let result = embedded.send(
            echo(1) + #"{"method":"org.example.echo.Slow","parameters":{"n":2}}"# + "\0" + echo(3))
        guard case .deferred(let work) = result else {
            Issue.record("expected deferred work, got \(result)")
            return
        }
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["value": 1])])
        #expect(embedded.connection.awaitingDeferred)
        guard case .waiting = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20) else {
            Issue.record("calls after a deferred one must wait")
            return
        }
        #expect(embedded.replies().isEmpty)
        embedded.connection.complete(work())
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(
            try embedded.parsedReplies() == [
                VarlinkReply(parameters: ["n": 2]), VarlinkReply(parameters: ["value": 3]),
            ])
    }

    @Test func anOffloadedQueryHoldsBackLaterRepliesAndIsWrittenFromItsEncodedResult() throws {
        var embedded = EmbeddedConnection()
        let result = embedded.send(
            #"{"method":"org.example.echo.Heavy","parameters":{"n":2}}"# + "\0" + echo(3))
        guard case .offloaded(let work) = result else {
            Issue.record("expected offloaded work, got \(result)")
            return
        }
        #expect(embedded.connection.awaitingDeferred)
        #expect(embedded.replies().isEmpty)
        embedded.connection.complete(encoded: work())
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(
            try embedded.parsedReplies() == [
                VarlinkReply(parameters: ["n": 2]), VarlinkReply(parameters: ["value": 3]),
            ])
    }

    @Test func aMessageRepeatingAMemberNameIsRefusedAsInvalidAndTheConnectionCloses() throws {
        var embedded = EmbeddedConnection()
        let result = embedded.send(
            #"{"method":"org.example.echo.Echo","parameters":{"value":1,"value":2}}"# + "\0" + echo(3))
        guard case .violated = result else {
            Issue.record("expected a violation, got \(result)")
            return
        }
        let replies = try embedded.parsedReplies()
        #expect(replies.count == 1)
        #expect(replies.first?.error == "org.example.echo.InvalidMessage")
        #expect(replies.first?.parameters["reason"]?.stringValue?.contains("duplicate member name") == true)
        #expect(embedded.connection.shouldClose)
    }

    @Test func completeMessagesAreCountedSoTheOwnerCanTimeAPartialOne() {
        var embedded = EmbeddedConnection()
        let message = echo(1)
        embedded.send(message + String(message.prefix(5)))
        #expect(embedded.connection.messagesReceived == 1)
        #expect(embedded.connection.hasPartialMessage)
        embedded.send(String(message.dropFirst(5)))
        #expect(embedded.connection.messagesReceived == 2)
        #expect(!embedded.connection.hasPartialMessage)
    }

    @Test func aOnewayDeferredCallRunsButSendsNoReply() throws {
        var embedded = EmbeddedConnection()
        guard
            case .deferred(let work) = embedded.send(
                #"{"method":"org.example.echo.Slow","oneway":true}"# + "\0" + echo(2))
        else {
            Issue.record("expected deferred work")
            return
        }
        embedded.connection.complete(work())
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(try embedded.parsedReplies() == [VarlinkReply(parameters: ["value": 2])])
    }

    @Test func unsentOutputOverTheLimitStopsAnsweringAndReadingUntilTheClientCatchesUp() throws {
        var embedded = EmbeddedConnection()
        let reply = VarlinkReply(parameters: ["value": 1]).serialized().count
        embedded.send(String(repeating: echo(1), count: 10), outputLimit: reply * 2)
        // Calls are answered while the output is within the limit: three replies pass it.
        #expect(embedded.connection.pendingOutputCount == reply * 3)
        #expect(!embedded.connection.wantsInput(outputLimit: reply * 2))
        #expect(embedded.replies().count == 3)
        // The client read the replies; the seven calls still buffered keep reading paused until answered.
        #expect(!embedded.connection.wantsInput(outputLimit: reply * 2))
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(embedded.replies().count == 7)
        #expect(embedded.connection.wantsInput(outputLimit: reply * 2))
    }

    @Test func aConnectionYieldsAfterItsQuotaAndIsNotClosedWhileCallsRemain() {
        var embedded = EmbeddedConnection()
        embedded.connection.receive(Array(String(repeating: echo(1), count: 5).utf8))
        embedded.connection.receiveEnd()
        guard case .yielded = embedded.connection.process(maximumCalls: 2, outputLimit: 1 << 20) else {
            Issue.record("expected the connection to yield after two calls")
            return
        }
        #expect(embedded.replies().count == 2)
        #expect(!embedded.connection.shouldClose)
        _ = embedded.connection.process(maximumCalls: 2, outputLimit: 1 << 20)
        _ = embedded.connection.process(maximumCalls: 2, outputLimit: 1 << 20)
        #expect(embedded.replies().count == 3)
        #expect(embedded.connection.shouldClose)
    }

    @Test func theEndOfInputAnswersCompleteCallsThenCloses() {
        var embedded = EmbeddedConnection()
        embedded.connection.receive(Array((echo(1) + #"{"method""#).utf8))
        embedded.connection.receiveEnd()
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(!embedded.connection.shouldClose)
        #expect(embedded.replies() == [#"{"parameters":{"value":1}}"#])
        #expect(embedded.connection.shouldClose)
        #expect(!embedded.connection.wantsInput(outputLimit: 1 << 20))
    }

    @Test func shutdownAnswersNoMoreCallsAndWaitsForTheDeferredOne() throws {
        var embedded = EmbeddedConnection()
        guard case .deferred(let work) = embedded.send(#"{"method":"org.example.echo.Slow"}"# + "\0" + echo(2)) else {
            Issue.record("expected deferred work")
            return
        }
        let closeNow = embedded.connection.shutDown()
        #expect(!closeNow)
        embedded.connection.complete(work())
        #expect(!embedded.connection.shouldClose)
        _ = embedded.connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        #expect(try embedded.parsedReplies() == [VarlinkReply()])
        #expect(embedded.connection.shouldClose)
    }

    @Test func anIdleConnectionCanBeShutDownAtOnceAndASubscriberAlways() {
        var idle = EmbeddedConnection()
        #expect(idle.connection.isIdle)
        let idleClosesNow = idle.connection.shutDown()
        #expect(idleClosesNow)
        var subscriber = EmbeddedConnection()
        subscriber.send(#"{"method":"org.example.echo.Watch","more":true}"# + "\0")
        #expect(!subscriber.connection.isIdle)
        let subscriberClosesNow = subscriber.connection.shutDown()
        #expect(subscriberClosesNow)
    }

    @Test func outputIsWrittenAcrossShortWritesUntilTheSocketWouldBlock() throws {
        var embedded = EmbeddedConnection()
        embedded.send(echo(1) + echo(2))
        let expected = embedded.connection.pendingOutputCount
        var written: [UInt8] = []
        var budget = 10
        let done = embedded.connection.writeOutput { (bytes) -> Int? in
            guard budget > 0 else { return nil }
            let count = min(3, budget, bytes.count)
            budget -= count
            written.append(contentsOf: bytes[0..<count])
            return count
        }
        #expect(!done)
        #expect(embedded.connection.pendingOutputCount == expected - 10)
        written += embedded.connection.takeOutput()
        #expect(
            String(decoding: written, as: UTF8.self) == #"{"parameters":{"value":1}}"# + "\0"
                + #"{"parameters":{"value":2}}"# + "\0")
        #expect(embedded.connection.pendingOutputCount == 0)
    }
}
