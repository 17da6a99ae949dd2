internal import CFontconfig
import FontRegJSON
import FontRegSystem
import Foundation
import Synchronization

/// A private fontconfig configuration holding exactly the registry's font files.
///
/// Never the process-wide default: rescan interval 0 (fontconfig before 2.19 drops
/// application fonts when it re-initialises a config) and a cache directory of its own.
/// The corresponding fontconfig calls are `FcConfigCreate`, `FcConfigParseAndLoadFromMemory`,
/// `FcConfigSetRescanInterval` and `FcConfigAppFontAddFile`.
final class PrivateFontconfig: @unchecked Sendable {
    // @unchecked: `config` is only touched under `lock`.
    private let config: OpaquePointer
    private let lock = Mutex(())
    /// Where fontconfig keeps this configuration's cache.
    let cacheDirectory: String

    /// Creates an empty private configuration whose cache lives in `cacheDirectory`.
    init(cacheDirectory: String) {
        self.cacheDirectory = cacheDirectory
        guard let config = FcConfigCreate() else { preconditionFailure("FcConfigCreate returned NULL: out of memory") }
        self.config = config
        let escaped = cacheDirectory.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;")
        let xml =
            "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\"><fontconfig><cachedir>\(escaped)</cachedir></fontconfig>"
        _ = FcConfigParseAndLoadFromMemory(config, xml, 1)
        _ = FcConfigSetRescanInterval(config, 0)
    }

    deinit { FcConfigDestroy(config) }

    /// Adds a font file the scanner has already checked and read.
    ///
    /// - Returns: whether fontconfig accepted the file.
    @discardableResult
    func addFile(_ path: String) -> Bool {
        lock.withLock { _ in FcConfigAppFontAddFile(config, path) != 0 }
    }

    /// What fontconfig itself would choose among the registry's fonts for a family, OpenType weight and style.
    ///
    /// For explanations ("fontconfig would pick …"); the corresponding call is `FcFontMatch`.
    func match(family: String, weight: Int, italic: Bool) -> (path: String, index: Int)? {
        lock.withLock { _ in FontconfigMatch.run(config: config, family: family, weight: weight, italic: italic) }
    }

    /// The number of face patterns fontconfig holds for the registry (named instances included).
    var patternCount: Int {
        lock.withLock { _ in
            guard let set = FcConfigGetFonts(config, FcSetApplication) else { return 0 }
            return Int(set.pointee.nfont)
        }
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
    static func run(config: OpaquePointer, family: String, weight: Int, italic: Bool) -> (path: String, index: Int)? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, FC_FAMILY, family)
        _ = FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(weight)))
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { return nil }
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
        return (String(cString: file), Int(index))
    }
}
