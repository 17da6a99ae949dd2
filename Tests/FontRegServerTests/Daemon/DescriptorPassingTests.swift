import Foundation
import Glibc
import Testing

@testable import FontRegJSON
@testable import FontRegSystem
@testable import Varlink

/// Replies that pass descriptors (issue 15, `OpenFace`), driven in memory through ``VarlinkConnection``.
@Suite struct DescriptorPassingTests {
    /// `Echo` replies plainly; `Open` replies with the read end of a new pipe.
    struct PipeService: VarlinkService {
        let introspection = VarlinkIntrospection(
            info: VarlinkServiceInfo(vendor: "test", product: "pipes", version: "1", url: "https://example.org"),
            interfaces: [
                VarlinkInterfaceDescription(
                    name: "org.example.pipes",
                    text: "interface org.example.pipes\nmethod Open() -> (fileDescriptor: int)\nmethod Echo() -> ()")
            ])

        func handle(_ call: VarlinkCall, peer: PeerCredentials) -> CallOutcome {
            guard call.methodName == "Open" else { return .reply(["echo": true]) }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { return .failure(VarlinkError("org.example.pipes.Failed", [:])) }
            Syscall.close(ends[1])
            return .replyWithDescriptors(
                ["fileDescriptor": 0], descriptors: [FileDescriptor(owning: ends[0])],
                overLimit: VarlinkError("org.example.pipes.TooManyDescriptors", ["limit": 16]))
        }
    }

    func connection() -> VarlinkConnection {
        VarlinkConnection(
            peer: PeerCredentials(pid: 7, uid: 1000, gid: 1000), service: PipeService(), maximumMessageSize: 4096,
            errors: VarlinkLimitErrors(messageTooLarge: "a.A", invalidMessage: "a.B", tooManyConnections: "a.C"))
    }

    @Test func theDescriptorTravelsWithTheFirstByteOfItsOwnReplyOnly() {
        var connection = connection()
        connection.receive(
            Array(#"{"method":"org.example.pipes.Echo"}\#0{"method":"org.example.pipes.Open"}\#0"#.utf8))
        _ = connection.process(maximumCalls: 8, outputLimit: 1 << 20)
        var writes: [(bytes: [UInt8], descriptors: Int)] = []
        _ = connection.writeOutput(passing: { (bytes, descriptors) -> Int? in
            writes.append((Array(bytes), descriptors.count))
            return bytes.count
        })
        #expect(writes.count == 2)
        #expect(writes.first?.descriptors == 0)
        #expect(String(decoding: writes[0].bytes, as: UTF8.self).contains("echo"))
        #expect(writes.last?.descriptors == 1)
        #expect(String(decoding: writes[1].bytes, as: UTF8.self) == #"{"parameters":{"fileDescriptor":0}}"# + "\0")
    }

    @Test func aConnectionHoldsAtMostSixteenUnsentDescriptorsAndTheNextCallGetsTheLimitError() {
        var connection = connection()
        let call = #"{"method":"org.example.pipes.Open"}"# + "\0"
        connection.receive(Array(String(repeating: call, count: 18).utf8))
        _ = connection.process(maximumCalls: 64, outputLimit: 1 << 20)
        var passed = 0
        let replies = String(
            decoding: {
                var all: [UInt8] = []
                _ = connection.writeOutput(passing: { (bytes, descriptors) -> Int? in
                    passed += descriptors.count
                    all += bytes
                    return bytes.count
                })
                return all
            }(), as: UTF8.self
        ).split(separator: "\0")
        #expect(passed == VarlinkConnection.maximumPendingDescriptors)
        #expect(replies.count == 18)
        #expect(replies.suffix(2).allSatisfy { $0.contains("org.example.pipes.TooManyDescriptors") })
        #expect(replies.prefix(16).allSatisfy { $0.contains("fileDescriptor") })
    }

    @Test func descriptorsCrossARealSocketWithTheirReply() throws {
        let (ours, theirs) = try PacketSocket.pair()
        _ = ours
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let message: [UInt8] = Array("hello".utf8)
        _ = try message.withUnsafeBytes { (bytes) throws(SystemError) -> Int? in
            try UnixSocket.send(ours.rawValue, bytes, passing: [ends[0]])
        }
        _ = Glibc.write(ends[1], "x", 1)
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [FileDescriptor] = []
        let count = try UnixSocket.receive(theirs.rawValue, into: &buffer, descriptors: &received)
        #expect(count == 5 && received.count == 1)
        var byte: UInt8 = 0
        #expect(Glibc.read(received[0].rawValue, &byte, 1) == 1 && byte == UInt8(ascii: "x"))
        #expect(fcntl(received[0].rawValue, F_GETFD) & FD_CLOEXEC != 0)
        Syscall.close(ends[0])
        Syscall.close(ends[1])
    }
}

/// Issue 13: a reply with descriptors after replies already written on the same connection (the
/// output queue kept an emptied buffer in front of it, and the reply never left).
@Suite struct DescriptorAfterRepliesTests {
    @Test func aDescriptorReplyAfterTwoWrittenRepliesIsWrittenWithItsDescriptor() {
        var connection = DescriptorPassingTests().connection()
        var writes: [(bytes: [UInt8], descriptors: Int)] = []
        for method in ["Echo", "Echo", "Open"] {
            connection.receive(Array(#"{"method":"org.example.pipes.\#(method)"}\#0"#.utf8))
            _ = connection.process(maximumCalls: 8, outputLimit: 1 << 20)
            for _ in 0..<4 where connection.pendingOutputCount > 0 {
                _ = connection.writeOutput(passing: { (bytes, descriptors) -> Int? in
                    writes.append((Array(bytes), descriptors.count))
                    return bytes.count
                })
            }
        }
        #expect(connection.pendingOutputCount == 0)
        #expect(writes.last?.descriptors == 1)
        #expect(
            String(decoding: writes.last?.bytes ?? [], as: UTF8.self) == #"{"parameters":{"fileDescriptor":0}}"# + "\0")
    }
}
