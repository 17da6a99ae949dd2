import FontRegTestSupport
import Foundation
import Glibc
import Testing

@testable import FontRegSystem

/// systemd's notify, watchdog and socket-activation protocols, spoken without libsystemd.
@Suite("Service manager protocols")
struct ServiceManagerTests {
    @Test func notifyLinesReachASocketPathAndAnAbstractName() throws {
        let directory = TemporaryDirectory()
        let path = try NotifyListener(path: directory.path + "/notify")
        #expect(ServiceManager.send("READY=1\nSTATUS=serving", to: path.path))
        #expect(path.messages(until: "READY=1", timeout: 5) == ["READY=1\nSTATUS=serving"])
        let name = "@fontreg-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let abstract = try NotifyListener(path: name)
        #expect(ServiceManager.send("WATCHDOG=1", to: name))
        #expect(abstract.messages(until: "WATCHDOG=1", timeout: 5) == ["WATCHDOG=1"])
    }

    @Test(arguments: ["", "relative/notify", "@", "vsock:2:1234", "/nonexistent-dir/notify"])
    func anAddressOfAnotherKindOrWithNoListenerIsNotSentTo(_ address: String) {
        #expect(!ServiceManager.send("READY=1", to: address))
    }

    @Test func theWatchdogIntervalIsTakenOnlyForThisProcess() {
        #expect(ServiceManager.watchdogInterval(usec: "200000", pid: nil, processID: 42) == 200_000)
        #expect(ServiceManager.watchdogInterval(usec: "200000", pid: "42", processID: 42) == 200_000)
        #expect(ServiceManager.watchdogInterval(usec: "200000", pid: "43", processID: 42) == nil)
        #expect(ServiceManager.watchdogInterval(usec: "0", pid: nil, processID: 42) == nil)
        #expect(ServiceManager.watchdogInterval(usec: "soon", pid: nil, processID: 42) == nil)
        #expect(ServiceManager.watchdogInterval(usec: nil, pid: "42", processID: 42) == nil)
    }

    @Test func passedDescriptorsStartAtThreeWithTheirNames() {
        let named = ServiceManager.passedDescriptors(pid: "7", count: "2", names: "varlink:other", processID: 7)
        #expect(named.map(\.fd) == [3, 4] && named.map(\.name) == ["varlink", "other"])
        let unnamed = ServiceManager.passedDescriptors(pid: "7", count: "1", names: nil, processID: 7)
        #expect(unnamed.map(\.fd) == [3] && unnamed.map(\.name) == ["unknown"])
    }

    @Test(
        arguments: [
            ("8", "1", nil), (nil, "1", nil), ("7", nil, nil), ("7", "0", nil), ("7", "-1", nil), ("7", "1025", nil),
            ("7", "2", "varlink"), ("7", "x", nil),
        ] as [(String?, String?, String?)])
    func noDescriptorsArePassedWhenTheVariablesDoNotAgree(pid: String?, count: String?, names: String?) {
        #expect(ServiceManager.passedDescriptors(pid: pid, count: count, names: names, processID: 7).isEmpty)
    }

    @Test func onlyAListeningUnixStreamSocketIsTakenForActivation() throws {
        let directory = TemporaryDirectory()
        let listening = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listening) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((directory.path + "/listening").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (offset, byte) in path.enumerated() { raw[offset] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        #expect(try !ServiceManager.isListeningUnixStreamSocket(listening))  // bound, not listening yet
        try #require(listen(listening, 4) == 0)
        #expect(try ServiceManager.isListeningUnixStreamSocket(listening))

        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(datagram) }
        #expect(try !ServiceManager.isListeningUnixStreamSocket(datagram))
        let inet = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(inet) }
        var any = sockaddr_in()
        any.sin_family = sa_family_t(AF_INET)
        any.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let inetBound = withUnsafePointer(to: &any) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(inet, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(inetBound == 0 && listen(inet, 4) == 0)
        #expect(try !ServiceManager.isListeningUnixStreamSocket(inet))  // listening, but not Unix
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        #expect(try !ServiceManager.isListeningUnixStreamSocket(file))
        #expect(throws: SystemError.self) { try ServiceManager.isListeningUnixStreamSocket(9_999) }
    }
}
