import Testing

@testable import FontRegCore
@testable import FontRegService

@Suite("reply cache")
struct ReplyCacheTests {
    @Test func aReplyIsServedOnlyInTheGenerationItWasComputedFor() {
        let cache = ReplyCache<String>()
        cache.store([1], for: "a", generation: 1)
        #expect(cache.lookup("a", generation: 1) == [1])
        #expect(cache.lookup("a", generation: 2) == nil)
        cache.store([2], for: "b", generation: 2)
        #expect(cache.lookup("a", generation: 1) == nil)
        #expect(cache.lookup("b", generation: 2) == [2])
    }

    @Test func aLateReplyOfAnOlderGenerationDoesNotEvictTheCurrentOnes() {
        let cache = ReplyCache<String>()
        cache.store([2], for: "b", generation: 2)
        cache.store([1], for: "a", generation: 1)
        #expect(cache.lookup("b", generation: 2) == [2])
        #expect(cache.lookup("a", generation: 1) == nil)
    }

    @Test func theCacheStartsOverWhenFullAndWhenCleared() {
        let cache = ReplyCache<Int>(capacity: 2)
        cache.store([0], for: 0, generation: 1)
        cache.store([1], for: 1, generation: 1)
        cache.store([2], for: 2, generation: 1)
        #expect(cache.lookup(0, generation: 1) == nil)
        #expect(cache.lookup(2, generation: 1) == [2])
        cache.removeAll()
        #expect(cache.lookup(2, generation: 1) == nil)
    }

    @Test func aReplyOverTheEntryLimitIsNotKeptAndSmallOnesAre() {
        let cache = ReplyCache<Int>(capacity: 100, maximumBytes: 1 << 20, maximumEntryBytes: 100)
        cache.store(Array(repeating: 1, count: 101), for: 0, generation: 1)
        #expect(cache.lookup(0, generation: 1) == nil)
        #expect(cache.byteCount == 0)
        cache.store(Array(repeating: 1, count: 100), for: 1, generation: 1)
        #expect(cache.lookup(1, generation: 1)?.count == 100)
        #expect(cache.byteCount == 100 + ReplyCache<Int>.entryOverhead)
    }

    @Test func distinctKeysNeverHoldMoreThanTheByteBound() {
        let bound = 64 << 10
        let cache = ReplyCache<Int>(capacity: 1_000_000, maximumBytes: bound, maximumEntryBytes: 4096)
        for key in 0..<10_000 {
            cache.store(Array(repeating: UInt8(key & 0xFF), count: 1000 + key % 3000), for: key, generation: 1)
            #expect(cache.byteCount <= bound)
        }
        #expect(cache.count > 0)
        // Replacing a key's reply counts its bytes once.
        let small = ReplyCache<Int>(maximumBytes: 1 << 20, maximumEntryBytes: 1000)
        for _ in 0..<100 { small.store(Array(repeating: 0, count: 1000), for: 7, generation: 1) }
        #expect(small.byteCount == 1000 + ReplyCache<Int>.entryOverhead)
    }

    @Test func queriesThatDifferInAnyFieldHaveDifferentKeys() {
        let base = ResolveQuery(family: "Lato", weight: .bold)
        var variants = [base]
        variants.append(ResolveQuery(family: "lato", weight: .bold))
        variants.append(ResolveQuery(family: "Lato", weight: .black))
        variants.append(ResolveQuery(family: "Lato", weight: .bold, italic: true))
        variants.append(ResolveQuery(family: "Lato", weight: .bold, boldText: true))
        variants.append(ResolveQuery(family: "Lato", weight: .bold, boldText: true, boldPolicy: .android))
        variants.append(ResolveQuery(family: "Lato", weight: .bold, strict: true))
        #expect(Set(variants.map(ResolveCacheKey.init)).count == variants.count)
    }
}
