internal import CFontconfig

extension FontconfigPeer {
    /// What a fontconfig renderer does to draw a text: `FcFontSort` for the family once, then
    /// for every code point the first font of the sorted list whose charset has it.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - family: the family asked.
    /// - Returns: how many code points found a font. The corresponding calls are `FcFontSort`,
    ///   `FcPatternGetCharSet` and `FcCharSetHasChar`.
    public func sortAndWalk(_ text: String, family: String) -> Int {
        guard let pattern = FcPatternCreate() else { return 0 }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, FC_FAMILY, family)
        _ = FcConfigSubstitute(fontconfigConfig, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let sorted = FcFontSort(fontconfigConfig, pattern, 1, nil, &result) else { return 0 }
        defer { FcFontSetDestroy(sorted) }
        var charsets: [OpaquePointer?] = []
        for i in 0..<Int(sorted.pointee.nfont) {
            var charset: OpaquePointer?
            _ = FcPatternGetCharSet(sorted.pointee.fonts[i], FC_CHARSET, 0, &charset)
            charsets.append(charset)
        }
        var found = 0
        for scalar in text.unicodeScalars {
            for charset in charsets where charset != nil && FcCharSetHasChar(charset, scalar.value) != 0 {
                found += 1
                break
            }
        }
        return found
    }
}
