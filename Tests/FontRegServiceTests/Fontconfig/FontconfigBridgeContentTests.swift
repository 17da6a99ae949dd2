import FoundationEssentials
import Testing

@testable import FontRegService

/// Issue 28: the XML of the fontconfig bridge file, escaped, with what fontconfig cannot take left out.
@Suite("fontconfig bridge content")
struct FontconfigBridgeContentTests {
    func content() -> FontconfigBridgeContent {
        FontconfigBridgeContent(linkDirectory: "/b/files", cacheDirectory: "/b/cache")
    }

    @Test func directoriesFilesDisablesAndAliasesBecomeTheirFontconfigElements() {
        var content = content()
        content.directories = ["/fonts/brand"]
        content.files = [.init(path: "/fonts/one/One.ttf", link: "/b/files/0123-One.ttf")]
        content.disabled = [
            .init(kind: .face, value: "Brand-Bold", owner: 0, systemWide: true),
            .init(kind: .family, value: "Brand Serif", owner: 0, systemWide: true),
            .init(kind: .file, value: "/fonts/one/One.ttf", owner: 0, systemWide: true),
        ]
        content.aliases = [.init(alias: "Corporate", target: "Brand")]
        let rendered = content.xml
        #expect(rendered.skipped.isEmpty)
        for expected in [
            "<dir>/fonts/brand</dir>", "<dir>/b/files</dir>", "<cachedir>/b/cache</cachedir>",
            "<pattern><patelt name=\"postscriptname\"><string>Brand-Bold</string></patelt></pattern>",
            "<pattern><patelt name=\"family\"><string>Brand Serif</string></patelt></pattern>",
            "<glob>/fonts/one/One.ttf</glob>", "<glob>/b/files/0123-One.ttf</glob>",
            "<alias binding=\"same\"><family>Corporate</family><prefer><family>Brand</family></prefer></alias>",
        ] {
            #expect(rendered.text.contains(expected), "\(expected) missing from\n\(rendered.text)")
        }
        #expect(rendered.text.hasPrefix("<?xml version=\"1.0\"?>"))
        #expect(rendered.text.hasSuffix("</fontconfig>\n"))
    }

    @Test func nothingRegisteredNamesNeitherTheLinkDirectoryNorARejectfont() {
        let text = content().xml.text
        #expect(!text.contains("<dir>"))
        #expect(!text.contains("<selectfont>"))
        #expect(text.contains("<cachedir>/b/cache</cachedir>"))
    }

    @Test func everyNameAndPathIsXMLEscaped() {
        var content = content()
        content.directories = ["/fonts/a&b<c>\"d'"]
        content.aliases = [.init(alias: "A & <B>", target: "T\"'")]
        let text = content.xml.text
        #expect(text.contains("<dir>/fonts/a&amp;b&lt;c&gt;&quot;d&apos;</dir>"))
        #expect(text.contains("<family>A &amp; &lt;B&gt;</family><prefer><family>T&quot;&apos;</family>"))
    }

    @Test(arguments: ["/fonts/nul\u{0}x", "/fonts/bad\u{FFFD}bytes", "/fonts/line\nbreak", "relative/dir"])
    func aPathFontconfigCannotTakeIsLeftOutAndReported(_ path: String) {
        var content = content()
        content.directories = [path, "/fonts/good"]
        let rendered = content.xml
        #expect(rendered.skipped.count == 1)
        #expect(rendered.text.contains("<dir>/fonts/good</dir>"))
        #expect(rendered.text.components(separatedBy: "<dir>").count == 2)
    }

    @Test func aDisabledFileWithGlobCharactersIsAnExactFilePatternNotAGlob() {
        var content = content()
        content.disabled = [.init(kind: .file, value: "/fonts/what?*.ttf", owner: 0, systemWide: true)]
        let text = content.xml.text
        #expect(text.contains("<patelt name=\"file\"><string>/fonts/what?*.ttf</string></patelt>"))
        #expect(!text.contains("<glob>"))
    }
}
