import Testing

@testable import Varlink

/// The whole-reply replay cache (issue 13), in memory.
@Suite("Message reply cache")
struct MessageReplyCacheTests {
    func lookup(_ cache: MessageReplyCache, _ request: String, scope: String) -> [UInt8]? {
        Array(request.utf8).withUnsafeBufferPointer { cache.lookup($0, scope: scope) }
    }

    func store(_ cache: MessageReplyCache, _ request: String, scope: String, reply: [UInt8]) {
        cache.store(reply, for: Array(request.utf8), scope: scope, stamp: cache.stamp)
    }

    @Test func aReplyIsFoundOnlyForTheSameBytesInTheSameScope() {
        let cache = MessageReplyCache()
        store(cache, #"{"method":"a.B"}"#, scope: "g1|", reply: [1, 2, 0])
        #expect(lookup(cache, #"{"method":"a.B"}"#, scope: "g1|") == [1, 2, 0])
        #expect(lookup(cache, #"{"method":"a.B"}"#, scope: "g1|u1000") == nil)
        #expect(lookup(cache, #"{"method":"a.B"}"#, scope: "g2|") == nil)
        #expect(lookup(cache, #"{"method":"a.B","oneway":true}"#, scope: "g1|") == nil)
        #expect(lookup(cache, #"{"method": "a.B"}"#, scope: "g1|") == nil)
    }

    @Test func invalidatingEmptiesTheCacheAndRefusesRepliesComputedBefore() {
        let cache = MessageReplyCache()
        store(cache, "x", scope: "", reply: [1])
        let before = cache.stamp
        cache.invalidate()
        #expect(cache.stamp != before)
        #expect(cache.count == 0 && cache.byteCount == 0)
        #expect(lookup(cache, "x", scope: "") == nil)
        // A reply computed from the state before the change is not kept.
        cache.store([2], for: Array("y".utf8), scope: "", stamp: before)
        #expect(lookup(cache, "y", scope: "") == nil)
        store(cache, "y", scope: "", reply: [3])
        #expect(lookup(cache, "y", scope: "") == [3])
    }

    @Test func theOldestEntriesAreEvictedAtTheEntryBound() {
        let cache = MessageReplyCache(capacity: 4, maximumBytes: 1 << 20, maximumReplyBytes: 1024)
        for index in 0..<10 { store(cache, "request \(index)", scope: "s", reply: [UInt8(index)]) }
        #expect(cache.count == 4)
        #expect(lookup(cache, "request 5", scope: "s") == nil)
        #expect((6..<10).allSatisfy { lookup(cache, "request \($0)", scope: "s") == [UInt8($0)] })
    }

    @Test func aRequestLongerThanTheBoundIsNeitherKeptNorLookedUp() {
        let cache = MessageReplyCache(maximumRequestBytes: 64)
        let short = String(repeating: "a", count: 64)
        let long = String(repeating: "a", count: 65)
        store(cache, short, scope: "s", reply: [1])
        store(cache, long, scope: "s", reply: [2])
        #expect(lookup(cache, short, scope: "s") == [1])
        #expect(lookup(cache, long, scope: "s") == nil)
        #expect(cache.count == 1)
        #expect(cache.mayKeep(requestOf: 64) && !cache.mayKeep(requestOf: 65))
    }

    @Test func theByteBoundHoldsAndALongReplyIsNotKept() {
        let reply = [UInt8](repeating: 7, count: 1000)
        let cache = MessageReplyCache(capacity: 4096, maximumBytes: 10_000, maximumReplyBytes: 2000)
        for index in 0..<100 { store(cache, "request \(index)", scope: "s", reply: reply) }
        #expect(cache.byteCount <= 10_000)
        #expect(cache.count >= 5 && cache.count < 10)
        #expect(lookup(cache, "request 99", scope: "s") == reply)
        #expect(lookup(cache, "request 0", scope: "s") == nil)
        store(cache, "long", scope: "s", reply: [UInt8](repeating: 1, count: 2001))
        #expect(lookup(cache, "long", scope: "s") == nil)
    }

    @Test func storingTheSameRequestTwiceKeepsOneEntry() {
        let cache = MessageReplyCache()
        store(cache, "r", scope: "s", reply: [1])
        store(cache, "r", scope: "s", reply: [1])
        #expect(cache.count == 1)
    }
}
