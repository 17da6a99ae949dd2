import FontRegCore
import FontRegProtocol
import FontRegTestSupport
import Testing

/// The daemon half of the getting-started article (`Sources/FontRegCore/FontRegCore.docc/GettingStarted.md`):
/// the same query through ``RegistryClient`` to a real `fontregd` serving the bundled fonts.
@Suite struct GettingStartedDaemonTests {
    @Test func resolvingThroughTheDaemonFindsTheSameFaceAsInProcess() throws {
        let daemon = try DaemonProcess(fonts: [BuildProducts.realFonts])
        defer { _ = try? daemon.stop() }
        let socketPath = daemon.socketPath
        // From here to the end of the sample, the code is the article's, line for line.
        let client = try RegistryClient(socketPath: socketPath)
        let reply = try client.resolve(ResolveQuery(family: "Lato", weight: .semibold, boldText: true))
        print(reply.postscriptName, reply.file)
        // End of the sample.
        #expect(reply.postscriptName == "Lato-Bold")
        #expect(reply.file == BuildProducts.realFonts + "/Lato/Lato-Bold.ttf")
        #expect(reply.effectiveWeight == 700)
    }
}
