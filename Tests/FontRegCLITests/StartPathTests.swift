import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCLI
@testable import FontRegCore
@testable import FontRegJSON
@testable import FontRegProtocol

/// The cheaper ways a new `fontresolve` process does its first work (issue 29 item 1) give what
/// the ways they replace gave.
@Suite struct StartPathTests {
    static let registry = Result {
        try FontRegistry(configuration: RegistryConfiguration(fontDirectories: [BuildProducts.fixtureFonts]))
    }

    /// `resolve --json` prints from the reply's own writer; the text must be the `Codable` one's.
    @Test(arguments: [
        ResolveQuery(family: "Fixture Sans", weight: .semibold),
        ResolveQuery(family: "Fixture Sans", weight: .regular, italic: true, boldText: true, boldPolicy: .iosSystem),
        ResolveQuery(family: "FixtureVar", weight: FontWeight(450)!),
        ResolveQuery(family: "FixtureVar", weight: .bold),
        ResolveQuery(family: "Neue Fixture", weight: .black, italic: true),
        ResolveQuery(family: "No Such Family At All", weight: .bold),
    ])
    func resolveJSONIsTheCodableEncodingsTextByteForByte(_ query: ResolveQuery) throws {
        let reply = ResolutionReply(try Self.registry.get().resolve(query))
        #expect(JSONOutput.text(reply) == Self.codableText(reply, pretty: true))
        #expect(JSONOutput.text(reply, pretty: false) == Self.codableText(reply, pretty: false))
    }

    /// What `--json` printed before: the `Codable` encoding (the generic overload, whatever `T` is).
    static func codableText<T: Encodable>(_ value: T, pretty: Bool) -> String {
        JSONOutput.text(value, pretty: pretty)
    }

    @Test func wholeNumbersArePutAsJSONEncoderPutsThem() {
        #expect(JSONOutput.codableNumbers(.double(650)) == .int(650))
        #expect(JSONOutput.codableNumbers(.double(-0.0)) == .int(0))
        #expect(JSONOutput.codableNumbers(.double(2.5)) == .double(2.5))
        #expect(JSONOutput.codableNumbers(.double(1e20)) == .double(1e20))
        #expect(JSONOutput.codableNumbers(.array([.double(3), .string("3.0")])) == .array([.int(3), .string("3.0")]))
    }

    /// Every paragraph of every command's help wraps to the same lines on its bytes.
    @Test func asciiWrappingGivesTheLinesOfTheCharacterWalk() {
        var paragraphs = HelpText.sections.map(\.body)
        for spec in CommandCatalog.specs {
            paragraphs.append(spec.discussion)
            paragraphs += spec.options.map { $0.help + ($0.repeatable ? " Repeatable." : "") }
        }
        paragraphs += ["", "   ", "one", " lead and  double  spaces ", String(repeating: "x", count: 100) + " y"]
        var checked = 0
        for text in paragraphs {
            for (indent, width) in [(0, 78), (2, 78), (0, 40), (4, 20), (0, 1)] {
                var bytes = text
                guard let fast = bytes.withUTF8({ HelpText.wrapASCII($0, indent: indent, width: width) }) else {
                    continue
                }
                #expect(fast == HelpText.wrapCharacters(text, indent: indent, width: width), "\(text)")
                checked += 1
            }
        }
        #expect(checked > 100)
        // Text that is not ASCII takes the Character walk.
        var accented = "café crème"
        #expect(accented.withUTF8 { HelpText.wrapASCII($0, indent: 0, width: 78) } == nil)
        #expect(HelpText.wrap("café crème brûlée", indent: 0, width: 11) == ["café crème", "brûlée"])
    }

    @Test func joinedLinesIsJoinedWithNewlines() {
        for lines in [
            [], [""], ["a"], ["a", ""], ["", "b", "", "ç"], HelpText.overview.split(separator: "\n").map(String.init),
        ] {
            #expect(HelpText.joinedLines(lines) == lines.joined(separator: "\n"))
        }
    }

    @Test func literalReplacingGivesTheStandardLibrarysReplacing() {
        let cases: [(String, String, String)] = [
            ("fontresolve resolve Inter --json", "fontresolve resolve", "fontresolve explain"),
            ("a fontresolve resolve b fontresolve resolve", "fontresolve resolve", "x"),
            ("aaaa", "aa", "b"), ("aaa", "aa", "b"), ("", "a", "b"), ("abc", "abcd", "x"), ("abc", "c", ""),
            ("no match here", "fontresolve", "y"),
        ]
        for (text, target, replacement) in cases {
            #expect(text.replacingLiteral(target, with: replacement) == text.replacing(target, with: replacement))
        }
        for option in ExplainCommand.spec.options {
            #expect(!option.example.contains("fontresolve resolve"), "\(option.example)")
        }
    }

    @Test func theUserSocketIsJoinedAsNSStringJoinsPaths() {
        for directory in ["/run/user/1000", "/run/user/1000/", "/run/user/1000//", "/", "relative", "a//b", "//", ""] {
            #expect(
                SocketLocator.joined(directory, "fontreg/fontregd.sock")
                    == (directory as NSString).appendingPathComponent("fontreg/fontregd.sock"), "\(directory)")
        }
    }
}
