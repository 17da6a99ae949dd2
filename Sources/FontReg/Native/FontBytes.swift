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
