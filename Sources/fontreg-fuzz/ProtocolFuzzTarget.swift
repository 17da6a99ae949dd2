import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegServer
import FontRegService
import FontRegSystem
import Foundation
import Varlink

/// The coverage-guided fuzz target: bytes from a client, through framing, JSON decoding and dispatch.
///
/// One input is what one connection sends. Its first byte chooses how the bytes arrive
/// (reads of 1 to 64 bytes, as a slow or fragmenting client would send them) and who sends
/// them (root, who may change the registry, or `nobody`); the rest is the byte stream. Each
/// complete message goes the way the daemon's event loop sends it: ``MessageFramer`` (with a
/// 4 KiB limit so that the limit path is reached), ``VarlinkCall/init(parsing:)``, then
/// `org.varlink.service` or ``RegistryService/handle(_:peer:)`` over a real ``FontRegistry``
/// of the fixture fonts. A protocol error ends the input, as it ends the connection.
///
/// Besides crashes, sanitizer reports and hangs, it checks two properties:
/// - any JSON the parser accepts serializes to bytes that parse back to the same value;
/// - every reply the daemon would send is a Varlink reply that parses.
///
/// Work the daemon defers to its serial worker (Register, Unregister, Rescan) is not run:
/// it scans files, which is the font fuzzer's job, not this one's.
enum ProtocolFuzzTarget {
    /// The service under test, built once per process.
    nonisolated(unsafe) static var service: RegistryService? = nil

    static let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
    static let nobody = PeerCredentials(pid: 2, uid: 65534, gid: 65534)

    /// Builds the registry over the fixture fonts (`FONTREG_FUZZ_FONTS`, else the repository's).
    static func makeService() -> RegistryService {
        let environment = ProcessInfo.processInfo.environment
        let fonts =
            environment["FONTREG_FUZZ_FONTS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/fonts/families").path
        let scratch = NSTemporaryDirectory() + "fontreg-fuzz-\(getpid())"
        do {
            let registry = try FontRegistry(
                configuration: RegistryConfiguration(fontDirectories: [fonts], cacheDirectory: scratch + "/cache"))
            return RegistryService(
                registry: registry, store: RegistrationStore(directory: scratch + "/state"), persisted: [],
                settings: .init(
                    access: AccessPolicy(allowedUIDs: [0]), allowedRoots: AllowedRoots([scratch + "/allowed"])),
                logger: Logger(minimumLevel: .error))
        } catch {
            fatalError("fontreg-fuzz: cannot scan the fixture fonts at \(fonts): \(error)")
        }
    }

    /// Runs one input.
    static func run(_ input: UnsafeRawBufferPointer) {
        if service == nil { service = makeService() }
        guard let service, let first = input.first else { return }
        let readSize = Int(first & 0x3F) + 1
        let peer = first & 0x40 != 0 ? nobody : root
        let stream = UnsafeRawBufferPointer(rebasing: input[1...])
        var framer = MessageFramer(maximumMessageSize: 4096)
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + readSize)
            framer.append(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
            offset = end
            do {
                while try framer.nextMessage({ (bytes) throws(VarlinkProtocolError) -> Bool in
                    try answer(bytes, service: service, peer: peer)
                    return true
                }) != nil {}
            } catch {
                return  // the daemon sends InvalidMessage or MessageTooLarge and closes the connection
            }
        }
    }

    /// Decodes and dispatches one message the way `EventLoop.dispatch` does, and checks the reply.
    static func answer(_ bytes: UnsafeBufferPointer<UInt8>, service: RegistryService, peer: PeerCredentials)
        throws(VarlinkProtocolError)
    {
        if let value = try? JSONParser.parse(buffer: bytes) {
            let written = value.serialized()
            guard let again = try? JSONParser.parse(written), again == value else {
                fatalError("JSON round trip changed the value: \(String(decoding: written, as: UTF8.self))")
            }
        }
        let call = try VarlinkCall(parsing: bytes)
        let reply: VarlinkReply?
        if call.upgrade {
            reply = VarlinkReply(error: .methodNotImplemented(call.method))
        } else if call.interface == VarlinkError.serviceInterface {
            do {
                reply = VarlinkReply(parameters: try service.introspection.handle(call))
            } catch {
                reply = VarlinkReply(error: error)
            }
        } else if !service.introspection.serves(call.interface) {
            reply = VarlinkReply(error: .interfaceNotFound(call.interface))
        } else {
            switch service.handle(call, peer: peer) {
            case .reply(let parameters): reply = VarlinkReply(parameters: parameters)
            case .encodedReply(let encoded):
                var output: [UInt8] = []
                VarlinkReply.write(encodedParameters: encoded, to: &output)
                check(output)
                reply = nil
            case .failure(let error): reply = VarlinkReply(error: error)
            case .deferred: reply = nil
            case .subscribe(let first):
                reply =
                    call.more ? VarlinkReply(parameters: first, continues: true) : VarlinkReply(error: .expectedMore)
            }
        }
        if let reply { check(reply.serialized()) }
    }

    /// Every reply must be one NUL-terminated Varlink reply that parses.
    static func check(_ output: [UInt8]) {
        guard output.last == 0 else { fatalError("reply without its NUL") }
        let parsed = output.dropLast().withUnsafeBufferPointer { buffer in
            Result { () throws(VarlinkProtocolError) in try VarlinkReply(parsing: buffer) }
        }
        if case .failure(let error) = parsed {
            fatalError(
                "the daemon would send a reply that does not parse (\(error)): \(String(decoding: output.dropLast(), as: UTF8.self).prefix(500))"
            )
        }
    }
}

#if FONTREG_LIBFUZZER
    // Both functions live in this file: a @_cdecl function used as a C function pointer from another
    // file gets its thunk emitted twice (duplicate symbol at link time).

    /// libFuzzer's callback: one input per call.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        ProtocolFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    func libFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The entry point SwiftPM links as `main` on Linux (`--defsym main=fontreg_fuzz_main`).
    @_cdecl("fontreg_fuzz_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        // Built before the first input, and fontconfig's background parse waited for, so that
        // LeakSanitizer does not blame the first input for the registry's own allocations.
        let service = ProtocolFuzzTarget.makeService()
        _ = service.registry.fontconfigPatternCount
        ProtocolFuzzTarget.service = service
        var count = argc
        var arguments = argv
        return libFuzzerRunDriver(&count, &arguments, fuzzOneInput)
    }
#endif
