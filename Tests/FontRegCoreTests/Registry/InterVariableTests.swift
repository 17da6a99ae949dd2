import Foundation
import Testing

@testable import FontRegCore

/// The real variable Inter from Debian's fonts-inter-variable (installed by
/// `scripts/setup-deps.sh --test`): weights between instances, named instances, italic from the
/// italic file, and the `slnt` axis of the combined file.
///
/// Debian 12 ships Inter 3.19 (`Inter-roman.var.ttf`, `Inter-italic.var.ttf`, `Inter.var.ttf`
/// with wght and slnt); that version has no `opsz` axis, so optical sizes are tested on the
/// generated AxisFixture (see `AnswerTests`).
@Suite struct InterVariableTests {
    static let directory = "/usr/share/fonts/truetype/inter-vf"

    static func registry(_ files: [String]) throws -> FontRegistry {
        let paths = files.map { directory + "/" + $0 }
        try #require(
            paths.allSatisfy { FileManager.default.fileExists(atPath: $0) },
            "fonts-inter-variable is missing: run scripts/setup-deps.sh --test")
        return try FontRegistry(configuration: RegistryConfiguration(fontFiles: paths))
    }

    static let romanAndItalic = Result { try registry(["Inter-roman.var.ttf", "Inter-italic.var.ttf"]) }

    func resolve(_ weight: Int, style: RequestedStyle = .normal, registry: FontRegistry? = nil) throws -> Resolution {
        let registry = try registry ?? Self.romanAndItalic.get()
        return try registry.resolve(
            ResolveQuery(family: "Inter", weight: FontWeight(weight)!, strict: true, style: style))
    }

    @Test func aWeightBetweenInstancesIsDrawnAtThatWght() throws {
        let answer = try resolve(650)
        #expect(answer.face.file.hasSuffix("Inter-roman.var.ttf"))
        #expect(answer.face.instance == nil)
        #expect(answer.variations == [VariationSetting(tag: "wght", value: 650)])
        #expect(answer.weight == 650)
        #expect(answer.synthesis == .none)
    }

    @Test func aNamedInstanceIsUsedAtItsOwnCoordinates() throws {
        let answer = try resolve(600)
        #expect(answer.face.postscriptName == "Inter-SemiBold")
        #expect(answer.face.instance != nil)
        #expect(answer.face.coordinates == [VariationSetting(tag: "wght", value: 600)])
        #expect(answer.variations == [VariationSetting(tag: "wght", value: 600)])
    }

    @Test func italicComesFromTheItalicFile() throws {
        let answer = try resolve(650, style: .italic)
        #expect(answer.face.file.hasSuffix("Inter-italic.var.ttf"))
        #expect(answer.face.italicAngle < 0)
        #expect(answer.variations.first { $0.tag == "wght" }?.value == 650)
        #expect(answer.synthesis == .none)
    }

    @Test func nineHundredFiftyIsClampedTo900WithoutSynthesis() throws {
        let answer = try resolve(950)
        #expect(answer.variations == [VariationSetting(tag: "wght", value: 900)])
        #expect(answer.synthesis == .none)
        #expect(answer.trace.contains { $0.contains("clamped to 900") })
    }

    @Test func theSlntAxisServesItalicAndObliqueAngles() throws {
        let combined = try Self.registry(["Inter.var.ttf"])
        let oblique = try resolve(400, style: .oblique(angle: 5), registry: combined)
        #expect(oblique.face.instance == nil)
        #expect(oblique.variations.map(\.description) == ["wght=400", "slnt=-5"])
        let italic = try resolve(400, style: .italic, registry: combined)
        #expect(italic.variations.contains(VariationSetting(tag: "slnt", value: -10)))
        #expect(italic.synthesis == .none)
    }
}
