// Written by fontresolve audit (emit ios, ymattertype2) from the registered faces of Lato.
import UIKit
import YMatterType

/// Lato (normal): the faces listed in UIAppFonts, named as the font files name them.
struct FontRegLatoFontFamily: FontFamily {
    let familyName = "Lato"

    var supportedWeights: [Typography.FontWeight] { [.bold, .extraBold] }

    func weightName(for weight: Typography.FontWeight) -> String {
        switch weight {
        case .thin: return "Thin"
        case .extraLight: return "ExtraLight"
        case .light: return "Light"
        case .regular: return "Regular"
        case .medium: return "Medium"
        case .semibold: return "SemiBold"
        case .bold: return "Bold"
        case .extraBold: return "Heavy"
        case .black: return "Black"
        case .extraBlack: return "ExtraBlack"
        }
    }
}
