internal import CFreeType
import Foundation

/// One open FreeType face; closes it on deinit. The corresponding FreeType call is `FT_New_Face`.
final class FreeTypeFace {
    let face: FT_Face
    private let library: FreeTypeLibrary
    /// The memory the face reads from, kept alive as long as the face.
    private let bytes: FontBytes?

    init(face: FT_Face, library: FreeTypeLibrary, bytes: FontBytes?) {
        self.face = face
        self.library = library
        self.bytes = bytes
    }

    deinit { FT_Done_Face(face) }

    /// The number of faces in the file (collections hold several).
    var faceCount: Int { Int(face.pointee.num_faces) }

    /// The number of named instances of a variable font's face.
    var namedInstanceCount: Int { Int(face.pointee.style_flags >> 16) }

    /// Whether the face has variation axes.
    var isVariable: Bool { face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0 }

    /// Whether FreeType sees colour glyph tables.
    var hasColor: Bool {
        if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 { return true }
        return ["COLR", "CBDT", "sbix", "SVG "].contains { hasTable($0) }
    }

    /// The PostScript name; FreeType computes the real one for a named instance.
    var postscriptName: String? {
        guard let name = FT_Get_Postscript_Name(face) else { return nil }
        return String(cString: name)
    }

    /// FreeType's format name: `TrueType`, `CFF`, `Type 1`, ….
    var formatName: String {
        guard let name = FT_Get_Font_Format(face) else { return "unknown" }
        return String(cString: name)
    }

    /// FreeType's family and style names (from the name table, or the format's own fields).
    var freetypeFamily: String? { face.pointee.family_name.map { String(cString: $0) } }
    var freetypeStyle: String? { face.pointee.style_name.map { String(cString: $0) } }
    var styleFlagsItalic: Bool { face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0 }
    var styleFlagsBold: Bool { face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0 }

    /// Whether the sfnt table with this tag exists. The FreeType call is `FT_Load_Sfnt_Table`.
    func hasTable(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard bytes.count == 4 else { return false }
        let value = bytes.reduce(FT_ULong(0)) { ($0 << 8) | FT_ULong($1) }
        var length: FT_ULong = 0
        return FT_Load_Sfnt_Table(face, value, 0, nil, &length) == 0 && length > 0
    }

    /// The bytes of the sfnt table with this tag, `nil` when the face has none or it is larger
    /// than `limit` (then `tooLarge` is its length). The FreeType call is `FT_Load_Sfnt_Table`.
    func table(_ tag: String, limit: Int) -> (bytes: [UInt8]?, tooLarge: Int?) {
        let bytes = Array(tag.utf8)
        guard bytes.count == 4 else { return (nil, nil) }
        let value = bytes.reduce(FT_ULong(0)) { ($0 << 8) | FT_ULong($1) }
        var length: FT_ULong = 0
        guard FT_Load_Sfnt_Table(face, value, 0, nil, &length) == 0, length > 0 else { return (nil, nil) }
        guard Int(length) <= limit else { return (nil, Int(length)) }
        var data = [UInt8](repeating: 0, count: Int(length))
        let loaded = data.withUnsafeMutableBufferPointer { FT_Load_Sfnt_Table(face, value, 0, $0.baseAddress, &length) }
        return loaded == 0 ? (Array(data.prefix(Int(length))), nil) : (nil, nil)
    }

