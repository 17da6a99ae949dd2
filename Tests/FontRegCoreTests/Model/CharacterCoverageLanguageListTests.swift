import Testing

@testable import FontRegCore

/// Coverage read back from a snapshot takes the stored language list as it is, and equals the
/// coverage built from the tags.
@Suite struct CharacterCoverageLanguageListTests {
    @Test func aSingleSpacedListEqualsTheCoverageBuiltFromItsTags() {
        let read = CharacterCoverage(ranges: [0x41, 0x5a], languageList: "aa af en")
        #expect(read == CharacterCoverage(ranges: [0x41, 0x5a], languages: ["aa", "af", "en"]))
        #expect(read.languages == ["aa", "af", "en"])
    }

    @Test(arguments: [" aa af", "aa  af", "aa af ", "  "])
    func anyOtherSpacingIsNormalizedAsTheTagsWouldBe(list: String) {
        let expected = CharacterCoverage(ranges: [], languages: list.split(separator: " ").map(String.init))
        #expect(CharacterCoverage(ranges: [], languageList: list) == expected)
    }

    @Test func anEmptyListHasNoLanguagesAndAnOddRangeValueIsDropped() {
        let read = CharacterCoverage(ranges: [1, 2, 3], languageList: "")
        #expect(read.languages.isEmpty && read.ranges == [1, 2])
    }
}
