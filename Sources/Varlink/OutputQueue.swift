import FontRegSystem

/// Bytes waiting to be written to a peer, in order: small writes copied into a buffer, large
/// pre-encoded replies kept by reference.
///
/// A cached reply (a whole `ListFaces`, hundreds of KiB) pipelined by many clients that do not
/// read was copied into every connection's buffer: 100 such clients held 867 MB. Kept by
/// reference, the copies share the cache's storage, and what a connection holds of its own is
/// only the small replies and the framing around the large ones.
package struct OutputQueue: Sendable {
    /// Replies at least this long are queued by reference instead of copied.
    package static let shareThreshold = 16 << 10
    /// A buffer with at most this much capacity is kept for reuse once written; a larger one is freed.
    static let keptCapacity = 64 << 10

    private var chunks: [[UInt8]] = []
    /// Descriptors sent with the first byte of the chunk at the same position (issue 15: `OpenFace`).
    private var chunkDescriptors: [[FileDescriptor]] = []
    /// Whether the last chunk is a shared reply (small writes then start a new chunk).
    private var lastIsShared = false
    /// Bytes of the first chunk already written.
    private var headSent = 0

    /// Bytes waiting to be written.
    package private(set) var count = 0
    /// Descriptors waiting to be sent.
    package private(set) var descriptorCount = 0

    /// Creates an empty queue.
    package init() {}

    /// Whether nothing waits to be written.
    package var isEmpty: Bool { count == 0 }

    /// Appends what `write` appends to a buffer (a reply serialized in place).
    package mutating func append(_ write: (inout [UInt8]) -> Void) {
        if chunks.isEmpty || lastIsShared {
            chunks.append([])
            chunkDescriptors.append([])
            lastIsShared = false
        }
        let last = chunks.count - 1
        let before = chunks[last].count
        write(&chunks[last])
        count += chunks[last].count - before
    }

    /// Appends bytes, by reference when they are at least ``shareThreshold`` long.
    package mutating func append(shared bytes: [UInt8]) {
        guard bytes.count >= Self.shareThreshold else {
            append { $0.append(contentsOf: bytes) }
            return
        }
        chunks.append(bytes)
        chunkDescriptors.append([])
        lastIsShared = true
        count += bytes.count
    }

    /// Appends a message in a chunk of its own whose first byte carries `descriptors` (`SCM_RIGHTS`).
    ///
    /// Nothing queued before it shares its `sendmsg`, so the peer receives the descriptors with the
    /// message they belong to, as systemd's sd-varlink sends them.
    package mutating func append(descriptors: [FileDescriptor], _ write: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        write(&bytes)
        chunks.append(bytes)
        chunkDescriptors.append(descriptors)
        lastIsShared = true  // a chunk of its own: later writes start a new one
        count += bytes.count
        descriptorCount += descriptors.count
    }

    /// Writes queued bytes with `write`, which takes some bytes and returns how many it wrote
    /// (`nil` or 0 when it would block).
    ///
    /// - Returns: whether everything was written.
    /// - Throws: what `write` throws.
    package mutating func write<Failure: Error>(
        _ write: (UnsafeRawBufferPointer) throws(Failure) -> Int?
    ) throws(Failure) -> Bool {
        try self.write { (bytes, _) throws(Failure) -> Int? in try write(bytes) }
    }

    /// Writes queued bytes with `write`, which also takes the descriptors to send with the bytes'
    /// first byte (empty for most writes) and returns how many bytes it wrote.
    ///
    /// - Returns: whether everything was written.
    /// - Throws: what `write` throws.
    package mutating func write<Failure: Error>(
        _ write: (UnsafeRawBufferPointer, [Int32]) throws(Failure) -> Int?
    ) throws(Failure) -> Bool {
        while let head = chunks.first {
            if head.isEmpty {
                // The kept buffer, emptied, in front of a shared chunk or one with descriptors
                // (issue 13: a write of nothing "would block" forever and the reply never left).
                guard chunks.count > 1 else { return true }
                chunks.removeFirst()
                descriptorCount -= chunkDescriptors.removeFirst().count
                continue
            }
            var result: Result<Int?, Failure> = .success(nil)
            let offset = headSent
            let descriptors = offset == 0 ? chunkDescriptors[0].map(\.rawValue) : []
            head.withUnsafeBytes { all in
                result = Result { () throws(Failure) -> Int? in
                    try write(UnsafeRawBufferPointer(rebasing: all[offset...]), descriptors)
                }
            }
            guard let written = try result.get(), written > 0 else { return false }
            if !descriptors.isEmpty {
                // In flight now: the kernel holds its own references; ours are closed.
                descriptorCount -= chunkDescriptors[0].count
                chunkDescriptors[0] = []
            }
            headSent += written
            count -= written
            if headSent == head.count { dropHead() }
        }
        return true
    }

    private mutating func dropHead() {
        headSent = 0
        if chunks.count == 1 {
            // The last buffer is reused when small; a large one (a burst) is given back.
            if !lastIsShared && chunks[0].capacity <= Self.keptCapacity {
                chunks[0].removeAll(keepingCapacity: true)
            } else {
                chunks.removeAll()
                chunkDescriptors.removeAll()
                lastIsShared = false
            }
        } else {
            chunks.removeFirst()
            descriptorCount -= chunkDescriptors.removeFirst().count
        }
    }
}
