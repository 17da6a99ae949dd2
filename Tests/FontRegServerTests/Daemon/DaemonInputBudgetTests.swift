import FontRegJSON
import FontRegTestSupport
import Testing

@testable import Varlink

/// Partly received messages of all connections share a bounded budget (issue 17).
@Suite("fontregd bounds the input its connections hold")
struct DaemonInputBudgetTests {
    @Test func partialMessagesOverAUsersShareAreRefusedAndSmallCallsAreStillServed() throws {
        // Messages of 1 MiB (the default): one uid's connections may hold 8 MiB of input.
        let daemon = try DaemonProcess()
        let partial =
            Array(#"{"method":"io.fontreg.Registry.Resolve","parameters":{"family":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 900 << 10)
        var clients: [VarlinkClient] = []
        defer { for client in clients { client.close() } }
        for _ in 0..<16 {
            let client = try daemon.client(timeout: 0.5)
            clients.append(client)
            try? client.sendRaw(partial)
        }
        var refused = 0
        var held = 0
        for client in clients {
            do throws(VarlinkClientError) {
                let reply = try client.receive()
                #expect(reply.error == "io.fontreg.Registry.MessageTooLarge")
                #expect(reply.parameters["limit"] == .int(65536))
                refused += 1
            } catch .timedOut {
                held += 1
            } catch {
                refused += 1  // closed before the refusal could be read
            }
        }
        // 16 buffers of about 1 MiB against an 8 MiB share: about half are refused.
        #expect(held >= 4 && held <= 9, "held \(held), refused \(refused)")
        #expect(refused >= 7)
        #expect(daemon.log.contains("input buffer"))
        // A small call of the same user is read and answered meanwhile.
        #expect(try daemon.client().call("io.fontreg.Registry.GetStatus")["faces"] != nil)
    }
}
