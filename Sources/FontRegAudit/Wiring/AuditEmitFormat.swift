/// The platform wiring the audit can write (`--emit FORMAT`).
package enum AuditEmitFormat: String, Sendable, Hashable, CaseIterable {
    /// `@font-face` rules and the typography tokens as CSS custom properties.
    case css
    /// `res/font/` font-family XML and the fonts under Android-legal names.
    case android
    /// The `UIAppFonts` Info.plist fragment and a YMatterType font family per family.
    case ios
    /// The `flutter: fonts:` block of `pubspec.yaml`.
    case flutter
    /// A DTCG token file with the resolved faces, for a Style Dictionary build.
    case styleDictionary = "style-dictionary"

    /// Parses an `--emit` value (`sd` and `dtcg` are accepted for Style Dictionary).
    package init?(name: String) {
        switch name.lowercased() {
        case "css", "web": self = .css
        case "android": self = .android
        case "ios", "ymattertype": self = .ios
        case "flutter": self = .flutter
        case "style-dictionary", "styledictionary", "sd", "dtcg": self = .styleDictionary
        default: return nil
        }
    }

    /// The folder under `--out` this format writes into.
    package var folder: String { rawValue }
}

/// One file an emitter writes, relative to the `--out` folder.
package struct EmittedFile: Sendable, Hashable {
    /// What goes into the file.
    package enum Content: Sendable, Hashable {
        /// Text written as UTF-8.
        case text(String)
        /// A copy of an existing file (a font or its licence).
        case copy(from: String)
    }

    /// The path under `--out` (`css/fonts.css`).
    package var path: String
    /// The text or the file to copy.
    package var content: Content

    package init(path: String, content: Content) {
        self.path = path
        self.content = content
    }

    /// The text, when the file is text.
    package var text: String? {
        if case .text(let text) = content { return text }
        return nil
    }
}
