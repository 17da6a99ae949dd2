/// Recently decoded faces of a mapped snapshot, by position, bounded in bytes.
///
/// A face decoded from the file is a ``FaceRecord`` with its own strings and a copy of its
/// coverage ranges: a Latin face costs under a KiB, a CJK face over 10 KiB. The cache keeps the
/// faces an application asks for again, up to ``byteLimit`` bytes as ``cost(of:)`` counts
/// them, and evicts the oldest first (issue 29: bounded by count, 4,096 direct-mapped slots, one
/// `ResolveText` over the Debian fonts left 110 KB of faces and slots in it).
struct DecodedFaceCache {
    /// The bytes a snapshot's cache holds at most unless told: 64 KiB, about a hundred Latin faces.
    static let defaultByteLimit = 64 << 10
    /// The bytes the cache holds at most.
    let byteLimit: Int
    /// The cached faces by position, with what each counts for.
    private var faces: [Int: (face: FaceRecord, cost: Int)] = [:]
    /// The positions in the order they were cached, oldest first from ``head``.
    private var order: [Int] = []
    /// Where the oldest position still cached lies in ``order``.
    private var head = 0
    /// The bytes the cached faces count for (``cost(of:)`` summed).
    private(set) var bytes = 0

    /// Creates an empty cache.
    ///
    /// - Parameter byteLimit: the bytes it holds at most.
    init(byteLimit: Int = defaultByteLimit) {
        self.byteLimit = byteLimit
    }

    /// The number of faces cached.
    var count: Int { faces.count }

    /// The face cached at `position`, or `nil`.
    func face(at position: Int) -> FaceRecord? { faces[position]?.face }

    /// Caches a face decoded at `position`, evicting the oldest faces until it fits; a face that
    /// alone counts for more than ``byteLimit`` is not cached.
    ///
    /// - Parameters:
    ///   - face: the face just decoded.
    ///   - position: its position in the snapshot.
    mutating func insert(_ face: FaceRecord, at position: Int) {
        let cost = Self.cost(of: face)
        guard cost <= byteLimit, faces[position] == nil else { return }
        while bytes + cost > byteLimit, head < order.count {
            if let evicted = faces.removeValue(forKey: order[head]) { bytes -= evicted.cost }
            head += 1
        }
        // The evicted positions at the front are dropped once they are half of the list.
        if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        faces[position] = (face, cost)
        order.append(position)
        bytes += cost
    }

    /// The bytes a cached face counts for: its record and its slot in the cache, its strings'
    /// characters, its coverage (ranges and languages), axes and coordinates.
    ///
    /// - Parameter face: a decoded face.
    /// - Returns: bytes, at least the record's own size.
    static func cost(of face: FaceRecord) -> Int {
        let strings = [face.postscriptName, face.family, face.subfamily, face.fullName, face.file, face.format]
        return MemoryLayout<(Int, (FaceRecord, Int))>.stride + 2 * MemoryLayout<Int>.stride
            + strings.reduce(0) { $0 + $1.utf8.count } + face.coverage.memoryBytes
            + face.axes.count * MemoryLayout<VariationAxis>.stride
            + face.coordinates.count * MemoryLayout<VariationSetting>.stride
    }
}
