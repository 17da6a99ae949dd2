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
    /// The file's bytes (``bytes(files:directories:)``' layout), checked whole when read.
    let bytes: [UInt8]
    /// The directories above the files, as they were when the answers were found.
    let directories: [String: FileFingerprint]
    /// How many file records there are.
    let fileCount: Int
    /// Where the first file record starts in ``bytes``.
    private let filesStart: Int

    /// The file's name in the cache directory.
    static let fileName = "readability.cache"
    /// The first bytes of the file, with the layout's version (2: the files in their paths'
    /// byte order, the order of the index file's file table, read in place).
    static let magic: [UInt8] = Array("fontreg readability 2\n".utf8)
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
        guard let bytes = try? file.readAll(limit: maximumBytes, expectedSize: Int(clamping: status.size)),
            let readability = PersistedReadability(bytes: bytes)
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

    /// The answers, by path (decoded from ``bytes``: for a classification that looks files up by path).
    var files: [String: FileReadability.Known] {
        var files: [String: FileReadability.Known] = [:]
        files.reserveCapacity(fileCount)
        forEachFile { path, record in
            files[String(decoding: path, as: UTF8.self)] = FileReadability.Known(
                device: record.print.device, inode: record.print.inode, isPublic: record.isPublic,
                fingerprint: record.print)
            return true
        }
        return files
    }

    /// One kept answer: the file's fingerprint before it was asked about, and whether it is public.
    struct Record {
        /// The file as it was before it was asked about.
        var print: FileFingerprint
        /// Whether a stranger could open it, evenly.
        var isPublic: Bool
    }

    /// Calls `body` with each file record in order (its path's bytes, in place) while it returns `true`.
    ///
    /// - Returns: whether every record was visited.
    @discardableResult
    func forEachFile(_ body: (UnsafeRawBufferPointer, Record) -> Bool) -> Bool {
        bytes.withUnsafeBytes { raw in
            var at = filesStart
            for _ in 0..<fileCount {
                let count = Int(Self.u64(raw, at))
                let path = UnsafeRawBufferPointer(rebasing: raw[at + 8..<at + 8 + count])
                at += 8 + count
                let print = FileFingerprint(
                    device: Self.u64(raw, at), inode: Self.u64(raw, at + 8),
                    stamp: Int(Int64(bitPattern: Self.u64(raw, at + 16))))
                let record = Record(print: print, isPublic: raw[at + 24] == 1)
                at += 25
                guard body(path, record) else { return false }
            }
            return true
        }
    }

    /// The file's bytes: ``magic``, the counts, each directory and each file (path, device, inode,
    /// ``FileFingerprint/stamp``; a file also whether it is public), each kind in its paths' byte
    /// order, little-endian, and a hash of everything before it (``hash(_:)``). Answers with no
    /// fingerprint (never reused) are left out.
    static func bytes(files: [String: FileReadability.Known], directories: [String: FileFingerprint]) -> [UInt8] {
        var out = magic
        out.reserveCapacity(out.count + 16 + (directories.count + files.count) * 96)
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        func put(_ path: String, _ print: FileFingerprint) {
            put(UInt64(path.utf8.count))
            out += path.utf8
            put(print.device)
            put(print.inode)
            put(UInt64(bitPattern: Int64(print.stamp)))
        }
        let kept = files.compactMap { path, known in known.fingerprint.map { (path, $0, known.isPublic) } }
        put(UInt64(directories.count))
        put(UInt64(kept.count))
        for (path, print) in directories.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            put(path, print)
        }
        for (path, print, isPublic) in kept.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
            put(path, print)
            out.append(isPublic ? 1 : 0)
        }
        put(hash(out[...]))
        return out
    }

    /// Reads ``bytes``; `nil` when they are not a whole file of this layout (the hash, every
    /// record's bounds and flag, and the files' order are checked here, once).
    init?(bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count + 24, bytes.starts(with: Self.magic) else { return nil }
        guard let checked = Self.check(bytes) else { return nil }
        self.bytes = bytes
        directories = checked.directories
        fileCount = checked.files
        filesStart = checked.start
    }

    /// Builds one from what a classification knows (the answers with a fingerprint).
    init(files: [String: FileReadability.Known], directories: [String: FileFingerprint]) {
        let bytes = Self.bytes(files: files, directories: directories)
        guard let checked = Self.check(bytes) else {
            preconditionFailure("the kept classification's own bytes do not read back")
        }
        self.bytes = bytes
        self.directories = checked.directories
        fileCount = checked.files
        filesStart = checked.start
    }

    /// Checks a whole file (at least the magic and 24 bytes): its hash, every record's bounds
    /// and flag, the files' strictly increasing order; decodes the directories.
    private static func check(_ bytes: [UInt8]) -> (directories: [String: FileFingerprint], files: Int, start: Int)? {
        let end = bytes.count - 8
        guard end >= magic.count + 16 else { return nil }
        return bytes.withUnsafeBytes { raw in
            guard u64(raw, end) == hash(bytes[..<end]) else { return nil }
            var at = magic.count
            let directoryCount = u64(raw, at), fileCount = u64(raw, at + 8)
            at += 16
            guard directoryCount <= UInt64(end), fileCount <= UInt64(end) else { return nil }
            // The bounds of the record at `at` (its path's end, the record's end), `nil` past `end`.
            func record(flag: Bool) -> (pathEnd: Int, end: Int)? {
                guard at + 8 <= end else { return nil }
                let count = u64(raw, at)
                guard count <= UInt64(end - at - 8) else { return nil }
                let pathEnd = at + 8 + Int(count), recordEnd = pathEnd + 24 + (flag ? 1 : 0)
                guard recordEnd <= end else { return nil }
                return (pathEnd, recordEnd)
            }
            var directories: [String: FileFingerprint] = [:]
            directories.reserveCapacity(Int(directoryCount))
            for _ in 0..<directoryCount {
                guard let (pathEnd, recordEnd) = record(flag: false) else { return nil }
                let path = String(decoding: raw[at + 8..<pathEnd], as: UTF8.self)
                directories[path] = FileFingerprint(
                    device: u64(raw, pathEnd), inode: u64(raw, pathEnd + 8),
                    stamp: Int(Int64(bitPattern: u64(raw, pathEnd + 16))))
                at = recordEnd
            }
            guard directories.count == Int(directoryCount) else { return nil }
            let start = at
            var previous: UnsafeRawBufferPointer?
            for _ in 0..<fileCount {
                guard let (pathEnd, recordEnd) = record(flag: true), raw[recordEnd - 1] <= 1 else { return nil }
                let path = UnsafeRawBufferPointer(rebasing: raw[at + 8..<pathEnd])
                if let previous, !previous.lexicographicallyPrecedes(path) { return nil }
                previous = path
                at = recordEnd
            }
            guard at == end else { return nil }
            return (directories, Int(fileCount), start)
        }
    }

    /// The little-endian `UInt64` at `at` (within the bounds the reader checked).
    private static func u64(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    /// A 64-bit hash of `bytes`, eight at a time: FNV-1a's step over little-endian words, the
    /// last word padded with zeros, then the length. Each step is a bijection of the hash so
    /// far, so a change of any one word always shows.
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { raw in
            var at = 0
            while at + 8 <= raw.count {
                value =
                    (value ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                    &* 0x0000_0100_0000_01b3
                at += 8
            }
            var last: UInt64 = 0
            var shift: UInt64 = 0
            while at < raw.count {
                last |= UInt64(raw[at]) << shift
                shift += 8
                at += 1
            }
            value = (value ^ last) &* 0x0000_0100_0000_01b3
            value = (value ^ UInt64(raw.count)) &* 0x0000_0100_0000_01b3
        }
        return value
    }
}
