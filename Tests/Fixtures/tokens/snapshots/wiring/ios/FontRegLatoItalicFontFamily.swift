// Written by fontresolve audit (emit ios, ymattertype2) from the registered faces of Lato.
import UIKit
import YMatterType

/// Lato (italic): the faces listed in UIAppFonts, named as the font files name them.
struct FontRegLatoItalicFontFamily: FontFamily {
    let familyName = "Lato"
    let fontNameSuffix = "Italic"

    var supportedWeights: [Typography.FontWeight] { [.regular, .medium] }

    func weightName(for weight: Typography.FontWeight) -> String {
        switch weight {
        case .thin: return "Thin"
        case .extraLight: return "ExtraLight"
        case .light: return "Light"
        case .regular: return ""
        case .medium: return "Medium"
        case .semibold: return "SemiBold"
        case .bold: return "Bold"
        case .extraBold: return "ExtraBold"
        case .black: return "Black"
        case .extraBlack: return "ExtraBlack"
        }
    }
}
