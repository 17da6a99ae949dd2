internal import CFreeType

extension FreeTypeFace {
    /// The code points the face's Unicode cmap maps to a glyph, as flat inclusive ranges.
    ///
    /// FreeType selects the Unicode charmap when it opens a face that has one; a face with only a
    /// symbol or legacy charmap reports the codes of that map. The corresponding FreeType calls
    /// are `FT_Get_First_Char` and `FT_Get_Next_Char`.
    func mappedRanges() -> [UInt32] {
        guard face.pointee.charmap != nil else { return [] }
        var ranges: [UInt32] = []
        var glyph: FT_UInt = 0
        var code = FT_Get_First_Char(face, &glyph)
        var steps = 0
        // A cmap cannot hold more than the 1,114,112 Unicode code points; the bound stops a damaged one.
        while glyph != 0 && steps <= 0x11_0000 {
            let point = UInt32(truncatingIfNeeded: code)
            if let last = ranges.last, point == last &+ 1 {
                ranges[ranges.count - 1] = point
            } else if ranges.last.map({ point > $0 }) ?? true {
                ranges.append(point)
                ranges.append(point)
            }
            code = FT_Get_Next_Char(face, code, &glyph)
            steps += 1
        }
        return ranges
    }
}
