import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import Varlink

/// Hostile and broken clients get a clear error and are closed; everyone else goes on being served.
@Suite("fontregd limits and bad clients", .serialized)
struct DaemonLimitsTests {
    static let status = "io.fontreg.Registry.GetStatus"

    /// Receives until the daemon closes the connection; returns the replies received before that.
    func repliesUntilClosed(_ client: VarlinkClient) throws -> [VarlinkReply] {
        var replies: [VarlinkReply] = []
        while true {
            let result = Result { () throws(VarlinkClientError) in try client.receive() }
            switch result {
            case .success(let reply): replies.append(reply)
            case .failure(.connectionClosed): return replies
            case .failure(let error): throw error
            }
        }
    }

    @Test func clientDisconnectingMidMessageLeavesOthersServed() throws {
        let daemon = try DaemonProcess()
        let bystander = try daemon.client()
        for _ in 0..<20 {
            let client = try daemon.client()
            try client.sendRaw(Array(#"{"method":"io.fontreg.Registry.Resolve","parameters":{"fam"#.utf8))
            client.close()
        }
        #expect(try bystander.call(Self.status)["faces"] != nil)
        // The closes are handled on whichever loop owns each connection: give the log a moment.
        try waitFor("the daemon to log a client that disconnected mid-message") {
            daemon.log.contains("disconnected mid-message")
        }
    }

    @Test func connectionsBeyondTheLimitGetTooManyConnections() throws {
        let daemon = try DaemonProcess(extraArguments: ["--max-connections", "2"])
        // The harness's own readiness probe may still hold a slot for a moment: retry until served.
        func servedClient() throws -> VarlinkClient {
            var served: VarlinkClient?
            try waitFor("a connection slot to become free", timeout: 10, interval: 0.02) {
                if let client = try? daemon.client(), (try? client.call(Self.status)) != nil { served = client }
                return served != nil
            }
            return try #require(served)
        }
        let first = try servedClient()
        let second = try servedClient()
        #expect(try first.call(Self.status)["connections"] == 2)
        let third = try daemon.client()
        let replies = try repliesUntilClosed(third)
        #expect(replies.first?.error == "io.fontreg.Registry.TooManyConnections")
        #expect(replies.first?.parameters["limit"] == 2)
        second.close()
        // The freed slot is available again.
        _ = try servedClient()
    }

    @Test func silentConnectionIsClosedAfterTheIdleTimeout() throws {
        let daemon = try DaemonProcess(extraArguments: ["--idle-timeout", "1"])
        let client = try daemon.client(timeout: 10)
        let started = Date()
        let replies = try repliesUntilClosed(client)
        #expect(replies.isEmpty)
        // Closed by the daemon (within the client's own 10 s timeout), not left open: generous for a busy machine.
        #expect(Date().timeIntervalSince(started) < 9)
        #expect(daemon.log.contains("idle"))
    }

    @Test func slowReaderDoesNotHoldUpOtherClientsOnTheSameEventLoop() throws {
        // One loop, so the bystander shares it with the client that never reads.
        let daemon = try DaemonProcess(extraArguments: ["--threads", "1"])
        let slow = try daemon.client()
        // Thousands of pipelined calls whose replies are never read fill the socket buffers.
        var batch: [UInt8] = []
        for _ in 0..<2000 {
            batch += VarlinkCall(method: "io.fontreg.Registry.ListFaces").serialized()
        }
        try slow.sendRaw(batch)
        let started = Date()
        #expect(try daemon.client().call(Self.status)["faces"] != nil)
        // Answered while the slow client's replies are still unread: a starved bystander would wait for the whole backlog.
        #expect(Date().timeIntervalSince(started) < 8)
    }

    @Test func randomBytesOnManyConnectionsNeverStopTheServer() throws {
        let daemon = try DaemonProcess()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            let client = try daemon.client()
            var bytes = (0..<(64 + round * 97)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[bytes.count / 2] = 0
            try? client.sendRaw(bytes)
            client.close()
        }
        let deep = Array(String(repeating: "[", count: 10_000).utf8) + [0]
        let nested = try daemon.client()
        try nested.sendRaw(deep)
        #expect(try repliesUntilClosed(nested).first?.error == "io.fontreg.Registry.InvalidMessage")
        #expect(try daemon.client().call(Self.status)["faces"] == 128)
    }

    @Test func everyCallSentBeforeTheClientShutsDownItsWritingSideIsAnswered() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        var bytes: [UInt8] = []
        for index in 0..<500 {
            bytes += VarlinkCall(
                method: "io.fontreg.Registry.Resolve",
                parameters: ["family": "Fixture Sans", "weight": .string(String(100 + index % 9 * 100))]
            ).serialized()
        }
        try client.sendRaw(bytes)
        shutdown(client.fd, Int32(SHUT_WR))
        let replies = try repliesUntilClosed(client)
        #expect(replies.count == 500)
        #expect(replies.allSatisfy { $0.error == nil })
    }
}
