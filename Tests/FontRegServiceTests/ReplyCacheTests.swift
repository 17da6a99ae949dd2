import FontRegTestSupport
import Testing

@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol
@testable import FontRegService
@testable import Varlink

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
