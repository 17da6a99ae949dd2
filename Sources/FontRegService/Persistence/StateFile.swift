import FontRegSystem

/// One file of the daemon's persisted state (`registrations.json`, `platform.d/<uid>.json`, `platform.json`), read and
/// moved aside without trusting what is at its name (issue 24).
///
/// It is opened relative to the state directory's descriptor with `O_NOFOLLOW | O_NONBLOCK |
/// O_CLOEXEC` and read only when `fstat` says it is a regular file: a symbolic link, a FIFO
/// (which would block the start) or a device is reported and left where it is. A file that
/// cannot be parsed is moved aside to a name of its own (``moveAside()``), never over another.
package struct StateFile: Sendable {
    /// The state directory.
    package let directory: String
    /// The file's name in it.
    package let name: String

    /// The file `name` of the state directory `directory`.
    ///
    /// - Parameters:
    ///   - directory: the state directory.
    ///   - name: the file name (no slash).
    package init(directory: String, name: String) {
        self.directory = directory
        self.name = name
    }

    /// The file's path.
    package var path: String { directory + "/" + name }

    /// The largest state file read, and written: a few thousand paths take kilobytes.
    package static let maximumSize = 16 << 20

    /// How many copies moved aside are kept: the newest; older ones are removed when another is made.
    package static let keptCopies = 5

    /// The file's bytes; `nil` when it (or the state directory) does not exist yet.
    ///
    /// - Throws: ``PersistenceError/notRegularFile(path:kind:)`` for a link, FIFO or other non-file
    ///   (left in place); ``PersistenceError/corrupt(path:reason:)`` past ``maximumSize``;
    ///   ``PersistenceError/system(_:)`` when it cannot be read.
    package func read() throws(PersistenceError) -> [UInt8]? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(directory, as: .directory).openEntry(name, as: .file)
        } catch {
            if error.errno == .noSuchFileOrDirectory { return nil }
            if error.errno == .tooManySymbolicLinkLevels { throw .notRegularFile(path: path, kind: "a symbolic link") }
            throw .system(error)
        }
        do {
            let status = try file.status()
            guard status.kind == .regular else {
                throw PersistenceError.notRegularFile(path: path, kind: status.kind.described)
            }
            return try file.readAll(limit: Self.maximumSize)
        } catch let error as PersistenceError {
            throw error
        } catch let error as SystemError {
            if error.errno == .fileTooLarge {
                throw .corrupt(path: path, reason: "larger than \(Self.maximumSize >> 20) MiB")
            }
            throw .system(error.about(path))
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Refuses bytes that the next start would not read.
    ///
    /// - Parameter bytes: what is about to be written.
    /// - Throws: ``PersistenceError/tooLarge(path:size:limit:)`` past ``maximumSize``.
    func checkSize(_ bytes: [UInt8]) throws(PersistenceError) {
        guard bytes.count <= Self.maximumSize else {
            throw .tooLarge(path: path, size: bytes.count, limit: Self.maximumSize)
        }
    }

    /// Where a corrupt file went, and the older copies removed to keep ``keptCopies``.
    package struct MovedAside: Sendable, Equatable {
        /// The path of the copy kept.
        package let path: String
        /// The paths of older copies removed.
        package let removed: [String]
    }

    /// Moves the file aside to `<name>.corrupt-<UTC time>-<counter>`, a name no other copy has.
    ///
    /// The new name is created exclusively (``FileDescriptor/moveEntryWithoutReplacing(_:to:)``),
    /// so a second corruption never overwrites the copy of the first; then the copies beyond the
    /// ``keptCopies`` newest are removed.
    /// - Returns: the copy's path and the copies removed.
    /// - Throws: ``PersistenceError/system(_:)`` when the file cannot be moved (it is then left in place).
    package func moveAside() throws(PersistenceError) -> MovedAside {
        let dir: FileDescriptor
        do {
            dir = try FileDescriptor.open(directory, as: .directory)
        } catch {
            throw .system(error)
        }
        let prefix = name + ".corrupt-" + WallClock.compactUTCStamp + "-"
        // Past the highest counter of this second, so that the newest copy also sorts last.
        let highest =
            ((try? dir.entryNames()) ?? []).filter { $0.hasPrefix(prefix) }
            .compactMap { Int($0.dropFirst(prefix.count)) }.max() ?? 0
        var kept: String?
        for counter in (highest + 1)..<max(highest + 2, 1000) where kept == nil {
            let digits = String(counter)
            let candidate = prefix + String(repeating: "0", count: 3 - digits.count) + digits
            do {
                try dir.moveEntryWithoutReplacing(name, to: candidate)
                kept = candidate
            } catch {
                if error.errno != .fileExists {
                    throw .system(error.about(path))
                }
            }
        }
        guard let kept else { throw .system(SystemError("linkat", subject: path, errno: .fileExists)) }
        try? dir.synchronize()
        return MovedAside(path: directory + "/" + kept, removed: removeOldCopies(in: dir, sparing: kept))
    }

    /// Removes the copies moved aside beyond the ``keptCopies`` newest (their names sort by time),
    /// never `newest`, the one just made.
    private func removeOldCopies(in dir: FileDescriptor, sparing newest: String) -> [String] {
        guard let names = try? dir.entryNames() else { return [] }
        let copies = names.filter { $0.hasPrefix(name + ".corrupt-") && $0 != newest }.sorted()
        var removed: [String] = []
        for old in copies.dropLast(Self.keptCopies - 1) {
            guard (try? dir.statusOfEntry(old))?.kind == .regular, (try? dir.removeEntry(old)) != nil else { continue }
            removed.append(directory + "/" + old)
        }
        return removed
    }
}

extension FileStatus.Kind {
    /// The kind in words, for messages.
    var described: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }
}
