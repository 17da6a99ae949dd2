internal import CFontconfig
import Foundation
import Synchronization

/// A private fontconfig view of exactly the registry's faces, for "fontconfig would pick …" explanations.
///
/// Built from what the scanner read (the ``FaceRecord``s), never by handing fontconfig the
/// paths: fontconfig would open each file again by path (`FcConfigAppFontAddFile`), outside
/// the descriptor-relative confinement of the scanner, and a file swapped for a link between
/// the scan and fontconfig's read would be read as root. One `FcFontSet` of patterns made from
/// the records is matched with `FcFontSetMatch` under an empty configuration of its own (never
/// the process-wide default), so fontconfig reads no font file and writes no cache; a change
/// replaces the set whole and destroys the old one, so nothing piles up across rebuilds.
/// The corresponding fontconfig calls are `FcConfigCreate`, `FcFontSetCreate`, `FcFontSetAdd`,
/// `FcFontSetMatch` and `FcFontSetDestroy`.
final class PrivateFontconfig: @unchecked Sendable {
    // @unchecked: `config` and `fonts` are only touched under `lock`.
    private let config: OpaquePointer
    private let lock = Mutex(())
    private var fonts: UnsafeMutablePointer<FcFontSet>?

    /// Creates an empty view.
    init() {
        guard let config = FcConfigCreate() else { preconditionFailure("FcConfigCreate returned NULL: out of memory") }
        self.config = config
        _ = FcConfigSetRescanInterval(config, 0)
    }

    deinit {
        if let fonts { FcFontSetDestroy(fonts) }
        FcConfigDestroy(config)
    }

    /// Replaces the faces fontconfig knows with these, the registry's current ones.
    func replace(faces: [FaceRecord]) {
        guard let set = FcFontSetCreate() else { preconditionFailure("FcFontSetCreate returned NULL: out of memory") }
        for face in faces {
            guard let pattern = Self.pattern(face) else { continue }
            if FcFontSetAdd(set, pattern) == 0 { FcPatternDestroy(pattern) }
        }
        let old = lock.withLock { _ in
            defer { fonts = set }
            return fonts
        }
        if let old { FcFontSetDestroy(old) }
    }

    /// The pattern fontconfig would have made of a face, with the elements its matching weighs.
    private static func pattern(_ face: FaceRecord) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        _ = FcPatternAddString(pattern, FC_FAMILY, face.family)
        _ = FcPatternAddString(pattern, FC_STYLE, face.subfamily)
        _ = FcPatternAddString(pattern, FC_FULLNAME, face.fullName)
        _ = FcPatternAddString(pattern, FC_POSTSCRIPT_NAME, face.postscriptName)
        _ = FcPatternAddString(pattern, FC_FILE, face.file)
        _ = FcPatternAddInteger(pattern, FC_INDEX, Int32(truncatingIfNeeded: face.freetypeIndex))
        let range = face.weightRange
        if range.lowerBound != range.upperBound,
            let weights = FcRangeCreateDouble(
                FcWeightFromOpenTypeDouble(Double(range.lowerBound)),
                FcWeightFromOpenTypeDouble(Double(range.upperBound)))
        {
            _ = FcPatternAddRange(pattern, FC_WEIGHT, weights)
            FcRangeDestroy(weights)
            _ = FcPatternAddBool(pattern, FC_VARIABLE, 1)
        } else {
            _ = FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(face.weight)))
        }
        _ = FcPatternAddInteger(
            pattern, FC_SLANT, face.italic ? FC_SLANT_ITALIC : face.oblique ? FC_SLANT_OBLIQUE : FC_SLANT_ROMAN)
        let widths: [Int32] = [50, 62, 75, 87, 100, 113, 125, 150, 200]
        _ = FcPatternAddInteger(pattern, FC_WIDTH, widths[min(8, max(0, face.width - 1))])
        return pattern
    }

    /// What fontconfig itself would choose among the registry's fonts for a family, OpenType weight and style.
    ///
    /// For explanations ("fontconfig would pick …"); the corresponding call is `FcFontSetMatch`.
    func match(family: String, weight: Int, italic: Bool) -> (path: String, index: Int)? {
        lock.withLock { _ in
            guard let fonts else { return nil }
            return FontconfigMatch.run(config: config, fonts: fonts, family: family, weight: weight, italic: italic)
        }
    }

    /// The number of face patterns fontconfig holds for the registry (named instances included).
    var patternCount: Int {
        lock.withLock { _ in fonts.map { Int($0.pointee.nfont) } ?? 0 }
    }
}

