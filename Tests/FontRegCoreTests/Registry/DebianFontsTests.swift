import Foundation
import Testing

@testable import FontRegCore

/// Real families from Debian packages, resolved as a user would ask for them.
///
/// The test set-up (`scripts/setup-test-deps.sh`, run by `.ci/run` and the README's test
/// command) installs fonts-lato, fonts-inter, fonts-inter-variable, fonts-roboto-unhinted and
/// fonts-open-sans; these tests fail with that instruction when a package is missing.
@Suite struct DebianFontsTests {
    static let directories = [
        "/usr/share/fonts/truetype/lato", "/usr/share/fonts/opentype/inter", "/usr/share/fonts/truetype/inter-vf",
        "/usr/share/fonts/truetype/roboto/unhinted", "/usr/share/fonts/truetype/open-sans",
    ]

    static let registry: FontRegistry? = {
        guard directories.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else { return nil }
        return try? FontRegistry(configuration: RegistryConfiguration(fontDirectories: directories))
    }()

    func resolve(_ family: String, _ weight: String, italic: Bool = false, boldText: Bool = false) throws -> Resolution
    {
        let registry = try #require(Self.registry, "Debian font packages missing: run scripts/setup-test-deps.sh")
        return try registry.resolve(
            ResolveQuery(
                family: family, weight: FontWeight(parsing: weight)!, italic: italic, boldText: boldText, strict: true))
    }

    @Test func latoHairlineIs100AndSemiboldBoldTextIsBold() throws {
        #expect(try resolve("Lato", "thin").face.postscriptName == "Lato-Hairline")
        #expect(try resolve("Lato", "extralight").face.postscriptName == "Lato-Thin")
        #expect(try resolve("Lato", "semibold").face.postscriptName == "Lato-Semibold")
        #expect(try resolve("Lato", "semibold", boldText: true).face.postscriptName == "Lato-Bold")
        #expect(try resolve("Lato", "heavy").face.postscriptName == "Lato-Heavy")
        #expect(try resolve("lato", "regular", italic: true).face.postscriptName == "Lato-Italic")
    }

    @Test func interStaticAndVariableBothServeEveryWeight() throws {
        let semibold = try resolve("Inter", "semibold")
        #expect(semibold.face.postscriptName == "Inter-SemiBold")
        #expect(semibold.match == .exactName)
        let offGrid = try resolve("Inter", "650")
        #expect(offGrid.match == .familyWeight)
        #expect(offGrid.face.weightRange.contains(650))
        #expect(
            try resolve("Inter", "bold", italic: true, boldText: true).face.postscriptName == "Inter-ExtraBoldItalic")
    }

    @Test func robotoThinHasWeightClass250() throws {
        let thin = try resolve("Roboto", "thin")
        #expect(thin.face.postscriptName == "Roboto-Thin")
        #expect(thin.face.weight == 250)
        #expect(thin.match == .nearestWeight)
        #expect(try resolve("Roboto", "black").face.postscriptName == "Roboto-Black")
    }

    @Test func openSansExtraboldAndCondensedIsASeparateFamily() throws {
        #expect(try resolve("Open Sans", "extrabold").face.postscriptName == "OpenSans-Extrabold")
        #expect(try resolve("Open Sans", "semibold", italic: true).face.postscriptName == "OpenSans-SemiboldItalic")
        let condensed = try resolve("Open Sans Condensed", "bold")
        #expect(condensed.face.family == "Open Sans Condensed")
        #expect(try resolve("Open Sans", "bold").face.family == "Open Sans")
    }
}
