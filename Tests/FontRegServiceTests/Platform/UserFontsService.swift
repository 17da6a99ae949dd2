import FontRegTestSupport
import Foundation
import Glibc

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegService
@testable import FontRegSystem
@testable import Varlink

/// A ``RegistryService`` without a socket whose users register in a temporary user-font root
/// (absolute, so uids need no home in the user database), with its own state directory.
final class UserFontsService {
    /// The temporary directory holding the root and the state.
    let directory = Fixtures.temporaryDirectory()
    /// Where users may register their own fonts.
    var root: String { directory + "/users" }
    /// The state directory.
    var state: String { directory + "/state" }
    /// The service.
    private(set) var service: RegistryService!

    init(fonts: [String] = [], configure: (inout PlatformSettings) -> Void = { _ in }) throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        service = try makeService(fonts: fonts, configure: configure)
    }

    deinit { Fixtures.cleanUp(directory) }

    /// A new service over the same directories (a restart), with the settings changed by `configure`.
    func makeService(fonts: [String] = [], configure: (inout PlatformSettings) -> Void = { _ in }) throws
        -> RegistryService
    {
        var platform = PlatformSettings()
        platform.userFontRoots = [root]
        configure(&platform)
        let registry = try FontRegistry(configuration: RegistryConfiguration(fontDirectories: fonts))
        return RegistryService(
            registry: registry, store: RegistrationStore(directory: state), persisted: [],
            settings: .init(access: AccessPolicy(allowedUIDs: [0]), allowedRoots: AllowedRoots([]), platform: platform),
            logger: Logger(minimumLevel: .error))
    }

    /// A directory inside the root owned by `uid`, holding copies of `fonts` (fixture file names).
    func ownDirectory(_ name: String, uid: UInt32, fonts: [String] = []) -> String {
        let path = root + "/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        Fixtures.copy(fonts, to: path)
        for font in fonts { chown(path + "/" + font, uid, uid) }
        chown(path, uid, uid)
        return path
    }

    /// Calls `method` as `uid` through a connection in memory (``InMemoryConnection``: the daemon's
    /// framing and dispatch), running deferred and offloaded work at once, as the worker would.
    @discardableResult
    func call(_ method: String, _ parameters: [String: JSONValue] = [:], uid: UInt32) -> Result<JSONValue, VarlinkError>
    {
        let connection = InMemoryConnection(service: service, peer: PeerCredentials(pid: 1, uid: uid, gid: uid))
        defer { connection.close() }
        do {
            return .success(.object(try connection.call("io.fontreg.Registry." + method, parameters)))
        } catch .remote(let error) {
            return .failure(error)
        } catch {
            return .failure(VarlinkError("test.NoReply", ["reason": .string("\(error)")]))
        }
    }
}

extension Result where Failure == VarlinkError {
    /// The error, or `nil` for a reply.
    var error: VarlinkError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
