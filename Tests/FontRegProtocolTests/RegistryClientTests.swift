import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegProtocol
@testable import Varlink

/// The typed Swift client against the real daemon.
@Suite("RegistryClient", .serialized)
struct RegistryClientTests {
    @Test func resolvesTheSameAsTheLibraryInProcess() throws {
        let daemon = try DaemonProcess()
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let query = ResolveQuery(
            family: "fixture-sans", weight: .regular, italic: true, boldText: true, boldPolicy: .cssBolder)
        let remote = try client.resolve(query)
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: [BuildProducts.fixtureFonts]))
        #expect(remote == ResolutionReply(try registry.resolve(query)))
        let batch = try client.resolveMany([query, ResolveQuery(family: "Nope", strict: true)])
        #expect(try batch[0].get() == remote)
        guard case .failure(let error) = batch[1] else {
            Issue.record("expected an error for an unknown family")
            return
        }
        #expect(error.explanation.contains("No registered family is named \"Nope\""))
        #expect(try client.familyNames().contains("Fixture Sans"))
        #expect(try client.faces(family: "Fixture Sans").count == 18)
        #expect(try client.face(postscriptName: "FixtureSans-Bold").weight == 700)
        let status = try client.status()
        #expect(status.faces == 128 && status.mode == .daemon && status.socket == daemon.socketPath)
        let families = try client.families()
        #expect(families.first { $0.name == "Fixture Sans" }?.faceCount == 18)
    }

    @Test func monitorStartsWithTheSubscribedStateAndStopsWhenTheBodySaysSo() throws {
        let daemon = try DaemonProcess()
        let client = try RegistryClient(socketPath: daemon.socketPath)
        var events: [RegistryEvent] = []
        try client.monitor { event in
            events.append(event)
            return false
        }
        #expect(events.map(\.event) == [.subscribed])
        #expect(events.first?.faces == 128)
    }

    @Test func aReplyOfTheWrongShapeIsReportedAsUnreadableNotAsBadVarlink() {
        guard case .malformedReply(.invalidField(let name, let expected)) = RegistryClient.unreadableReply("GetFace")
        else {
            Issue.record("unexpected error shape")
            return
        }
        #expect(name == "parameters" && expected == "a GetFace reply")
    }

    @Test func daemonErrorsAreExplainedForPeople() throws {
        let daemon = try DaemonProcess()
        let client = try RegistryClient(socketPath: daemon.socketPath)
        do {
            _ = try client.resolve(ResolveQuery(family: "Fixture Sanz", strict: true))
            Issue.record("resolved an unknown family in strict mode")
        } catch {
            guard case .remote(let remote) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(
                remote.explanation.hasPrefix(
                    "No registered family is named \"Fixture Sanz\". Did you mean \"Fixture Sans\""))
        }
    }

    @Test func connectingWhereNothingListensSaysWhereWithoutNamingAProgram() {
        do {
            _ = try RegistryClient(socketPath: "/tmp/fontreg-nothing-here.sock")
            Issue.record("connected to nothing")
        } catch {
            guard case .cannotConnect(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "/tmp/fontreg-nothing-here.sock")
            #expect(error.description.hasPrefix("cannot connect to /tmp/fontreg-nothing-here.sock"))
            #expect(!error.description.contains("fontregd"), "which program to start is the CLI's advice")
        }
    }
}
