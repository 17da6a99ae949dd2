extension FaceCache {
    /// Appends a face's coverage: the range count, the ranges as 32-bit integers, then the languages.
    ///
    /// This is the one encoding of coverage: the cache uses it, and so does anything that ships
    /// face records as the cache encodes them.
    static func writeCoverage(_ coverage: CharacterCoverage, to w: inout BinaryWriter) {
        w.int(coverage.ranges.count)
        for value in coverage.ranges { w.uint32(value) }
        w.int(coverage.languages.count)
        for language in coverage.languages { w.string(language) }
    }

    /// Reads what ``writeCoverage(_:to:)`` wrote, or `nil` when the input is damaged.
    ///
    /// Ranges that are not sorted and disjoint are refused (bisection would give wrong answers);
    /// coverage equal to `previous` (the faces of one collection) shares its storage.
    static func readCoverage(_ r: inout BinaryReader, sharingWith previous: CharacterCoverage?) -> CharacterCoverage? {
        guard let count = r.count(), count % 2 == 0 else { return nil }
        var ranges: [UInt32] = []
        ranges.reserveCapacity(count)
        for _ in 0..<count {
            let value = r.uint32()
            if let last = ranges.last, ranges.count % 2 == 0 ? value <= last : value < last { return nil }
            ranges.append(value)
        }
        guard let languageCount = r.count() else { return nil }
        var languages: [String] = []
        for _ in 0..<languageCount { languages.append(r.string()) }
        guard !r.failed else { return nil }
        if let previous, previous.ranges == ranges, previous.languages == languages { return previous }
        return CharacterCoverage(ranges: ranges, languages: languages)
    }
}
