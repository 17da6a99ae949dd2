import Foundation
import Testing

@testable import FontRegCore

/// The standard-library trim that replaced Foundation's on `fontresolve`'s start path (issue 29 item 1).
@Suite struct SpacesAndTabsTests {
    @Test func trimmingSpacesAndTabsIsFoundationsTrimmingOfWhitespaces() {
        let texts = [
            "700", " 700 ", "\t600\t", "  semi bold  ", "", " ", "\t \t", "\u{00A0}700\u{3000}",
            "\u{2009}bold\u{202F}", "\n700\n", "\r700", " \u{301}a ", "a\u{200B}", "\u{FEFF}400", "중간 ", " 🙂 ",
            "x\u{1680}", "\u{85}y",
        ]
        for text in texts {
            #expect(
                text.trimmingSpacesAndTabs() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
        // Every scalar of the Basic Multilingual Plane (every space separator is there), one at each end.
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar) + "w" + String(scalar)
            #expect(text.trimmingSpacesAndTabs() == text.trimmingCharacters(in: .whitespaces), "U+\(value)")
        }
    }

    @Test func weightsWithSpaceSeparatorsAroundThemParse() {
        #expect(FontWeight(parsing: "\u{00A0}700\t") == FontWeight(700))
        #expect(FontWeight(parsing: " semibold ") == .semibold)
        #expect(FontWeight(parsing: "7 00") == nil)
    }
}
