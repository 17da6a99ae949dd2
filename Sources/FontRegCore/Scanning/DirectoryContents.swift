import Dispatch
import FontRegSystem
import Foundation
import Synchronization

/// What a warm start trusts of a directory: the entries a scan reads in it (font files,
/// subdirectories, symbolic links) with each one's `stat`, folded into a count and a hash that
/// does not depend on the order they are listed in (a warm start does not sort them).
///
/// Files a scan never reads do not count: fontconfig's `.uuid` (2.13 writes one into every font
/// folder it scans), a `README.txt` or any other hidden or non-font file may appear or change
/// without a cold rebuild. A font file added, removed, renamed, replaced or rewritten in place
/// (its device, inode, size, modification or status change time) changes the hash.
struct DirectoryContents: Sendable, Equatable {
    /// The number of entries counted, or -1 for a directory that could not be listed.
    private(set) var count: Int64 = 0
    /// The wrapping sum of each counted entry's hash (FNV-1a over its name, kind and `stat`
    /// fields, then mixed): the same whatever order the entries come in.
    private(set) var hash: UInt64 = 0

    /// The contents of a directory that could not be listed (a scan reports it as a problem).
    static let unlisted = DirectoryContents(count: -1, hash: 0)

    /// Empty contents, to add entries to.
    init() {}

    /// Contents read back from a ``DirectoryStamp``.
    init(count: Int64, hash: UInt64) {
        self.count = count
        self.hash = hash
    }

    /// The smallest number of entries whose `fstatat`s a check shares with a second thread:
    /// below it, starting the thread costs more than it saves (about 1.2 µs a `stat`).
    static let splitThreshold = 128

    /// How many entries a thread of a shared check claims at a time.
    static let chunkSize = 64

    /// Lists an open directory and `fstatat`s the entries a scan would read, as
    /// ``FontScanner`` does while walking it; nothing is sorted.
    ///
    /// A directory of at least `threshold` entries is checked by two threads (issue 29 item 3:
    /// a warm start's check is mostly these calls, and the machine has more than one core):
    /// this one and one started for it each claim the next ``chunkSize`` entries of the listing
    /// until none is left, each through its own descriptor of the directory. The contents are a
    /// count and an order-free sum, so the two threads' simply add up. On a busy machine the
    /// second thread may start late: this one then takes every chunk itself, and does not wait
    /// for a thread that has not begun (``SharedCheck``), so the check is never slower than one
    /// thread's but for starting it.
    ///
    /// - Parameters:
    ///   - directory: the open directory.
    ///   - seen: where to note each regular font file's status, if anywhere (``SeenFiles``).
    ///   - threshold: the smallest listing shared between two threads (tests lower it).
    /// - Returns: its contents, or ``unlisted`` when it cannot be listed.
    static func of(
        _ directory: FileDescriptor, noting seen: inout SeenFiles?, splittingAt threshold: Int = splitThreshold
    ) -> DirectoryContents {
        let names: EntryNameList
        do {
            names = try EntryNameList(listing: directory)
        } catch {
            return .unlisted
        }
        // The other thread's own descriptor of the directory (``FileDescriptor/reopenedDirectory()``).
        guard names.count >= threshold, names.count >= 2, let otherDirectory = try? directory.reopenedDirectory()
        else {
            return of(names, 0..<names.count, in: directory, noting: &seen)
        }
        // Made here, so that its table comes from this thread's malloc arena: a block the other
        // thread allocated would keep its own arena's pages dirty (0.5 MiB at 100,000 files).
        let shared = SharedCheck(seen: seen == nil ? nil : SeenFiles(capacity: names.count / 2 + chunkSize))
        // A plain thread: libdispatch's pool took milliseconds to start its first worker.
        let thread = Thread {
            guard shared.join() else { return }  // this thread took every chunk already
            var otherSeen = shared.takeSeen()
            let contents = claimingChunks(of: names, shared, in: otherDirectory, noting: &otherSeen)
            shared.result.withLock { $0 = (contents, otherSeen) }
            shared.done.signal()
        }
        thread.stackSize = 1 << 19
        thread.start()
        var contents = claimingChunks(of: names, shared, in: directory, noting: &seen)
        // Every chunk is claimed: the other thread has finished, is on its last chunk, or never begins.
        guard shared.joinedBeforeClosing() else { return contents }
        shared.done.wait()
        guard let (others, otherSeen) = shared.result.withLock({ $0 }) else {
            preconditionFailure("the other thread of a directory's check signalled no result")
        }
        if let otherSeen { seen?.absorb(otherSeen) }
        contents.count += others.count
        contents.hash &+= others.hash
        return contents
    }

    /// The contents of the chunks of `names` this thread claims from `shared` until none is left.
    private static func claimingChunks(
        of names: EntryNameList, _ shared: SharedCheck, in directory: FileDescriptor, noting seen: inout SeenFiles?
    ) -> DirectoryContents {
        var contents = DirectoryContents()
        while true {
            let start = shared.next.wrappingAdd(chunkSize, ordering: .relaxed).oldValue
            guard start < names.count else { return contents }
            let chunk = of(names, start..<min(start + chunkSize, names.count), in: directory, noting: &seen)
            contents.count += chunk.count
            contents.hash &+= chunk.hash
        }
    }

    /// What the two threads of a shared check of one listing share.
    private final class SharedCheck: Sendable {
        /// The first entry no thread has claimed yet.
        let next = Atomic<Int>(0)
        /// 0 while the second thread has not begun, 1 once it has, 2 once the first closed the
        /// check to it (every chunk claimed before it began).
        private let state = Atomic<Int>(0)
        /// The second thread's contents and the files it saw (`nil` until it is done).
        let result = Mutex<(DirectoryContents, SeenFiles?)?>(nil)
        /// Signalled once, when ``result`` is set.
        let done = DispatchSemaphore(value: 0)
        /// Where the second thread notes the files it sees, until it takes it (``takeSeen()``).
        private let seen: Mutex<SeenFiles?>

