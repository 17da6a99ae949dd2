import Testing

@testable import FontRegCore

@Suite struct CaseInsensitiveNameTests {
    @Test(arguments: [
        ("Lato-Bold", "lato-bold", true), ("LATO-BOLD", "Lato-Bold", true), ("Lato-Bold", "Lato-Black", false),
        ("Lato", "Lato-Bold", false), ("Lato-Bold", "Lato", false), ("", "", true), ("", "a", false),
        ("Noto-Ünicode", "noto-ünicode", true), ("Noto-Ünicode", "Noto-Unicode", false), ("Café", "CAFÉ", true),
        ("e\u{301}", "\u{E9}", true), ("Ab\u{E9}", "AB\u{E9}x", false), ("Abc", "Abc\u{E9}", false),
    ])
    func namesCompareAsTheirLowerCasedFormsDo(a: String, b: String, equal: Bool) {
        #expect((CaseInsensitiveName(a) == CaseInsensitiveName(b)) == equal)
        #expect((a.lowercased() == b.lowercased()) == equal)
        if equal { #expect(CaseInsensitiveName(a).hashValue == CaseInsensitiveName(b).hashValue) }
    }
}
