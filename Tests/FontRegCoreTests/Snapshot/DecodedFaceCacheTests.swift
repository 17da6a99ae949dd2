import FontRegTestSupport
import Testing

@testable import FontRegCore

/// The decoded-face cache of a mapped snapshot is bounded in bytes (issue 29 item 2).
@Suite("Decoded-face cache")
struct DecodedFaceCacheTests {
    /// The fallback fonts (Lato, Noto scripts, Noto Sans CJK), written and mapped: real faces
    /// whose coverage runs from a few hundred bytes to tens of KiB.
    static func snapshot() throws -> MappedSnapshot {
        let index = FontIndex(faces: FallbackFonts.registry.index.faces, generation: 1)
        return try MappedSnapshot(bytes: SnapshotWriter.bytes(of: index))
    }

    @Test("reading every face of a snapshot keeps the cache within its byte limit, evicting the oldest")
    func readingEveryFaceStaysWithinTheByteLimit() throws {
        let snapshot = try Self.snapshot()
        let faces = (0..<snapshot.faceCount).compactMap { snapshot.face(at: $0) }
        let total = faces.reduce(0) { $0 + DecodedFaceCache.cost(of: $1) }
        // The faces together count for more than the limit: the bound has something to do.
        try #require(total > DecodedFaceCache.defaultByteLimit)
        let use = snapshot.decodedFaceCacheUse
        #expect(use.bytes <= DecodedFaceCache.defaultByteLimit)
        #expect(use.faces < snapshot.faceCount)
        #expect(use.bytes > 0)
    }

    @Test("a cache evicts its oldest faces by their bytes and keeps the newest, counting real decoded sizes")
    func evictsOldestByBytes() throws {
        let snapshot = try Self.snapshot()
        let faces = (0..<snapshot.faceCount).compactMap { snapshot.face(at: $0) }
        let costs = faces.map(DecodedFaceCache.cost(of:))
        // A CJK face's coverage makes it cost more than a Latin one: sizes are the faces' own.
        #expect(costs.max()! > 4 * costs.min()!)
        // Room for the last three faces, not for a fourth before them.
        let limit = costs.suffix(3).reduce(0, +)
        var cache = DecodedFaceCache(byteLimit: limit)
        for (position, face) in faces.enumerated() { cache.insert(face, at: position) }
        let last = faces.count - 1
        #expect(cache.bytes == limit)
        #expect(cache.count == 3)
        for position in last - 2...last { #expect(cache.face(at: position) == faces[position]) }
        #expect(cache.face(at: last - 3) == nil)
        #expect(cache.face(at: 0) == nil)
    }

    @Test("a face that alone counts for more than the limit is not cached and evicts nothing")
    func faceOverTheLimitIsNotCached() throws {
        let snapshot = try Self.snapshot()
        let faces = (0..<snapshot.faceCount).compactMap { snapshot.face(at: $0) }
        let costs = faces.map(DecodedFaceCache.cost(of:))
        let largest = try #require(costs.indices.max { costs[$0] < costs[$1] })
        let smallest = try #require(costs.indices.min { costs[$0] < costs[$1] })
        var cache = DecodedFaceCache(byteLimit: costs[largest] - 1)
        cache.insert(faces[smallest], at: smallest)
        cache.insert(faces[largest], at: largest)
        #expect(cache.face(at: largest) == nil)
        #expect(cache.face(at: smallest) == faces[smallest])
        #expect(cache.bytes == costs[smallest])
    }
}
