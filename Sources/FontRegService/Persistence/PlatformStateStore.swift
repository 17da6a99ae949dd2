import FontRegJSON
import FontRegSystem

/// ``PlatformState`` in the state directory, one file per user: `platform.d/<uid>.json`, written
/// durably before a reply (issue 24).
///
/// Each file holds what one uid keeps: the registrations it owns, the disabled entries it made
/// and its Bold Text setting. A save writes only the files of the uids whose part changed, so its
/// cost does not grow with other users' state, and a damaged file loses that uid's state only.
/// The files are mode 0600 and the folder 0700: they name users' own font paths, which other
/// users must not read. A `platform.json` of an earlier version (the whole state in one file) is
/// read at start, written as per-user files, then removed.
package struct PlatformStateStore: Sendable {
    /// The state directory.
    package let directory: String
    /// The name of the single state file of earlier versions, migrated at start.
    package static let name = "platform.json"
    /// The name of the folder of per-user files.
    package static let folderName = "platform.d"
    /// The most per-user files read at start; those past it (by uid) are reported and not read.
    package static let maximumUsers = 65_536

    package init(directory: String) {
        self.directory = directory
    }

    /// The path of the earlier versions' single state file.
    package var path: String { directory + "/" + Self.name }

    /// The path of the folder of per-user files.
    package var folder: String { directory + "/" + Self.folderName }

    /// The path of `uid`'s file.
    package func path(of uid: UInt32) -> String { folder + "/" + Self.fileName(of: uid) }

    /// The name of `uid`'s file in the folder.
    static func fileName(of uid: UInt32) -> String { "\(uid).json" }

    /// The earlier versions' state file, read and moved aside safely.
    private var legacyFile: StateFile { StateFile(directory: directory, name: Self.name) }

    /// What ``load()`` found besides the state.
    package enum Problem: Sendable, Equatable {
        /// A file could not be parsed and was moved aside (older copies beyond the kept ones
        /// removed); `uid` is the user whose state it held, `nil` for `platform.json`.
        case movedAside(StateFile.MovedAside, uid: UInt32?)
        /// A file was not read and was left where it is: a link, a FIFO, unreadable.
        case notRead(PersistenceError, uid: UInt32?)
        /// More per-user files than ``maximumUsers``: those of the uids past it were not read.
        case tooManyUsers(found: Int, read: Int)
        /// `platform.json` was read but could not be written as per-user files; it was kept.
        case notMigrated(PersistenceError)

        /// The user whose state the problem is about; `nil` for the whole state.
        package var uid: UInt32? {
            switch self {
            case .movedAside(_, let uid), .notRead(_, let uid): uid
            case .tooManyUsers, .notMigrated: nil
            }
        }
    }

    /// Reads the state: every `<uid>.json` of the folder, in ascending uid order (each user's
    /// registrations and disabled entries in their own order), then migrates a `platform.json`.
    ///
    /// A file this version cannot read, or one whose content names another uid than its name, is
    /// moved aside to a name of its own (``StateFile/moveAside()``) and only that uid's state is
    /// lost; a link, FIFO or other non-file is neither read nor moved. A `platform.json` of an
    /// earlier version is read as before; the uids it holds that have no file yet are written as
    /// per-user files, and it is removed once all are written.
    ///
    /// - Returns: the state, and the problems found.
    package func load() -> (state: PlatformState, problems: [Problem]) {
        var problems: [Problem] = []
        var parts = loadFolder(&problems)
        let (legacy, legacyProblem) = loadLegacy()
        if let legacyProblem { problems.append(legacyProblem) }
        if let legacy {
            // A file already written (an earlier migration that could not remove platform.json,
            // then changes saved) is newer than platform.json.
            var missing = Self.parts(of: legacy)
            for uid in parts.keys { missing[uid] = nil }
            do {
                try prepareFolder()
                for (uid, part) in missing.sorted(by: { $0.key < $1.key }) { try write(part, of: uid) }
                for (uid, part) in missing { parts[uid] = part }
                try? FileDescriptor.open(directory, as: .directory).removeEntry(Self.name)
            } catch {
                problems.append(.notMigrated(error))
                for (uid, part) in missing { parts[uid] = part }
            }
        }
        return (Self.merged(parts), problems)
    }

    /// Reads the per-user files; `problems` gets what was moved aside or not read.
    private func loadFolder(_ problems: inout [Problem]) -> [UInt32: PlatformState] {
        let names: [String]
        do {
            names = try FileDescriptor.open(folder, as: .directory, followLinks: false).entryNames()
        } catch {
            if error.errno != .noSuchFileOrDirectory {
                problems.append(.notRead(.system(error.about(folder)), uid: nil))
            }
            return [:]
        }
        var uids = names.compactMap(Self.uid(ofFileName:)).sorted()
        if uids.count > Self.maximumUsers {
            problems.append(.tooManyUsers(found: uids.count, read: Self.maximumUsers))
            uids = Array(uids.prefix(Self.maximumUsers))
        }
        var parts: [UInt32: PlatformState] = [:]
        for uid in uids {
            let file = StateFile(directory: folder, name: Self.fileName(of: uid))
            let bytes: [UInt8]?
            do {
                bytes = try file.read()
            } catch {
                if case .corrupt = error {
                    problems.append(Self.movingAside(file, uid: uid))
                } else {
                    problems.append(.notRead(error, uid: uid))
                }
                continue
            }
            guard let bytes else { continue }
            // The files this daemon wrote, read without a JSONValue tree (issue 29 item 3);
            // any other (hand-edited, damaged) is read by the JSON parser as before.
            if let part = StateFileDecoder.part(bytes, of: uid) {
                parts[uid] = part
                continue
            }
            guard let value = try? JSONParser.parse(bytes), let part = Self.part(value, of: uid) else {
                problems.append(Self.movingAside(file, uid: uid))
                continue
            }
            parts[uid] = part
        }
        return parts
    }

    /// The uid a per-user file's name stands for: `<digits>.json` within `UInt32`, no leading zero.
    static func uid(ofFileName name: String) -> UInt32? {
        guard name.hasSuffix(".json") else { return nil }
        let digits = name.dropLast(5)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let uid = UInt32(digits),
            String(uid) == digits
        else { return nil }
        return uid
    }

    /// Reads `platform.json` of an earlier version; `nil` when there is none or it was not read.
    private func loadLegacy() -> (PlatformState?, Problem?) {
        let bytes: [UInt8]?
        do {
            bytes = try legacyFile.read()
        } catch {
            guard case .corrupt = error else { return (nil, .notRead(error, uid: nil)) }
            return (nil, Self.movingAside(legacyFile, uid: nil))
        }
        guard let bytes else { return (nil, nil) }
        if let value = try? JSONParser.parse(bytes), let state = PlatformState(value) { return (state, nil) }
        return (nil, Self.movingAside(legacyFile, uid: nil))
    }

    /// The problem after moving `file` aside.
    private static func movingAside(_ file: StateFile, uid: UInt32?) -> Problem {
        do {
            return .movedAside(try file.moveAside(), uid: uid)
        } catch {
            return .notRead(error, uid: uid)
        }
    }

    /// Writes the parts of the uids that differ between `old` and `new`, durably (see
    /// ``AtomicFile``); a uid left with nothing has its file removed. Other users' files are not touched.
    ///
    /// - Parameters:
    ///   - new: the state to keep.
    ///   - old: the state kept so far (what the files hold).
    /// - Throws: ``PersistenceError/tooLarge(path:size:limit:)`` for a file start-up would not read,
    ///   ``PersistenceError/system(_:)``; the files already written are then put back as `old` had them.
    ///
    /// - Parameter uids: the uids whose part may have changed, when the caller knows them (one
    ///   user's change): the others' parts are not split out and compared (issue 24: with 40
    ///   users' 10,240 registrations that was a tenth of a user's `Register`). `nil`: every uid.
    package func save(_ new: PlatformState, replacing old: PlatformState, uids: Set<UInt32>? = nil)
        throws(PersistenceError)
    {
        let before = Self.parts(of: old, only: uids)
        let after = Self.parts(of: new, only: uids)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        guard !changed.isEmpty else { return }
        for uid in changed {
            if let part = after[uid] { try Self.checkSize(part, of: uid, at: path(of: uid)) }
        }
        try prepareFolder()
        var done: [UInt32] = []
        do {
            for uid in changed {
                try replace(with: after[uid], of: uid)
                done.append(uid)
            }
        } catch {
            for uid in done { try? replace(with: before[uid], of: uid) }
            throw error
        }
    }

    /// Creates the state directory and the folder of per-user files (0700) when missing.
    private func prepareFolder() throws(PersistenceError) {
        do {
            try Syscall.makeDirectory(directory, mode: 0o755)
            try Syscall.makeDirectory(folder, mode: 0o700)
        } catch {
            throw .system(error)
        }
    }

    /// Writes `part` as `uid`'s file, or removes the file when `part` is `nil`.
    private func replace(with part: PlatformState?, of uid: UInt32) throws(PersistenceError) {
        guard let part else {
            do {
                try FileDescriptor.open(folder, as: .directory, followLinks: false).removeEntry(Self.fileName(of: uid))
            } catch {
                if error.errno != .noSuchFileOrDirectory { throw .system(error) }
            }
            return
        }
        try write(part, of: uid)
    }

    /// Writes `part` as `uid`'s file.
    private func write(_ part: PlatformState, of uid: UInt32) throws(PersistenceError) {
        let bytes = try Self.checkSize(part, of: uid, at: path(of: uid))
        do {
            try AtomicFile.write(bytes, directory: folder, name: Self.fileName(of: uid), mode: 0o600)
        } catch {
            throw .system(error)
        }
    }

    /// `part` as `uid`'s file holds it, refused past what start-up reads.
    @discardableResult
    private static func checkSize(_ part: PlatformState, of uid: UInt32, at path: String) throws(PersistenceError)
        -> [UInt8]
    {
        var bytes = Array(jsonValue(part, of: uid).prettyPrinted().utf8)
        bytes.append(0x0A)
        guard bytes.count <= StateFile.maximumSize else {
            throw .tooLarge(path: path, size: bytes.count, limit: StateFile.maximumSize)
        }
        return bytes
    }

    /// Each uid's part of `state`: the registrations it owns, the entries it disabled, its Bold
    /// Text setting; uids with nothing are absent.
    static func parts(of state: PlatformState, only uids: Set<UInt32>? = nil) -> [UInt32: PlatformState] {
        var parts: [UInt32: PlatformState] = [:]
        // Only the uids asked for are looked at (issue 24: not every user's records).
        for uid in uids.map(Array.init) ?? Array(state.registrationsByOwner.keys) {
            let records = state.registrations(of: uid)
            if !records.isEmpty { parts[uid, default: PlatformState()].append(records) }
        }
        for entry in state.disabled where uids?.contains(entry.owner) ?? true {
            parts[entry.owner, default: PlatformState()].disabled.append(entry)
        }
        for (uid, setting) in state.boldText where uids?.contains(uid) ?? true {
            parts[uid, default: PlatformState()].boldText[uid] = setting
        }
        return parts
    }

    /// The parts put together in ascending uid order.
    static func merged(_ parts: [UInt32: PlatformState]) -> PlatformState {
        var state = PlatformState()
        for (_, part) in parts.sorted(by: { $0.key < $1.key }) {
            state.append(part.registrations)
            state.disabled += part.disabled
            state.boldText.merge(part.boldText) { first, _ in first }
        }
        return state
    }

    /// `uid`'s part as its file keeps it.
    static func jsonValue(_ part: PlatformState, of uid: UInt32) -> JSONValue {
        var members: [String: JSONValue] = [
            "version": 1, "uid": .int(Int(uid)), "registrations": .array(part.registrations.map(\.jsonValue)),
            "disabled": .array(part.disabled.map(\.jsonValue)),
        ]
        if let setting = part.boldText[uid] { members["boldText"] = .bool(setting) }
        return .object(members)
    }

    /// Reads `uid`'s file; `nil` when it is not one this version wrote for that uid (another uid
    /// named inside, an entry owned by another uid, a malformed entry).
    static func part(_ value: JSONValue, of uid: UInt32) -> PlatformState? {
        guard value["version"]?.intValue == 1, value["uid"]?.intValue == Int(uid),
            let registrations = value["registrations"]?.arrayValue, let disabled = value["disabled"]?.arrayValue
        else { return nil }
        let records = registrations.compactMap(RegistrationRecord.init)
        let entries = disabled.compactMap(DisabledEntry.init)
        guard records.count == registrations.count, entries.count == disabled.count,
            records.allSatisfy({ $0.owner == uid }), entries.allSatisfy({ $0.owner == uid })
        else { return nil }
        var part = PlatformState()
        part.registrations = records
        part.disabled = entries
        switch value["boldText"] {
        case nil: break
        case .bool(let on)?: part.boldText[uid] = on
        default: return nil
        }
        return part
    }
}
