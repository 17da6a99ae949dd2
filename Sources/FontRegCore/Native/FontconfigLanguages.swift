internal import CFontconfig

/// The languages fontconfig's orthographies say a set of code points supports.
///
/// A language is supported when its orthography's characters are all covered, as fontconfig's
/// own `FcFreeTypeQueryFace` decides (without its OS/2 code-page rule that keeps only one of the
/// Han languages; fontreg picks a Han face by its family's region instead, see ``TextResolver``).
/// fontconfig reads no file for this: its orthographies are compiled in. The corresponding
/// fontconfig calls are `FcGetLangs`, `FcLangGetCharSet` and `FcCharSetSubtractCount`.
enum FontconfigLanguages {
    /// Every language tag fontconfig knows with its orthography, read once.
    ///
    /// `nonisolated(unsafe)`: the charsets are fontconfig's compiled-in constant tables, never written.
    nonisolated(unsafe) private static let orthographies: [(tag: String, charset: OpaquePointer)] = {
        guard let set = FcGetLangs() else { return [] }
        defer { FcStrSetDestroy(set) }
        guard let list = FcStrListCreate(set) else { return [] }
        defer { FcStrListDone(list) }
        var result: [(String, OpaquePointer)] = []
        while let raw = FcStrListNext(list) {
            guard let charset = FcLangGetCharSet(raw) else { continue }
            result.append((String(cString: raw), charset))
        }
        return result.sorted { $0.0 < $1.0 }
    }()

    /// The language tags whose orthographies the ranges cover completely.
    ///
    /// - Parameter ranges: flat inclusive start/end pairs, as ``CharacterCoverage/ranges``.
    /// - Returns: fontconfig's tags, sorted.
    static func languages(covering ranges: [UInt32]) -> [String] {
        guard !ranges.isEmpty, let charset = FcCharSetCreate() else { return [] }
        defer { FcCharSetDestroy(charset) }
        for pair in stride(from: 0, to: ranges.count, by: 2) {
            for point in ranges[pair]...ranges[pair + 1] { _ = FcCharSetAddChar(charset, point) }
        }
        return orthographies.compactMap { FcCharSetSubtractCount($0.charset, charset) == 0 ? $0.tag : nil }
    }
}
