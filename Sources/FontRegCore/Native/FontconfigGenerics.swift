internal import CFontconfig
import Synchronization

/// The families fontconfig's system configuration lists for a generic family (`sans-serif`, …).
///
/// Reads the configuration files only (`FcConfigParseAndLoad` into a configuration of its own),
/// never the fonts: the substitution rules are what CSS generic families mean on this system,
/// while the faces come from the registry. The corresponding calls are `FcConfigSubstitute` and
/// `FcDefaultSubstitute` on a pattern naming the generic family (and the language, when given).
final class FontconfigGenerics: @unchecked Sendable {
    // @unchecked: `config` is only used under `lock` (fontconfig configurations are not thread-safe).
    private let lock = Mutex(())
    private let config: OpaquePointer?

    /// The one reader of the system configuration, loaded on first use.
    static let shared = FontconfigGenerics()

    private init() {
        guard let config = FcConfigCreate() else {
            self.config = nil
            return
        }
        if FcConfigParseAndLoad(config, nil, 1) == 0 {
            FcConfigDestroy(config)
            self.config = nil
        } else {
            self.config = config
        }
    }

    deinit { if let config { FcConfigDestroy(config) } }

    /// The families fontconfig substitutes for `generic`, in its order, for a language tag.
    ///
    /// - Parameters:
    ///   - generic: `sans-serif`, `serif`, `monospace`, `emoji` or `system-ui`.
    ///   - language: a BCP 47 tag such as `ja`, or `nil`.
    /// - Returns: family names (not filtered by what is registered); empty without a configuration.
    func families(for generic: String, language: String?) -> [String] {
        lock.withLock { _ in
            guard let config, let pattern = FcPatternCreate() else { return [] }
            defer { FcPatternDestroy(pattern) }
            _ = FcPatternAddString(pattern, FC_FAMILY, generic)
            if let language, let langs = FcLangSetCreate() {
                _ = FcLangSetAdd(langs, language.lowercased())
                _ = FcPatternAddLangSet(pattern, FC_LANG, langs)
                FcLangSetDestroy(langs)
            }
            guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { return [] }
            FcDefaultSubstitute(pattern)
            var names: [String] = []
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(pattern, FC_FAMILY, n, &value) == FcResultMatch, let value, n < 512 {
                names.append(String(cString: value))
                n += 1
            }
            return names
        }
    }
}
