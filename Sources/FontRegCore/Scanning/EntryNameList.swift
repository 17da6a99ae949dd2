import FontRegSystem
import Foundation

/// The names of a directory's entries, listed once and kept as NUL-terminated bytes one after
/// another, so that their `fstatat`s can be shared between threads (``DirectoryContents``).
///
/// Hidden names (starting with a dot) are left out, as a scan skips them.
struct EntryNameList: Sendable {
    /// Every name with its terminating NUL, one after another.
    private var bytes: [UInt8] = []
    /// Where each name starts in ``bytes``.
    private var starts: [Int] = []

    /// Lists an open directory (``FileDescriptor/forEachEntryName(_:)``).
    ///
    /// - Throws: ``SystemError`` when it cannot be listed.
    init(listing directory: FileDescriptor) throws(SystemError) {
        try directory.forEachEntryName { name in
            guard name[0] != 0x2E else { return }  // hidden, as the scan skips it
            starts.append(bytes.count)
            // The name and its NUL, appended at once.
            let count = strlen(name) + 1
            UnsafeRawPointer(name).withMemoryRebound(to: UInt8.self, capacity: count) {
                bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// The number of names.
    var count: Int { starts.count }

    /// Calls `body` with each name of `range`, in listing order, as a C string and as bytes
    /// without the NUL, both valid only during the call.
    func forEach(
        in range: Range<Int>, _ body: (UnsafePointer<CChar>, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for index in range {
                let start = starts[index]
                let end = index + 1 < starts.count ? starts[index + 1] - 1 : all.count - 1
                let name = UnsafeBufferPointer(start: base + start, count: end - start)
                UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: end - start + 1) {
                    body($0, name)
                }
            }
        }
    }
}
