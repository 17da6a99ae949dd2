import Testing

@testable import FontRegSystem

/// What the workers' Landlock rules can enforce on each kernel (the rules themselves are tested
/// on real workers in `FontconfigCacheBuilderTests`).
@Suite struct LandlockTests {
    @Test func eachABIHandlesTheRightsItKnowsAndNoneWithoutLandlock() {
        #expect(Landlock.Access.handled(abi: 0) == [])
        #expect(Landlock.Access.handled(abi: 1).rawValue == (1 << 13) - 1)
        #expect(
            Landlock.Access.handled(abi: 2).contains(.refer) && !Landlock.Access.handled(abi: 2).contains(.truncate))
        #expect(Landlock.Access.handled(abi: 3).contains(.truncate))
        #expect(Landlock.Access.handled(abi: 7).rawValue == (1 << 16) - 1)
    }

    @Test func aLowerABIOrNoneIsReportedAsPartialAndTheCurrentOneAsComplete() {
        #expect(Landlock.Confinement(abi: 7).isComplete)
        #expect(Landlock.Confinement(abi: 7).description == "Landlock ABI 7, complete")
        #expect(Landlock.Confinement(abi: 6).isComplete)
        let older = Landlock.Confinement(abi: 2)
        #expect(!older.isComplete)
        #expect(older.description.hasPrefix("Landlock ABI 2, partial: not refused: truncating a readable file"))
        #expect(older.gaps.count == 4)
        let none = Landlock.Confinement(abi: 0)
        #expect(!none.isComplete)
        #expect(none.description.contains("no Landlock"))
    }
}
