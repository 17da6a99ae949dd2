import Testing

@testable import FontRegCore
@testable import FontRegServer
@testable import FontRegService

/// Issue 15's settings: users' own fonts, their roots, sharing, the Bold Text default.
@Suite("fontregd configuration of users' fonts and Bold Text")
struct PlatformConfigurationTests {
    @Test func theDefaultsLetUsersRegisterInTheirFontDirectoriesForThemselves() throws {
        let defaults = try configuration([]).platform
        #expect(defaults.userFonts && !defaults.shareUserFonts && !defaults.boldText)
        #expect(defaults.userFontRoots == ["~/.local/share/fonts", "~/.fonts"])
        #expect(defaults.boldPolicy == nil)
    }

    @Test func rootsGivenReplaceTheDefaultsAndTheOtherSettingsAreRead() throws {
        let platform = try configuration([
            "--user-font-root", "~/Fonts", "--user-font-root", "/srv/fonts", "--share-user-fonts", "--bold-text", "yes",
            "--bold-policy", "android", "--no-user-fonts",
        ]).platform
        #expect(platform.userFontRoots == ["~/Fonts", "/srv/fonts"])
        #expect(platform.shareUserFonts && platform.boldText && !platform.userFonts)
        #expect(platform.boldPolicy == .android)
    }

    @Test(arguments: [
        ["--user-font-root", "fonts"], ["--user-font-root", "~/../root"], ["--bold-policy", "heavier"],
    ])
    func aBadValueIsAConfigurationError(arguments: [String]) {
        #expect(throws: ConfigurationError.self) { try configuration(arguments) }
    }
}
