import Synchronization

// Issue 15 (OpenFace): what the service needs to hand out a face's file.
extension FontRegistry {
    /// The directory of the index file, where what belongs with it is kept (the service's
    /// file classification, ``indexFileName``'s neighbour).
    package var cacheDirectory: String { indexFile.directory }

    /// The identity the last scan recorded for an indexed file, or `nil` when it is not indexed.
    package func indexedFile(path: String) -> IndexedFile? {
        // Served mapped (a warm start, before any change): the file table answers, in place.
        if case .mapped(let inPlace) = index.storage, let mapped = inPlace as? MappedIndex {
            return mapped.snapshot.indexedFile(path: path)
        }
        return indexedFiles.withLock { $0[path] }
    }

    /// The file table of `index` read in place, when `index` is this registry's current index
    /// and is served mapped from its own index file (a warm start before any change); `nil` otherwise.
    package func indexedFileTable(of index: FontIndex) -> IndexedFileTable? {
        guard case .mapped(let inPlace) = index.storage, let mapped = inPlace as? MappedIndex,
            case .mapped(let current) = self.index.storage, (current as? MappedIndex) === mapped,
            mapped.snapshot.hasRegistryPart
        else { return nil }
        return IndexedFileTable(snapshot: mapped.snapshot)
    }
}
