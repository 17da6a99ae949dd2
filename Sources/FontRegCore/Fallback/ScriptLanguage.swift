/// The fontconfig language of the script whose Unicode block holds a code point, for the scripts
/// whose blocks hold characters other scripts' fonts also map (digits, danda, currency signs).
///
/// Registry-wide fallback ranks the families that cover such a character by design and name
/// length; `१` (U+0967, Devanagari digit one) is also in Noto Sans Kaithi, which ranks first by
/// name. fontconfig's `FcFontSort`, which Chromium's Linux fallback asks, puts the face whose
/// orthography is the script's language first (Noto Sans Devanagari, which supports `hi`); so
/// does fontreg, with this table of blocks.
enum ScriptLanguage {
    /// Block start, block end (inclusive), fontconfig language tag.
    private static let blocks: [(UInt32, UInt32, String)] = [
        (0x0530, 0x058F, "hy"), (0x0590, 0x05FF, "he"), (0x0600, 0x06FF, "ar"),
        (0x0900, 0x097F, "hi"), (0x0980, 0x09FF, "bn"), (0x0A00, 0x0A7F, "pa"),
        (0x0A80, 0x0AFF, "gu"), (0x0B00, 0x0B7F, "or"), (0x0B80, 0x0BFF, "ta"),
        (0x0C00, 0x0C7F, "te"), (0x0C80, 0x0CFF, "kn"), (0x0D00, 0x0D7F, "ml"),
        (0x0D80, 0x0DFF, "si"), (0x0E00, 0x0E7F, "th"), (0x0E80, 0x0EFF, "lo"),
        (0x0F00, 0x0FFF, "bo"), (0x1000, 0x109F, "my"), (0x10A0, 0x10FF, "ka"),
        (0x1200, 0x137F, "am"), (0x1780, 0x17FF, "km"),
    ]

    /// The language tag for the code point's script block, or `nil` outside these blocks.
    static func language(of codePoint: UInt32) -> String? {
        guard codePoint >= 0x0530, codePoint <= 0x17FF else { return nil }
        for (start, end, tag) in blocks where codePoint >= start && codePoint <= end { return tag }
        return nil
    }
}
