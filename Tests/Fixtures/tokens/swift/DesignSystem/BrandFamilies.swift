// Written for the audit tests: custom YMatterType font families.
import UIKit
import YMatterType

/// The brand serif ships only regular and bold, so Bold Text steps from one to the other.
struct BrandSerifFamily: FontFamily {
    let familyName = "NotoFixture"

    var supportedWeights: [Typography.FontWeight] { [.regular, .bold] }

    func weightName(for weight: Typography.FontWeight) -> String {
        switch weight {
        case .bold, .heavy, .black: return "Bold"
        default: return "Regular"
        }
    }
}

extension FontFamily where Self == BrandSerifFamily {
    /// `fontFamily: .brandSerif`
    static var brandSerif: BrandSerifFamily { BrandSerifFamily() }
}

extension Typography {
    /// An italic-only family: every style drawn with it is italic.
    static let neueItalic = DefaultFontFamily(familyName: "NeueFixture", fontStyle: .italic)
}
