import FontRegSystem

/// Something the scanner found and may read, held by descriptors so nothing is looked up by path again.
enum LocatedEntry {
    /// An open directory, with the path it is shown under and its path with links resolved
    /// (lexically: for resolving relative links found inside it).
    case directory(FileDescriptor, realPath: String)
    /// An entry of an open directory with its `fstatat` status (links not followed); the scanner
    /// opens it from `parent` with `O_NOFOLLOW` and checks the opened descriptor again.
    case entry(parent: FileDescriptor, name: String, status: FileStatus)
}
