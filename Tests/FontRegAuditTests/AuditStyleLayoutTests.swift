import FontRegJSON
import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegAudit
@testable import FontRegCore

/// Every emitter writes each text style's values of the layout answer (issue 27, item 3), checked
/// against `fontresolve layout --json` run as a separate process on the same fonts.
@Suite struct AuditStyleLayoutTests {
    static let tokens = AuditFixtures.repositoryRoot.appendingPathComponent("docs/examples/tokens").path

    static let wiring: AuditWiring = {
        let documents = try! TypographyReader.read(paths: [tokens])
        let registry = try! FontRegistry(
            configuration: RegistryConfiguration(fontDirectories: AuditFixtures.bundledFontDirectories))
        let faces = registry.index.faces
        let report = Auditor().audit(documents, faces: faces)
        return AuditWiring(report: report, faces: faces, uses: documents.flatMap(\.uses))
    }()

    /// The answer of the real binary for a style's family, weight, style, size and line height.
    static func layoutAnswer(_ style: AuditWiring.Style) throws -> SourceJSONValue {
        let use = style.use
        var arguments = [
            "layout", try #require(style.family), "--weight", "\(use.weight.value)", "--size",
            "\(try #require(use.size))", "--line-height", try #require(use.lineHeight).description, "--json",
        ]
        if use.style == .italic { arguments.append("--italic") }
        arguments += AuditFixtures.bundledFontDirectories.flatMap { ["--fonts", $0] }
        let run = try FontResolveProcess.run(arguments)
        try #require(run.status == 0, "\(run.stderr)")
        return try SourceJSONParser.parse(run.stdout)
    }

    static func number(_ json: SourceJSONValue, _ path: String...) throws -> Double {
        var value: SourceJSONValue? = json
        for key in path { value = value?[key] }
        return try #require(value?.doubleValue, "\(path.joined(separator: "."))")
    }

    @Test func tokenReaderReadsSizesAndEveryLineHeightForm() throws {
        let byName = Dictionary(uniqueKeysWithValues: Self.wiring.uses.map { ($0.origin.name, $0) })
        #expect(byName["text.body"]?.size == 16)
        #expect(byName["text.body"]?.lineHeight == .multiple(1.5))
        #expect(byName["text.bodyStrong"]?.lineHeight == .pixels(24))
        #expect(byName["text.caption"]?.lineHeight == .percent(150))
        #expect(byName["text.quote"]?.style == .italic)
    }