        /// A check whose second thread notes the files it sees in `seen`, if anywhere.
        init(seen: SeenFiles?) {
            self.seen = Mutex(seen)
        }

        /// Hands the second thread its ``SeenFiles``, uniquely referenced (no copy on its first note).
        func takeSeen() -> SeenFiles? {
            seen.withLock { seen in
                defer { seen = nil }
                return seen
            }
        }

        /// The second thread begins: `false` when the check was closed to it (it must do nothing).
        func join() -> Bool {
            state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
        }

        /// The first thread has claimed the last chunk: whether the second had begun (then wait
        /// for ``done``); if not, it never will.
        func joinedBeforeClosing() -> Bool {
            !state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
        }
    }

    /// The contents of the entries `range` of a listing (hidden names already left out).
    private static func of(
        _ names: EntryNameList, _ range: Range<Int>, in directory: FileDescriptor, noting seen: inout SeenFiles?
    ) -> DirectoryContents {
        var contents = DirectoryContents()
        names.forEach(in: range) { name, bytes in
            switch directory.statusOfEntry(cName: name, followLinks: false) {
            case .success(let status):
                let font = contents.add(name: bytes, status: status) {
                    try? directory.statusOfEntry(cName: name, followLinks: true).get()
                }
                if font, status.kind == .regular { seen?.note(status) }
            case .failure(let error):
                // Gone since the listing, as the scan skips it.
                if error.errno != .noSuchFileOrDirectory { _ = contents.add(name: bytes, status: nil) { nil } }
            }
        }
        return contents
    }

    /// ``of(_:noting:)``, noting nothing.
    static func of(_ directory: FileDescriptor) -> DirectoryContents {
        var none: SeenFiles?
        return of(directory, noting: &none)
    }

    /// Counts one entry (not hidden) of a directory, if a scan reads it.
    ///
    /// - Parameters:
    ///   - name: the entry's name.
    ///   - status: its `fstatat` without following a link, or `nil` when that failed.
    ///   - directory: the directory, to follow a link in.
    mutating func add(name: String, status: FileStatus?, in directory: FileDescriptor) {
        var bytes = name
        bytes.withUTF8 { bytes in
            _ = add(name: bytes, status: status) { try? directory.statusOfEntryFollowingLinks(name) }
        }
    }

    /// Counts one entry (not hidden), if a scan reads it: a subdirectory by its identity, a link
    /// by its own `stat` and its target's, any other file with a font name by its `stat`.
    ///
    /// - Parameters:
    ///   - name: the entry's name, as bytes.
    ///   - status: its `fstatat` without following a link, or `nil` when that failed.
    ///   - target: a link's target's `fstatat`, or `nil` when it leads nowhere.
    /// - Returns: whether it was counted as a file with a font name (not a directory or a link).
    private mutating func add(
        name: UnsafeBufferPointer<UInt8>, status: FileStatus?, target: () -> FileStatus?
    ) -> Bool {
        var entry = Entry()
        guard let status else {
            entry.mix(name, kind: 0)
            fold(entry)
            return false
        }
        switch status.kind {
        case .directory:
            // Its own entries are its own stamp's; here only which directory it is.
            entry.mix(name, kind: 1)
            entry.mix(status.device)
            entry.mix(status.inode)
        case .symbolicLink:
            entry.mix(name, kind: 2)
            entry.mix(status)
            // A link's target is what the scan reads (operator trees follow links).
            if let target = target() { entry.mix(target) }
        default:
            guard Self.hasFontExtension(name) else { return false }
            entry.mix(name, kind: 3)
            entry.mix(status)
            fold(entry)
            return true
        }
        fold(entry)
        return false
    }

    /// Adds one entry's hash, mixed so that a sum of them spreads over every bit.
    private mutating func fold(_ entry: Entry) {
        var z = entry.hash
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        count += 1
        hash &+= z ^ (z >> 31)
    }

    /// ``FontScanner/hasFontExtension(_:)`` of a name's bytes.
    private static func hasFontExtension(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        FontExtension.matches(name)
    }

    /// One entry's FNV-1a (64-bit) hash, built field by field.
    private struct Entry {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        /// Mixes in the entry's name and what kind of entry it is.
        mutating func mix(_ name: UnsafeBufferPointer<UInt8>, kind: UInt8) {
            for byte in name { mix(byte: byte) }
            mix(byte: 0)
            mix(byte: kind)
        }

        /// Mixes in the fields that change when a file is replaced or rewritten.
        mutating func mix(_ status: FileStatus) {
            mix(UInt64(truncatingIfNeeded: status.kind.hashCode))
            mix(status.device)
            mix(status.inode)
            mix(UInt64(bitPattern: status.size))
            mix(UInt64(bitPattern: Int64(status.modifiedNanoseconds)))
            mix(UInt64(bitPattern: Int64(status.changedNanoseconds)))
        }

        /// Mixes in a 64-bit value, byte by byte.
        mutating func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                mix(byte: UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        }

        /// One FNV-1a step.
        mutating func mix(byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }
}

extension FileStatus.Kind {
    /// A stable number for each kind (Swift's `hashValue` is seeded per process).
    fileprivate var hashCode: Int {
        switch self {
        case .regular: 1
        case .directory: 2
        case .symbolicLink: 3
        case .fifo: 4
        case .characterDevice: 5
        case .blockDevice: 6
        case .socket: 7
        case .other: 8
        }
    }
}