    /// The OS/2 fields the index needs, when the face has an OS/2 table.
    var os2: (weightClass: Int, widthClass: Int, fsSelection: Int)? {
        guard let raw = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) else { return nil }
        let table = raw.assumingMemoryBound(to: TT_OS2.self).pointee
        guard table.version != 0xFFFF else { return nil }
        return (Int(table.usWeightClass), Int(table.usWidthClass), Int(table.fsSelection))
    }

    /// The vertical metrics from `head`, `hhea` and `OS/2`, as FreeType holds them (after the
    /// `MVAR` deltas of a variable font's named instance). A face without `hhea` (a Type 1
    /// font) gets FreeType's own ascender and descender, and its height less both as line gap.
    /// The FreeType calls are `FT_Get_Sfnt_Table(FT_SFNT_HHEA)` and `(FT_SFNT_OS2)`.
    var metrics: FaceMetrics {
        var metrics = FaceMetrics.zero
        metrics.unitsPerEm = Int(face.pointee.units_per_EM)
        if let raw = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA) {
            let hhea = raw.assumingMemoryBound(to: TT_HoriHeader.self).pointee
            metrics.hhea = LineMetrics(
                ascender: Int(hhea.Ascender), descender: Int(hhea.Descender), lineGap: Int(hhea.Line_Gap))
        } else {
            let ascender = Int(face.pointee.ascender), descender = Int(face.pointee.descender)
            metrics.hhea = LineMetrics(
                ascender: ascender, descender: descender,
                lineGap: max(0, Int(face.pointee.height) - ascender + descender))
        }
        if let raw = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = raw.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version != 0xFFFF {
                metrics.typo = LineMetrics(
                    ascender: Int(os2.sTypoAscender), descender: Int(os2.sTypoDescender),
                    lineGap: Int(os2.sTypoLineGap))
                metrics.win = WindowsMetrics(ascent: Int(os2.usWinAscent), descent: Int(os2.usWinDescent))
                metrics.useTypoMetrics = os2.fsSelection & 0x80 != 0
                if os2.version >= 2 {
                    metrics.capHeight = Int(os2.sCapHeight)
                    metrics.xHeight = Int(os2.sxHeight)
                }
            }
        }
        return metrics
    }

    /// `post.italicAngle` in degrees (negative leans right), 0 without a `post` table.
    /// The FreeType call is `FT_Get_Sfnt_Table(FT_SFNT_POST)`.
    var italicAngle: Double {
        guard let raw = FT_Get_Sfnt_Table(face, FT_SFNT_POST) else { return 0 }
        return Double(raw.assumingMemoryBound(to: TT_Postscript.self).pointee.italicAngle) / 65536
    }

    /// `head.fontRevision`, the font's own 16.16 fixed-point version; 0 without a `head` table.
    var fontRevision: Double {
        guard let raw = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD) else { return 0 }
        return Double(raw.assumingMemoryBound(to: TT_Header.self).pointee.Font_Revision) / 65536
    }

    /// The best English string for a name ID: Windows English (US), then any Windows, Unicode, Mac Roman.
    func name(id: Int) -> String? {
        let count = FT_Get_Sfnt_Name_Count(face)
        var best: (rank: Int, text: String)?
        for i in 0..<count {
            var entry = FT_SfntName()
            guard FT_Get_Sfnt_Name(face, i, &entry) == 0, Int(entry.name_id) == id,
                let bytes = entry.string
            else { continue }
            let data = Data(bytes: bytes, count: Int(entry.string_len))
            let rank: Int
            let text: String?
            switch entry.platform_id {
            case 3:
                rank = entry.language_id == 0x409 ? 0 : 1
                text = String(data: data, encoding: .utf16BigEndian)
            case 0:
                rank = 2
                text = String(data: data, encoding: .utf16BigEndian)
            case 1 where entry.encoding_id == 0:
                rank = entry.language_id == 0 ? 3 : 4
                text = String(data: data, encoding: .macOSRoman)
            default:
                continue
            }
            if let text, !text.isEmpty, rank < (best?.rank ?? Int.max) { best = (rank, text) }
        }
        return best?.text
    }

    /// The variation axes and named instances, read through `FT_Get_MM_Var`.
    func variations() -> (axes: [VariationAxis], instances: [(coordinates: [Double], subfamilyNameID: Int)]) {
        var raw: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(face, &raw) == 0, let mm = raw else { return ([], []) }
        defer { FT_Done_MM_Var(library.handle, mm) }
        var axes: [VariationAxis] = []
        for a in 0..<Int(mm.pointee.num_axis) {
            let axis = mm.pointee.axis[a]
            axes.append(
                VariationAxis(
                    tag: Self.tagString(axis.tag),
                    minimum: Double(axis.minimum) / 65536,
                    defaultValue: Double(axis.def) / 65536,
                    maximum: Double(axis.maximum) / 65536))
        }
        var instances: [(coordinates: [Double], subfamilyNameID: Int)] = []
        for n in 0..<Int(mm.pointee.num_namedstyles) {
            let style = mm.pointee.namedstyle[n]
            // FreeType 2.12 stores fvar coordinates unsigned: a negative 16.16 value (slnt −12)
            // arrives as 0xFFF40000 in a 64-bit FT_Fixed. Reinterpret the low 32 bits as signed.
            let coords = (0..<axes.count).map { Double(Int32(truncatingIfNeeded: style.coords[$0])) / 65536 }
            instances.append((coords, Int(style.strid)))
        }
        return (axes, instances)
    }

    private static func tagString(_ tag: FT_ULong) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> FT_ULong($0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
