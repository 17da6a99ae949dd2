import FontRegSystem

/// Lays out a ``FontIndex`` as snapshot bytes (the layout in `SnapshotLayout.swift`) and writes them atomically.
public enum SnapshotWriter {
    /// The snapshot of an index, as bytes.
    ///
    /// - Parameters:
    ///   - index: the faces and families to lay out.
    ///   - rules: the family rules and aliases a client resolves with (stored in their wire form).
    ///   - generation: the generation to record (by default the index's).
    /// - Returns: the file's bytes, checksum included.
    public static func bytes(of index: FontIndex, rules: RuleSet = .empty, generation: Int? = nil) -> [UInt8] {
        var builder = SnapshotBuilder(index: index, rules: rules)
        return builder.build(generation: UInt64(max(0, generation ?? index.generation)))
    }

    /// The snapshot of an index with its text coverage section laid out (which a warm start reads
    /// in place; the published file does not need it), as bytes: for tests and the fuzzer.
    ///
    /// - Parameters:
    ///   - index: the faces and families to lay out.
    ///   - rules: the family rules and aliases a client resolves with.
    /// - Returns: the file's bytes, checksum included.
    package static func bytesWithTextCoverage(of index: FontIndex, rules: RuleSet = .empty) -> [UInt8] {
        var builder = SnapshotBuilder(index: index, rules: rules, textCoverage: true)
        return builder.build(generation: UInt64(max(0, index.generation)))
    }

    /// The registry's own index file: the public part, then the registry part (``SnapshotRegistryPart``).
    static func bytes(of index: FontIndex, rules: RuleSet, registry: SnapshotRegistryPart) -> [UInt8] {
        var builder = SnapshotBuilder(index: index, rules: rules, registry: registry)
        return builder.build(generation: UInt64(max(0, index.generation)))
    }

    /// Recomputes the checksum of snapshot bytes in place, as a writer (or a fuzzer that wants
    /// to reach past the checksum check) does after changing them.
    ///
    /// - Parameter bytes: the file's bytes; shorter than a header, they are left alone.
    package static func reseal(_ bytes: inout [UInt8]) {
        guard bytes.count >= SnapshotLayout.headerSize else { return }
        let sum = bytes.withUnsafeBytes { SnapshotHash.checksum($0) }
        withUnsafeBytes(of: sum.littleEndian) {
            bytes.replaceSubrange(SnapshotLayout.checksumOffset..<SnapshotLayout.checksumOffset + 8, with: $0)
        }
    }

    /// Writes the snapshot of an index to `directory/name`: temporary file, `fsync`, rename, `fsync` of the directory.
    ///
    /// - Parameters:
    ///   - index: the faces and families to lay out.
    ///   - rules: the family rules and aliases a client resolves with.
    ///   - directory: the directory that holds the snapshot.
    ///   - name: the file name.
    ///   - generation: the generation to record (by default the index's).
    /// - Throws: ``SnapshotError/unreadable(path:reason:)`` naming the call that failed.
    public static func write(
        _ index: FontIndex, rules: RuleSet = .empty, directory: String, name: String, generation: Int? = nil
    ) throws(SnapshotError) {
        do {
            try AtomicFile.write(
                bytes(of: index, rules: rules, generation: generation), directory: directory, name: name)
        } catch {
            throw .unreadable(path: directory + "/" + name, reason: error.description)
        }
    }
}
