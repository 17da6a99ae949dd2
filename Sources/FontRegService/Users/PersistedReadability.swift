import FontRegSystem

/// The file classification of ``FileReadability`` kept beside the index file
/// (`readability.cache` in the cache directory), so that a start does not ask the kernel again
/// about files whose answer cannot have changed (issue 29 item 3: at 10,000 files, about 60,000
/// system calls before `READY=1`).
///
/// Each answer is kept with the ``FileFingerprint`` of its file and of every directory above it,
/// taken before the answer was found; a start reuses it only while all of them are the same
/// (``FileReadability/classify(_:files:reusing:)``). A file not this user's own, or that others
/// may write, is not read (as the index file is not trusted then); a damaged one is ignored and
/// every file is asked about again.
struct PersistedReadability: Sendable, Equatable {
    /// The answers, by path.
    var files: [String: FileReadability.Known] = [:]
    /// The directories above those files, as they were when the answers were found.
    var directories: [String: FileFingerprint] = [:]

    /// The file's name in the cache directory.
    static let fileName = "readability.cache"
    /// The first bytes of the file, with the layout's version.
    static let magic: [UInt8] = Array("fontreg readability 1\n".utf8)
    /// The largest file read (about 80 bytes per file: far more than any registry's).
    static let maximumBytes = 256 << 20

    /// Reads the file `directory` holds.
    ///
    /// - Returns: the classification, or why it was not used (`nil` for both when there is none).
    static func read(directory: String) -> (readability: PersistedReadability?, refusal: String?) {
        let path = directory + "/" + fileName
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, as: .file, followLinks: false)
        } catch {
            return (nil, error.errno == .noSuchFileOrDirectory ? nil : "\(path) cannot be read (\(error))")
        }
        // Only this user's own private file: another's could call a restricted font public.
        guard let status = try? file.status(), status.kind == .regular, status.owner == Syscall.userID,
            status.permissions & 0o022 == 0
        else {
            return (nil, "\(path) is not this user's own private file; not trusted")
        }
        guard let bytes = try? file.readAll(limit: maximumBytes), let readability = PersistedReadability(bytes: bytes)
        else {
            return (nil, "\(path) is damaged; every file is asked about again")
        }
        return (readability, nil)
    }

    /// Replaces the file in `directory` (mode 0600, atomically).
    ///
    /// - Throws: ``SystemError`` from the write.
    func write(directory: String) throws(SystemError) {
        try AtomicFile.write(bytes, directory: directory, name: Self.fileName, mode: 0o600, exactMode: true)
    }

    /// The file's bytes: ``magic``, the counts, each directory and each file (path, device, inode,
    /// ``FileFingerprint/stamp``; a file also whether it is public), little-endian, and an
    /// FNV-1a hash of everything before it.
    var bytes: [UInt8] {
        var out = Self.magic
        out.reserveCapacity(out.count + 16 + (directories.count + files.count) * 96)
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func put(_ path: String, _ print: FileFingerprint) {
            put(UInt64(path.utf8.count))
            out += path.utf8
            put(print.device)
            put(print.inode)
            put(UInt64(bitPattern: Int64(print.stamp)))
        }
        put(UInt64(directories.count))
        put(UInt64(files.count))
        for (path, print) in directories.sorted(by: { $0.key < $1.key }) { put(path, print) }
        for (path, known) in files.sorted(by: { $0.key < $1.key }) {
            guard let print = known.fingerprint else { continue }
            put(path, print)
            out.append(known.isPublic ? 1 : 0)
        }
        put(Self.hash(out[...]))
        return out
    }

    /// Reads ``bytes``; `nil` when they are not a whole file of this layout.
    init?(bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count + 24, bytes.starts(with: Self.magic) else { return nil }
        var at = Self.magic.count
        let end = bytes.count - 8
        func u64() -> UInt64? {
            guard at + 8 <= end else { return nil }
            var value: UInt64 = 0
            for i in 0..<8 { value |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            at += 8
            return value
        }
        func entry() -> (String, FileFingerprint)? {
            guard let count = u64(), count <= UInt64(end - at) else { return nil }
            let path = String(decoding: bytes[at..<at + Int(count)], as: UTF8.self)
            at += Int(count)
            guard let device = u64(), let inode = u64(), let stamp = u64() else { return nil }
            return (path, FileFingerprint(device: device, inode: inode, stamp: Int(Int64(bitPattern: stamp))))
        }
        var stored: UInt64 = 0
        for i in 0..<8 { stored |= UInt64(bytes[end + i]) << (8 * UInt64(i)) }
        guard stored == Self.hash(bytes[..<end]), let directoryCount = u64(), let fileCount = u64(),
            directoryCount <= UInt64(end), fileCount <= UInt64(end)
        else { return nil }
        directories.reserveCapacity(Int(directoryCount))
        for _ in 0..<directoryCount {
            guard let (path, print) = entry() else { return nil }
            directories[path] = print
        }
        files.reserveCapacity(Int(fileCount))
        for _ in 0..<fileCount {
            guard let (path, print) = entry(), at < end else { return nil }
            let flag = bytes[at]
            at += 1
            guard flag <= 1 else { return nil }
            files[path] = FileReadability.Known(
                device: print.device, inode: print.inode, isPublic: flag == 1, fingerprint: print)
        }
        guard at == end else { return nil }
    }

    /// Builds one from what a classification knows.
    init(files: [String: FileReadability.Known], directories: [String: FileFingerprint]) {
        self.files = files.filter { $0.value.fingerprint != nil }
        self.directories = directories
    }

    /// FNV-1a (64-bit) of `bytes`.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return value
    }
}
