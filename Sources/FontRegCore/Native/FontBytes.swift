import FontRegJSON
import FontRegSystem
import Foundation

/// The whole content of a font file, read from a checked descriptor, in memory FreeType can use.
///
/// Owned memory, freed on deinit; faces opened from it keep a reference.
final class FontBytes {
    let base: UnsafeMutableRawPointer
    let count: Int

    /// Reads `count` bytes from an open descriptor.
    ///
    /// - Throws: ``FileReadError`` when the read fails or the file shrank meanwhile.
    init(descriptor: Int32, count: Int) throws(FileReadError) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        var done = 0
        while done < count {
            let n = read(descriptor, base + done, count - done)
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                base.deallocate()
                throw FileReadError(errno: code)
            }
            if n == 0 { break }
            done += n
        }
        guard done == count else {
            base.deallocate()
            throw FileReadError(errno: EIO)
        }
    }

    deinit { base.deallocate() }

    /// Why these bytes are not a font at all, judged by the magic numbers of the formats FreeType reads; `nil` when they may be one.
    var notAFontReason: String? {
        let head = Array(UnsafeRawBufferPointer(start: base, count: min(count, 16)))
        func starts(_ text: String) -> Bool { head.starts(with: Array(text.utf8)) }
        if head.starts(with: [0x00, 0x01, 0x00, 0x00]) || head.starts(with: [0x80, 0x01])
            || head.starts(with: [0x01, 0x66, 0x63, 0x70])
        {
            return nil
        }
        for magic in [
            "OTTO", "true", "typ1", "ttcf", "wOFF", "wOF2", "%!PS-AdobeFont", "%!FontType1", "STARTFONT",
            "\u{1}\u{0}\u{4}",
        ] where starts(magic) {
            return nil
        }
        if count >= 4 && head.prefix(4).allSatisfy({ $0 == 0 }) { return "not a font file: it starts with zero bytes" }
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32...126).contains($0) }
        if printable { return "not a font file: it looks like text" }
        if count < 12 { return "not a font file: too short (\(count) bytes)" }
        return nil  // unknown binary: let FreeType decide (it knows more formats than these)
    }

    /// `WOFF` or `WOFF2` when the bytes are a web font wrapper, from the magic number.
    var containerFormat: String? {
        guard count >= 4 else { return nil }
        let magic = String(decoding: UnsafeRawBufferPointer(start: base, count: 4), as: UTF8.self)
        switch magic {
        case "wOFF": return "WOFF"
        case "wOF2": return "WOFF2"
        default: return nil
        }
    }
}

/// A failed read of a font file, with errno.
struct FileReadError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "read failed: \(String(cString: strerror(errno)))" }
}
