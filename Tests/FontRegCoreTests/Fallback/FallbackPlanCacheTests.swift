import FontRegTestSupport
import Testing

@testable import FontRegCore

/// What plans made afresh per call share through ``FallbackPlanCache`` (issue 26 item 5).
@Suite("Fallback plans made afresh")
struct FallbackPlanCacheTests {
    @Test("fontconfig's generic list is worked out once per generation, for every plan that needs it")
    func genericListSharedAcrossPlans() throws {
        let resolver = FallbackFonts.registry.resolver
        let cache = FallbackPlanCache()
        // Lato has no Arabic: each plan reaches fontconfig's sans-serif step.
        let weights: [FontWeight] = [.regular, .bold, try #require(FontWeight(300))]
        var answers: [TextResolution] = []
        for weight in weights {
            let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: "", weight: weight))
            answers.append(try TextResolver(resolver: resolver).resolve("مرحبا بالعالم", query, cache: cache))
            // The next query is another plan: it starts without the list.
            cache.removeAll()
        }
        #expect(cache.genericListsBuilt == 1)
        #expect(answers.allSatisfy { $0.runs.first?.resolution.face.family == "Noto Sans Arabic" })
        // A new generation works it out again.
        let next = FontIndex(faces: resolver.index.faces, generation: resolver.index.generation + 1)
        let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: ""))
        let again = try TextResolver(resolver: Resolver(index: next)).resolve("مرحبا بالعالم", query, cache: cache)
        #expect(cache.genericListsBuilt == 2)
        #expect(
            again.runs.map(\.resolution.face.postscriptName) == answers[0].runs.map(\.resolution.face.postscriptName))
    }

    @Test("Han clusters of one region face share one choice per plan, with the reason of a plan that met each alone")
    func hanChoicesAlike() throws {
        let resolver = TextResolver(resolver: FallbackFonts.registry.resolver)
        let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: ""), language: "ja")
        let text = "日本語の文章、漢字と仮名。世界"
        let whole = try resolver.resolve(text, query)
        let reason = "Han for ja: Noto Sans CJK JP is the JP face that covers it"
        let han = whole.runs.filter { $0.resolution.face.family == "Noto Sans CJK JP" }
        #expect(!han.isEmpty && han.allSatisfy { $0.reason == reason })
        for character in text where character.unicodeScalars.first!.properties.isIdeographic {
            let alone = try resolver.resolve(String(character), query)
            #expect(alone.runs.map(\.reason) == [reason])
        }
    }

    @Test("the kept plans never hold more than the byte limit: a plan that would pass it starts the cache afresh")
    func plansBoundedInBytes() throws {
        let resolver = TextResolver(resolver: FallbackFonts.registry.resolver)
        let texts = ["Hello, world", "مرحبا بالعالم", "日本語の文章、漢字と仮名", "שלום עולם", "नमस्ते दुनिया"]
        let queries = ["Lato", "Noto Sans", "sans-serif"].map {
            TextQuery(families: [$0], style: ResolveQuery(family: ""), language: "ja")
        }
        // Each plan's own size, from a cache with room for all: real plans of real answers.
        let unbounded = FallbackPlanCache()
        var sizes: [Int] = []
        for query in queries {
            let before = unbounded.planUse.bytes
            for text in texts { _ = try resolver.resolve(text, query, cache: unbounded) }
            sizes.append(unbounded.planUse.bytes - before)
        }
        #expect(unbounded.planUse.plans == queries.count)
        #expect(sizes.allSatisfy { $0 > 0 })
        #expect(unbounded.planUse.bytes == sizes.reduce(0, +))
        // Room for either of the first two plans but not for both: each query's plan, once
        // grown by its texts, replaces the other's.
        let limit = sizes[0] + sizes[1] - 1
        let bounded = FallbackPlanCache(byteLimit: limit)
        for turn in [0, 1, 0] {
            for text in texts { _ = try resolver.resolve(text, queries[turn], cache: bounded) }
            #expect(bounded.planUse.bytes <= limit)
            // The other query's plan was dropped; this one's is the one kept.
            #expect(bounded.take(queries[1 - turn], generation: resolver.resolver.index.generation) == nil)
            #expect(bounded.planUse.plans == 1)
        }
        // A limit below any plan's own size keeps none, and the answers are the same without them.
        let tiny = FallbackPlanCache(byteLimit: MemoryLayout<FallbackPlan>.stride - 1)
        let kept = try resolver.resolve(texts[2], queries[0], cache: unbounded)
        let afresh = try resolver.resolve(texts[2], queries[0], cache: tiny)
        #expect(tiny.planUse.plans == 0)
        #expect(afresh.runs.map(\.resolution.face.postscriptName) == kept.runs.map(\.resolution.face.postscriptName))
    }
}
