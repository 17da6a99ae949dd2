internal import CFreeType

/// A FreeType library instance and the face reader built on it.
///
/// FreeType's `FT_Library` is not thread-safe: each scanning thread owns its own
/// instance. The corresponding FreeType calls are `FT_Init_FreeType` and `FT_Done_FreeType`.
final class FreeTypeLibrary {
    let handle: FT_Library

    /// Creates a FreeType library.
    init() {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else {
            preconditionFailure("FT_Init_FreeType failed with error \(error): FreeType is unusable")
        }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }

    /// Opens one face from bytes already read, or throws a ``FreeTypeError`` naming FreeType's reason.
    ///
    /// The scanner reads a file through a descriptor it has checked (a regular file) and hands
    /// the bytes here, so FreeType never opens a path that could have been swapped meanwhile.
    /// The corresponding FreeType call is `FT_New_Memory_Face`.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - index: `instance << 16 | face`, or -1 to only count faces.
    func openFace(bytes: FontBytes, index: Int) throws(FreeTypeError) -> FreeTypeFace {
        var face: FT_Face?
        let error = FT_New_Memory_Face(
            handle, bytes.base.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count), FT_Long(index), &face)
        guard error == 0, let face else { throw FreeTypeError(code: Int32(error)) }
        return FreeTypeFace(face: face, library: self, bytes: bytes)
    }

    /// Opens one face of a file by path (for files the library itself trusts, such as fontconfig's choices).
    func openFace(path: String, index: Int) throws(FreeTypeError) -> FreeTypeFace {
        var face: FT_Face?
        let error = FT_New_Face(handle, path, FT_Long(index), &face)
        guard error == 0, let face else { throw FreeTypeError(code: Int32(error)) }
        return FreeTypeFace(face: face, library: self, bytes: nil)
    }
}

/// A FreeType error code with the words a person needs.
struct FreeTypeError: Error, CustomStringConvertible {
    let code: Int32

    var description: String {
        switch code {
        case 0x01: "cannot open the file (FreeType error 0x01)"
        case 0x02: "not a font file FreeType can read (unknown file format)"
        case 0x03: "broken font file (invalid file format)"
        case 0x06: "face index out of range (invalid argument)"
        case 0x07, 0x08: "font format not supported by this FreeType build"
        case 0x51, 0x52, 0x53, 0x55, 0x56:
            "truncated or corrupt font data (FreeType error 0x\(String(code, radix: 16)))"
        case 0x8E: "corrupt font: a required table is missing (FreeType error 0x8E)"
        case 0x40: "out of memory while reading the font"
        default: "corrupt or unsupported font data (FreeType error 0x\(String(code, radix: 16)))"
        }
    }
}
