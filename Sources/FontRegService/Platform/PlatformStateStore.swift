import FontRegJSON
import FontRegSystem
import Glibc

/// ``PlatformState`` in `platform.json` of the state directory, written durably before a reply.
///
/// The file is mode 0600: it names users' own font paths, which other users must not read.
package struct PlatformStateStore: Sendable {
    /// The state directory.
    package let directory: String
    /// The file's name in it.
    package static let name = "platform.json"

    package init(directory: String) {
        self.directory = directory
    }

    /// The state file's path.
    package var path: String { directory + "/" + Self.name }

    /// Reads the state; an empty state when the file does not exist yet. A file this version
    /// cannot read is moved aside to `platform.json.corrupt` (kept for the operator).
    ///
    /// - Returns: the state, and the path a corrupt file was moved to, if one was.
    package func load() -> (state: PlatformState, corrupt: String?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return (PlatformState(), nil) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= RegistrationStore.maximumSize {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        Syscall.close(fd)
        if let value = try? JSONParser.parse(bytes), let state = PlatformState(value) { return (state, nil) }
        let aside = path + ".corrupt"
        guard rename(path, aside) == 0 else { return (PlatformState(), nil) }
        return (PlatformState(), aside)
    }

    /// Replaces the state, durably (see ``AtomicFile``).
    ///
    /// - Throws: ``PersistenceError/system(_:)``; the old file is then left as it was.
    package func save(_ state: PlatformState) throws(PersistenceError) {
        var bytes = Array(state.jsonValue.prettyPrinted().utf8)
        bytes.append(0x0A)
        do {
            try Syscall.run("mkdir", subject: directory) { mkdir(directory, 0o755) == 0 || errno == EEXIST ? 0 : -1 }
            try AtomicFile.write(bytes, directory: directory, name: Self.name, mode: 0o600)
        } catch {
            throw .system(error)
        }
    }
}