/// The system's own fontconfig configuration, the source of the system fallback face.
///
/// Loaded once into a configuration object of its own (`FcInitLoadConfigAndFonts`), so the
/// process default is never touched. Answers are cached by weight and style.
final class SystemFontconfig: @unchecked Sendable {
    // @unchecked: `loaded` is only touched under `cache`'s lock.
    private var loaded: OpaquePointer??
    private let cache = Mutex<[Int: (path: String, index: Int)?]>([:])

    /// Creates the wrapper; the system configuration is loaded on first use (it takes tens of milliseconds).
    init() {}

    deinit { if let loaded, let config = loaded { FcConfigDestroy(config) } }

    /// The system configuration, loaded the first time; call under `cache`'s lock.
    private var config: OpaquePointer? {
        if let loaded { return loaded }
        let config = FcInitLoadConfigAndFonts()
        loaded = .some(config)
        return config
    }

    /// The best face fontconfig's system configuration offers for a sans-serif at an OpenType weight.
    ///
    /// The corresponding fontconfig call is `FcFontMatch`; the weight is converted with
    /// `FcWeightFromOpenType` first, since fontconfig's scale differs.
    func sansSerif(weight: Int, italic: Bool) -> (path: String, index: Int)? {
        let key = weight * 2 + (italic ? 1 : 0)
        return cache.withLock { cache in
            if let hit = cache[key] { return hit }
            let answer = match(family: "sans-serif", weight: weight, italic: italic)
            cache[key] = answer
            return answer
        }
    }

    /// Every font file of the system configuration (for `includeSystemFonts`).
    func allFiles() -> [String] {
        cache.withLock { _ in
            guard let config, let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return [] }
            defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
            _ = FcObjectSetAdd(objects, FC_FILE)
            guard let set = FcFontList(config, pattern, objects) else { return [] }
            defer { FcFontSetDestroy(set) }
            var files: Set<String> = []
            for i in 0..<Int(set.pointee.nfont) {
                var file: UnsafeMutablePointer<FcChar8>?
                if let font = set.pointee.fonts[i], FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch,
                    let file
                {
                    files.insert(String(cString: file))
                }
            }
            return files.sorted()
        }
    }

    private func match(family: String, weight: Int, italic: Bool) -> (path: String, index: Int)? {
        guard let config else { return nil }
        return FontconfigMatch.run(config: config, family: family, weight: weight, italic: italic)
    }
}

/// One `FcFontMatch` for a family, OpenType weight and style, shared by both configurations.
enum FontconfigMatch {
    /// Matches among the fonts of `config`.
    static func run(config: OpaquePointer, family: String, weight: Int, italic: Bool) -> (path: String, index: Int)? {
        run(config: config, family: family, weight: weight, italic: italic) { pattern, result in
            FcFontMatch(config, pattern, result)
        }
    }

    /// Matches among the patterns of `fonts`, with `config`'s substitutions.
    static func run(
        config: OpaquePointer, fonts: UnsafeMutablePointer<FcFontSet>, family: String, weight: Int, italic: Bool
    ) -> (path: String, index: Int)? {
        run(config: config, family: family, weight: weight, italic: italic) { pattern, result in
            var sets: [UnsafeMutablePointer<FcFontSet>?] = [fonts]
            return FcFontSetMatch(config, &sets, 1, pattern, result)
        }
    }

    private static func run(
        config: OpaquePointer, family: String, weight: Int, italic: Bool,
        match: (OpaquePointer, UnsafeMutablePointer<FcResult>) -> OpaquePointer?
    ) -> (path: String, index: Int)? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, FC_FAMILY, family)
        _ = FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(weight)))
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = match(pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        return (String(cString: file), Int(index))
    }
}