    @Test func everyExampleStyleHasItsFaceAndALayoutAnswer() {
        let styles = Self.wiring.styles
        #expect(
            styles.map(\.className) == ["text-body", "text-body-strong", "text-caption", "text-title", "text-quote"])
        #expect(styles.allSatisfy { $0.layout != nil })
    }

    @Test(arguments: [
        ("a.b", "a-b"), ("2xl", "style-2xl"), ("heading.Large", "heading-large"), ("--", "style-unnamed"),
    ])
    func classNamesAreSanitized(path: String, expected: String) {
        #expect(AuditWiring.className(path) == expected)
    }

    @Test func classNamesStayUniqueInInputOrder() {
        var wiring = Self.wiring
        wiring.uses = [wiring.uses[0], wiring.uses[0], wiring.uses[0]]
        #expect(wiring.styles.map(\.className) == ["text-body", "text-body-2", "text-body-3"])
    }

    @Test(.timeLimit(.minutes(2))) func everyEmitterWritesTheLayoutAnswerOfEachStyle() throws {
        let locations = EmitLocations(output: "/out")
        let css = try #require(CSSFontFaceEmitter.emit(Self.wiring, locations: locations).first?.text)
        let android = try #require(
            AndroidFontEmitter.emit(Self.wiring).first { $0.path == AndroidFontEmitter.stylesPath }?.text)
        let ios = try #require(
            IOSFontEmitter.emit(Self.wiring).first { $0.path == "ios/FontRegTypography.swift" }?.text)
        let flutter = try #require(
            FlutterFontEmitter.emit(Self.wiring).first { $0.path == FlutterFontEmitter.stylesPath }?.text)
        let tokens = try SourceJSONParser.parse(
            try #require(StyleDictionaryEmitter.emit(Self.wiring, locations: locations).first?.text))
        let f = LayoutAnswer.format
        for style in Self.wiring.styles {
            let answer = try Self.layoutAnswer(style)
            let name = style.className
            let face = try #require(answer["face"]?["postscriptName"]?.stringValue)
            #expect(style.face?.record.postscriptName == face, "\(name)")
            let size = try Self.number(answer, "size"), line = try Self.number(answer, "lineHeight")
            let baseline = try Self.number(answer, "figma", "baseline")
            // CSS: the class's size and line height; the face's rule carries the answer's overrides.
            let block = try #require(css.components(separatedBy: ".\(name) {").dropFirst().first)
            let rule = String(block.prefix { $0 != "}" })
            #expect(rule.contains("font-size: \(f(size))px;") && rule.contains("line-height: \(f(line))px;"), "\(name)")
            let faceRule = try #require(
                css.components(separatedBy: "/* \(face):").dropFirst().first.map { String($0.prefix { $0 != "}" }) })
            for (descriptor, key) in [
                ("ascent-override", "ascentOverride"), ("descent-override", "descentOverride"),
                ("line-gap-override", "lineGapOverride"),
            ] {
                #expect(faceRule.contains("\(descriptor): \(f(try Self.number(answer, "css", key)))%;"), "\(name)")
            }
            // Android: the style's line height and first baseline.
            let styleName = AndroidFontEmitter.styleName(style)
            let element = try #require(
                android.components(separatedBy: "<style name=\"\(styleName)\">").dropFirst().first)
            let item = element.components(separatedBy: "</style>")[0]
            #expect(item.contains("<item name=\"android:lineHeight\">\(f(line))sp</item>"), "\(name)")
            #expect(item.contains("<item name=\"android:firstBaselineToTopHeight\">\(f(baseline))sp</item>"), "\(name)")
            #expect(item.contains("<item name=\"android:includeFontPadding\">false</item>"), "\(name)")
            // iOS: the Typography's size and line height, and the answer's baseline offset in its comment.
            let offset = try Self.number(answer, "ios", "baselineOffset")
            let identifier = IOSFontEmitter.typographyName(name)
            let declaration = try #require(
                ios.components(separatedBy: "\n").firstIndex { $0.contains("static let \(identifier) = ") })
            let lines = ios.components(separatedBy: "\n")
            #expect(lines[declaration - 1].contains("baselineOffset \(f(offset)) at @3x"), "\(name)")
            #expect(lines[declaration + 1].hasSuffix("fontSize: \(f(size)), lineHeight: \(f(line)))"), "\(name)")
            // Flutter: height and even leading.
            let constant = try #require(
                flutter.components(separatedBy: "static const \(FlutterFontEmitter.dartName(name)) = ").dropFirst()
                    .first
            )
            let arguments = String(constant.prefix { $0 != ";" })
            #expect(arguments.contains("height: \(f(try Self.number(answer, "flutter", "height"))),"), "\(name)")
            #expect(arguments.contains("leadingDistribution: TextLeadingDistribution.even,"), "\(name)")
            // Style Dictionary: the answer itself, number for number.
            let layout = try #require(tokens["font"]?["style"]?[name]?["$extensions"]?["io.fontreg.layout"])
            for path in [
                ["figma", "baseline"], ["css", "ascentOverride"], ["css", "descentOverride"],
                ["ios", "baselineOffset"], ["android", "firstBaselineToTopHeight"], ["flutter", "height"],
            ] {
                let emitted = layout[path[0]]?[path[1]]?.doubleValue
                let expected = answer[path[0]]?[path[1]]?.doubleValue
                #expect(emitted != nil && emitted.map { abs($0 - expected!) < 1e-9 } == true, "\(name) \(path)")
            }
        }
    }
}
