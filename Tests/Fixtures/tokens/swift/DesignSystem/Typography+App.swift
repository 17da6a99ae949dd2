// Written for the audit tests: an app's typography in YMatterType.
import YMatterType

extension Typography {
    /// Large title: "FixtureSans" is the PostScript root; the registry calls it "Fixture Sans".
    static let largeTitle = Typography(
        familyName: "FixtureSans",
        fontWeight: .semibold,
        fontSize: 32,
        lineHeight: 36,
        textStyle: .largeTitle
    )

    static let headline = Typography(
        fontFamily: .brandSerif,
        fontWeight: .regular,
        fontSize: 17,
        lineHeight: 22
    )

    /// Derived: the same style in bold.
    static let headlineBold = headline.bold

    /// `.heavy` is Apple's 800 here, not the W3C 900.
    static let title = Typography(familyName: "FixtureSans", fontWeight: .heavy, fontSize: 28, lineHeight: 34)

    static let quote = Typography(
        fontFamily: Typography.neueItalic,
        fontWeight: .light,
        fontSize: 15,
        lineHeight: 20
    )

    static let caption = Typography(
        familyName: "FixtureSans",
        fontWeight: .regular,
        fontStyle: .italic,
        fontSize: 12,
        lineHeight: 16
    )

    static let systemBody = Typography(
        fontFamily: Typography.systemFamily, fontWeight: .regular, fontSize: 17, lineHeight: 22)

    enum Label {
        static let large = Typography(familyName: "FixtureSans", fontWeight: .regular, fontSize: 16, lineHeight: 20)
        static let largeMedium = large.fontWeight(.medium)
        static let small = Typography.Label.large
            .regular
            .fontSize(12)
        /* static let removed = Typography(familyName: "Gone Sans", fontWeight: .thin, fontSize: 9, lineHeight: 9) */
        // static let alsoRemoved = Typography(familyName: "Gone Sans", fontWeight: .ultralight, fontSize: 9, lineHeight: 9)
    }
}
