// Written by fontresolve audit (emit ios, ymattertype2) from the registered faces of Inter.
import UIKit
import YMatterType

/// Inter (normal): the faces listed in UIAppFonts, named as the font files name them.
struct FontRegInterFontFamily: FontFamily {
    let familyName = "Inter"

    var supportedWeights: [Typography.FontWeight] { [.light, .regular, .medium, .semibold, .bold] }
}
