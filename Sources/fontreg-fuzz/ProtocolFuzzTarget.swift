import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Foundation
import Varlink

/// The coverage-guided fuzz target: bytes from a client, through the daemon's own connection logic.
///
/// One input is what one connection sends. Its first byte chooses how the bytes arrive
/// (reads of 1 to 64 bytes, as a slow or fragmenting client would send them) and who sends
/// them (root, who may change the registry, or `nobody`); the rest is the byte stream. The
/// bytes go to a ``VarlinkConnection`` — the same value the daemon's event loop drives, with
/// framing (a 4 KiB limit so that the limit path is reached), call decoding, ordering and
/// dispatch to `org.varlink.service` or ``RegistryService/handle(_:peer:)`` over a real
/// ``FontRegistry`` of the fixture fonts. A protocol violation ends the input, as it ends the connection.
///
/// Besides crashes, sanitizer reports and hangs, it checks two properties:
/// - any JSON the parser accepts serializes to bytes that parse back to the same value;
/// - every byte the daemon would send is part of a NUL-terminated Varlink reply that parses.
///
/// Work the daemon defers to its serial worker (Register, Unregister, Rescan) is not run: it
/// scans files, which is the font fuzzer's job, not this one's. It is completed with an empty
/// reply so that the calls after it are answered, as they are in the daemon.
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
        removeAtExit(scratch)
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

    /// The scratch directory to remove when the fuzzer exits (the service keeps its state there until then).
    nonisolated(unsafe) private static var scratchToRemove: String?

    /// Removes `scratch` when the process exits normally.
    private static func removeAtExit(_ scratch: String) {
        scratchToRemove = scratch
        atexit {
            if let scratch = ProtocolFuzzTarget.scratchToRemove { try? FileManager.default.removeItem(atPath: scratch) }
        }
    }

    /// Runs one input.
    static func run(_ input: UnsafeRawBufferPointer) {
        if service == nil { service = makeService() }
        guard let service, let first = input.first else { return }
        let readSize = Int(first & 0x3F) + 1
        let peer = first & 0x40 != 0 ? nobody : root
        let stream = UnsafeRawBufferPointer(rebasing: input[1...])
        checkRoundTrips(stream)
        var connection = VarlinkConnection(
            peer: peer, service: service, maximumMessageSize: 4096, errors: RegistryService.limitErrors)
        var output = ReplyChecker()
        var offset = 0
        while offset < stream.count && !connection.closeWhenFlushed {
            let end = min(stream.count, offset + readSize)
            connection.receive(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
            offset = end
            answerAll(&connection)
            output.check(connection.takeOutput())
        }
        connection.receiveEnd()
        answerAll(&connection)
        output.check(connection.takeOutput())
        output.finish()
    }

    /// Lets the connection answer everything it holds, completing deferred work unrun.
    static func answerAll(_ connection: inout VarlinkConnection) {
        while true {
            switch connection.process(maximumCalls: 64, outputLimit: Int.max) {
            case .waiting, .violated: return
            case .yielded: continue
            case .deferred: connection.complete(.success([:]))
            case .offloaded: connection.complete(encoded: .success(Array("{}".utf8)))
            }
        }
    }

    /// Any JSON message the parser accepts must serialize to bytes that parse back to the same value.
    static func checkRoundTrips(_ stream: UnsafeRawBufferPointer) {
        for message in stream.split(separator: 0) where message.count <= 4096 {
            let bytes = Array(message)
            guard let value = try? JSONParser.parse(bytes) else { continue }
            let written = value.serialized()
            guard let again = try? JSONParser.parse(written), again == value else {
                fatalError("JSON round trip changed the value: \(String(decoding: written, as: UTF8.self))")
            }
        }
    }
}

/// Checks that what the daemon would write is a sequence of NUL-terminated Varlink replies that parse.
struct ReplyChecker {
    private var pending: [UInt8] = []

    /// Checks every reply completed by `bytes`; keeps an unterminated rest for the next call.
    mutating func check(_ bytes: [UInt8]) {
        pending += bytes
        while let nul = pending.firstIndex(of: 0) {
            let reply = Array(pending[..<nul])
            pending.removeSubrange(...nul)
            let parsed = reply.withUnsafeBufferPointer { buffer in
                Result { () throws(VarlinkProtocolError) in try VarlinkReply(parsing: buffer) }
            }
            if case .failure(let error) = parsed {
                fatalError(
                    "the daemon would send a reply that does not parse (\(error)): \(String(decoding: reply, as: UTF8.self).prefix(500))"
                )
            }
        }
    }

    /// Every reply must end with its NUL.
    func finish() {
        guard pending.isEmpty else { fatalError("reply without its NUL") }
    }
}

#if FONTREG_LIBFUZZER
    // Both functions live in this file: a @_cdecl function used as a C function pointer from another
    // file gets its thunk emitted twice (duplicate symbol at link time).

    /// libFuzzer's callback: one input per call.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = UnsafeRawBufferPointer(start: data, count: size)
        if FuzzTargetChoice.snapshot { SnapshotFuzzTarget.run(input) } else { ProtocolFuzzTarget.run(input) }
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
        if FuzzTargetChoice.snapshot {
            SnapshotFuzzTarget.base = SnapshotFuzzTarget.makeBase()
        } else {
            let service = ProtocolFuzzTarget.makeService()
            _ = service.registry.fontconfigPatternCount
            ProtocolFuzzTarget.service = service
        }
        var count = argc
        var arguments = argv
        return libFuzzerRunDriver(&count, &arguments, fuzzOneInput)
    }
#endif
