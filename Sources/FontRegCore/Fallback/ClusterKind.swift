import Foundation

/// What a grapheme cluster asks of a face: colour emoji, text presentation, a Han region, or nothing special.
enum ClusterKind: Hashable, Sendable {
    /// An emoji to draw in colour (VS16, a ZWJ sequence, a flag, a keycap, a skin tone, or default emoji presentation).
    case colorEmoji
    /// Han (ideographs and the CJK punctuation and kana around them): the language picks the face.
    case han
    /// Anything else, including emoji with text presentation.
    case text

    /// Classifies a cluster.
    ///
    /// - Parameter cluster: one extended grapheme cluster (UAX #29, as Swift's `Character`).
    /// - Returns: its kind.
    static func of(_ cluster: Character) -> ClusterKind {
        let scalars = cluster.unicodeScalars
        guard let first = scalars.first else { return .text }
        return of(scalars, first: first, single: cluster.utf8.count == first.utf8.count, ScalarClasses.table)
    }

    /// Classifies a cluster given as its scalars (the text resolver's loop has no `Character`).
    ///
    /// - Parameters:
    ///   - scalars: the cluster's scalars.
    ///   - first: the first of them.
    ///   - single: whether `first` is the whole cluster.
    ///   - classes: the scalar table, for emoji presentation and ideographs without a property look-up.
    /// - Returns: its kind, as ``of(_:)`` gives it.
    @inline(__always)
    static func of<S: Sequence<Unicode.Scalar>>(
        _ scalars: S, first: Unicode.Scalar, single: Bool, _ classes: ScalarClasses.Table
    ) -> ClusterKind {
        // Fast paths without property lookups: below U+1100 nothing is Han or emoji by default
        // unless a variation selector or keycap follows; the unified ideographs are Han.
        if first.value < 0x1100 && single { return .text }
        if (0x4E00...0x9FFF).contains(first.value) && single { return .han }
        return slowOf(scalars, first: first, single: single, classes)
    }

    /// The rest of ``of(_:first:single:)``, out of line.
    private static func slowOf<S: Sequence<Unicode.Scalar>>(
        _ scalars: S, first: Unicode.Scalar, single: Bool, _ classes: ScalarClasses.Table
    ) -> ClusterKind {
        // A base with marks below U+1100 (Arabic harakat, Devanagari matras): no variation
        // selector, keycap, ZWJ, modifier or tag is below U+1100.
        if first.value < 0x1100 && scalars.allSatisfy({ $0.value < 0x1100 }) { return .text }
        // Kana, hangul, CJK punctuation and fullwidth forms alone: none has emoji presentation.
        if isHanContext(first.value) && single { return .han }
        if scalars.contains("\u{FE0E}") { return .text }
        if scalars.contains("\u{FE0F}") { return .colorEmoji }
        if !single,
            scalars.contains(where: {
                $0 == "\u{200D}" || $0 == "\u{20E3}" || $0.properties.isEmojiModifier
                    || (0x1F1E6...0x1F1FF).contains($0.value) || (0xE0020...0xE007F).contains($0.value)
            }), first.properties.isEmoji
        {
            return .colorEmoji
        }
        if classes.isEmojiPresentation(first) { return .colorEmoji }
        if classes.isIdeographic(first) || isHanContext(first.value) { return .han }
        return .text
    }

    /// Kana, CJK punctuation and fullwidth forms: drawn with the Han face so a line keeps one design.
    private static func isHanContext(_ value: UInt32) -> Bool {
        (0x3000...0x30FF).contains(value) || (0x31F0...0x31FF).contains(value) || (0xFF00...0xFFEF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0xAC00...0xD7AF).contains(value)
            || (0x1100...0x11FF).contains(value) || (0x3130...0x318F).contains(value)
    }
}
