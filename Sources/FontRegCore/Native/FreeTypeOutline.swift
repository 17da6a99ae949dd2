internal import CFreeType

/// A line of text drawn as SVG path data from a face's own glyph outlines.
///
/// Coordinates are in pixels with the baseline at y = 0 and y growing downwards (SVG's
/// direction), so the path fits a `viewBox` of `0 -ascent width ascent+descent`.
package struct OutlinedText: Sendable, Hashable {
    /// SVG path data (`M … L … Q … C … Z`).
    package var pathData: String
    /// The advance width of the whole line.
    package var width: Double
    /// Distance from the baseline up to the face's ascender.
    package var ascent: Double
    /// Distance from the baseline down to the face's descender (positive).
    package var descent: Double
    /// Characters the face has no glyph for (drawn as a gap).
    package var missingGlyphs: Int
}

/// Why a face could not be outlined.
package struct FreeTypeOutlineError: Error, CustomStringConvertible {
    package var file: String
    package var reason: String
    package var description: String {
        "\(file): cannot draw a sample from this face (\(reason)); check that the file is still there and readable"
    }
}

/// Turns text into SVG paths through FreeType, so a report can show the real face without installing it.
///
/// The corresponding FreeType calls are `FT_Set_Var_Design_Coordinates`, `FT_Set_Char_Size`,
/// `FT_Load_Glyph` and `FT_Outline_Decompose`. No C type leaves this file.
package enum FreeTypeOutline {
    /// Draws `text` in one face.
    ///
    /// - Parameters:
    ///   - text: the sample; characters without a glyph leave a gap.
    ///   - file: the font file.
    ///   - faceIndex: FreeType's index, `instance << 16 | face` (``FaceRecord/freetypeIndex``).
    ///   - weight: for a variable face, the `wght` coordinate to draw at; ignored for static faces.
    ///   - pixelSize: the em size in pixels.
    /// - Returns: the path data and metrics.
    /// - Throws: ``FreeTypeOutlineError`` when FreeType cannot open the face.
    package static func outline(
        text: String, file: String, faceIndex: Int, weight: Double? = nil, pixelSize: Double = 24
    ) throws(FreeTypeOutlineError) -> OutlinedText {
        let library = FreeTypeLibrary()
        let opened: FreeTypeFace
        do {
            opened = try library.openFace(path: file, index: faceIndex)
        } catch {
            throw FreeTypeOutlineError(file: file, reason: error.description)
        }
        let face = opened.face
        if let weight, opened.isVariable, faceIndex >> 16 == 0 {
            setWeight(weight, face: face, library: library.handle)
        }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(pixelSize * 64), 72, 72) == 0 else {
            throw FreeTypeOutlineError(file: file, reason: "FT_Set_Char_Size refused \(pixelSize) px")
        }
        let builder = PathBuilder()
        var missing = 0
        for scalar in text.unicodeScalars {
            let glyphIndex = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if glyphIndex == 0 {
                if scalar != " " { missing += 1 }
                builder.penX += pixelSize * 0.3
                continue
            }
            let flags = FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
            guard FT_Load_Glyph(face, glyphIndex, flags) == 0, let slot = face.pointee.glyph else {
                missing += 1
                continue
            }
            if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
                builder.decompose(&slot.pointee.outline)
            }
            builder.penX += Double(slot.pointee.advance.x) / 64
        }
        builder.closeContour()
        let metrics = face.pointee.size.pointee.metrics
        return OutlinedText(
            pathData: builder.data, width: builder.penX,
            ascent: Double(metrics.ascender) / 64, descent: -Double(metrics.descender) / 64,
            missingGlyphs: missing)
    }

    /// Sets the `wght` axis of a variable face, leaving the other axes at their defaults.
    private static func setWeight(_ weight: Double, face: FT_Face, library: FT_Library) {
        var master: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(face, &master) == 0, let master else { return }
        defer { FT_Done_MM_Var(library, master) }
        let count = Int(master.pointee.num_axis)
        guard count > 0, let axes = master.pointee.axis else { return }
        let wght: FT_ULong = 0x7767_6874  // 'wght'
        var coordinates = [FT_Fixed](repeating: 0, count: count)
        for index in 0..<count {
            let axis = axes[index]
            if axis.tag == wght {
                let clamped = min(max(weight * 65536, Double(axis.minimum)), Double(axis.maximum))
                coordinates[index] = FT_Fixed(clamped)
            } else {
                coordinates[index] = axis.def
            }
        }
        _ = FT_Set_Var_Design_Coordinates(face, FT_UInt(count), &coordinates)
    }
}

/// Collects FreeType's outline callbacks into SVG path data, shifted by the pen position.
private final class PathBuilder {
    var data = ""
    var penX = 0.0
    private var open = false

    private func point(_ vector: UnsafePointer<FT_Vector>?) -> String {
        guard let vector else { return "0 0" }
        let x = penX + Double(vector.pointee.x) / 64
        let y = -Double(vector.pointee.y) / 64
        return "\(PathBuilder.format(x)) \(PathBuilder.format(y))"
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }

    func closeContour() {
        if open { data += "Z" }
        open = false
    }

    func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) {
        var functions = FT_Outline_Funcs(
            move_to: { to, user in
                let builder = Unmanaged<PathBuilder>.fromOpaque(user!).takeUnretainedValue()
                builder.closeContour()
                builder.data += "M" + builder.point(to)
                builder.open = true
                return 0
            },
            line_to: { to, user in
                let builder = Unmanaged<PathBuilder>.fromOpaque(user!).takeUnretainedValue()
                builder.data += "L" + builder.point(to)
                return 0
            },
            conic_to: { control, to, user in
                let builder = Unmanaged<PathBuilder>.fromOpaque(user!).takeUnretainedValue()
                builder.data += "Q" + builder.point(control) + " " + builder.point(to)
                return 0
            },
            cubic_to: { control1, control2, to, user in
                let builder = Unmanaged<PathBuilder>.fromOpaque(user!).takeUnretainedValue()
                builder.data += "C" + builder.point(control1) + " " + builder.point(control2) + " " + builder.point(to)
                return 0
            },
            shift: 0, delta: 0)
        let user = Unmanaged.passUnretained(self).toOpaque()
        _ = FT_Outline_Decompose(outline, &functions, user)
        closeContour()
    }
}
