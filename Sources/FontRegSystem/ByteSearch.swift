import Glibc

/// Searches of raw bytes with the C library's vectorised routines (not system calls: kept here
/// with the rest of what libraries may not import Glibc for).
package enum ByteSearch {
    /// The position of the first `byte` in `buffer` at or after `start`, or `nil`.
    ///
    /// The corresponding C call is `memchr`: a framer looking for a message's NUL in a 20 KB
    /// reply read it a byte at a time, 80,000 instructions a call.
    package static func first(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = buffer.baseAddress, start < buffer.count, start >= 0 else { return nil }
        guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }
}
