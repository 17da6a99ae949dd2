extension String {
    /// The text without the spaces and tabs at its ends: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (Unicode's space separators, category Zs, U+0009
    /// and, as CoreFoundation has it, U+200B ZERO WIDTH SPACE), on the text's scalars with the
    /// standard library alone.
    ///
    /// Foundation's version goes through `NSString` and cost a `fontresolve resolve` 0.74 M
    /// instructions for `--weight 700` (issue 29 item 1); it also draws swift-corelibs-foundation
    /// into every binary that names it.
    package func trimmingSpacesAndTabs() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, Self.isSpaceOrTab(scalars[start]) { start = scalars.index(after: start) }
        while end > start, Self.isSpaceOrTab(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    /// Whether a scalar is in Foundation's `CharacterSet.whitespaces`.
    private static func isSpaceOrTab(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
}
