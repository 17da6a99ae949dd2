/// Why a snapshot file cannot be read; the reader reports it instead of trusting the file.
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the snapshot magic.
    case notASnapshot(path: String)
    /// The file was written by another layout version.
    case versionMismatch(path: String, found: UInt32, expected: UInt32)
    /// The file is shorter than its header says.
    case truncated(path: String, size: Int, expected: Int)
    /// The contents do not match the checksum in the header.
    case checksumMismatch(path: String)
    /// An offset, length or index points outside the file or its table.
    case outOfBounds(path: String, what: String)
    /// The file could not be opened or mapped.
    case unreadable(path: String, reason: String)

    /// What is wrong with the file, for a person.
    ///
    /// It names no program: the file may be the daemon's published snapshot or an embedded
    /// registry's own index file, so what to do about it is the caller's advice to give.
    public var description: String {
        switch self {
        case .notASnapshot(let path):
            "\(path) is not a fontreg snapshot (wrong magic)."
        case .versionMismatch(let path, let found, let expected):
            "\(path) has snapshot layout version \(found); this program reads version \(expected)."
        case .truncated(let path, let size, let expected):
            "\(path) is truncated (\(size) bytes, the header says \(expected))."
        case .checksumMismatch(let path):
            "\(path) does not match its checksum (corrupt or being tampered with)."
        case .outOfBounds(let path, let what):
            "\(path) is malformed: \(what) points outside the file."
        case .unreadable(let path, let reason):
            "Cannot map the snapshot \(path): \(reason)."
        }
    }
}
