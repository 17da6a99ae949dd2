internal import CFontconfig
import FontRegCore

/// fontconfig as the benchmarks' peer: its own scan of the same font directories, and `FcFontMatch` on them.
///
/// A private configuration with its own cache directory, so "uncached" and "warm cache"
/// runs are under the benchmark's control. The corresponding fontconfig calls are
/// `FcConfigAppFontAddDir` and `FcFontMatch`.
public final class FontconfigPeer {
    private let config: OpaquePointer
    private var prepared: [OpaquePointer] = []

    /// Scans `directories` into a fresh configuration whose cache lives in `cacheDirectory`.
    public init(directories: [String], cacheDirectory: String) {
        guard let config = FcConfigCreate() else { preconditionFailure("FcConfigCreate returned NULL: out of memory") }
        self.config = config
        let xml = "<?xml version=\"1.0\"?><fontconfig><cachedir>\(cacheDirectory)</cachedir></fontconfig>"
        _ = FcConfigParseAndLoadFromMemory(config, xml, 1)
        _ = FcConfigSetRescanInterval(config, 0)
        for directory in directories { _ = FcConfigAppFontAddDir(config, directory) }
    }

    /// The configuration, for the fallback walk (issue 12).
    var fontconfigConfig: OpaquePointer { config }

    deinit {
        for pattern in prepared { FcPatternDestroy(pattern) }
        FcConfigDestroy(config)
    }

    /// The number of patterns fontconfig holds (it counts a variable font's instances and whole-font entry).
    public var patternCount: Int {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return 0 }
        return Int(set.pointee.nfont)
    }

    /// Prepares one pattern per query (family, OpenType weight converted to fontconfig's scale, slant), substituted once.
    public func prepare(_ queries: [ResolveQuery]) {
        for query in queries {
            guard let pattern = FcPatternCreate() else { continue }
            _ = FcPatternAddString(pattern, FC_FAMILY, query.family)
            _ = FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(query.weight.value)))
            _ = FcPatternAddInteger(pattern, FC_SLANT, query.italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
            _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            prepared.append(pattern)
        }
    }

    /// The number of prepared patterns.
    public var preparedCount: Int { prepared.count }

    /// Runs `FcFontMatch` on every prepared pattern once; returns how many matched.
    public func matchPrepared() -> Int {
        matchPrepared(prepared.indices)
    }

    /// Runs `FcFontMatch` on the prepared patterns in `range` once; returns how many matched.
    ///
    /// On a large corpus one `FcFontMatch` costs milliseconds, so benchmarks time a slice.
    public func matchPrepared(_ range: Range<Int>) -> Int {
        var matched = 0
        for pattern in prepared[range] {
            var result = FcResultNoMatch
            if let font = FcFontMatch(config, pattern, &result) {
                matched += 1
                FcPatternDestroy(font)
            }
        }
        return matched
    }
}
