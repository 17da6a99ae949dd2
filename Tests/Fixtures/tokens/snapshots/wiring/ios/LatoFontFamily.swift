// Written by fontresolve audit (emit ios) from the registered faces of Lato.
import UIKit
import YMatterType

/// Lato (normal): the faces listed in UIAppFonts, named as the font files name them.
struct LatoFontFamily: FontFamily {
    let familyName = "Lato"

    var supportedWeights: [Typography.FontWeight] { [.bold, .heavy] }

    func weightName(for weight: Typography.FontWeight) -> String {
        switch weight {
        case .thin: return "Thin"
        case .ultralight: return "ExtraLight"
        case .light: return "Light"
        case .regular: return "Regular"
        case .medium: return "Medium"
        case .semibold: return "SemiBold"
        case .bold: return "Bold"
        case .heavy: return "Heavy"
        case .black: return "Black"
        }
    }
}
