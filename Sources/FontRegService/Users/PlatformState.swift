import FontRegJSON

/// What the daemon keeps for issue 15 across restarts: persistent registrations with their
/// owners, disabled faces, and each user's Bold Text setting.
package struct PlatformState: Sendable, Hashable {
    /// Persistent registrations of users and the owners of administrators' persistent ones, by
    /// owner, each owner's in the order they were made (issue 24: one user's change copies and
    /// searches its own records, not every user's); no owner holds an empty list.
    package private(set) var registrationsByOwner: [UInt32: [RegistrationRecord]] = [:]

    /// Every persistent registration, by owner (lowest uid first), each owner's in order.
    ///
    /// Reading or setting it passes over every record: a change of one user's uses
    /// ``append(_:)``, ``registrations(of:)`` and ``removeRegistrations(of:owners:)``.
    package var registrations: [RegistrationRecord] {
        get { registrationsByOwner.keys.sorted().flatMap { registrationsByOwner[$0] ?? [] } }
        set { registrationsByOwner = Dictionary(grouping: newValue, by: \.owner) }
    }

    /// The persistent registrations of one owner, in the order they were made.
    ///
    /// - Parameter uid: the owner.
    /// - Returns: their records (empty when they hold none).
    package func registrations(of uid: UInt32) -> [RegistrationRecord] {
        registrationsByOwner[uid] ?? []
    }

    /// Adds persistent registrations after their owners' others.
    ///
    /// - Parameter records: the records, of any owners.
    package mutating func append(_ records: [RegistrationRecord]) {
        for record in records { registrationsByOwner[record.owner, default: []].append(record) }
    }

    /// Whether any of `owners` holds a persistent registration of one of `paths`.
    ///
    /// - Parameters:
    ///   - paths: registered paths.
    ///   - owners: the owners to look at; `nil` looks at every owner's records.
    package func holdsRegistration(of paths: Set<String>, owners: [UInt32]?) -> Bool {
        for uid in owners ?? Array(registrationsByOwner.keys) {
            if registrationsByOwner[uid]?.contains(where: { paths.contains($0.path) }) ?? false { return true }
        }
        return false
    }

    /// Removes the persistent registrations of `paths` that `owners` hold.
    ///
    /// - Parameters:
    ///   - paths: registered paths.
    ///   - owners: the owners whose records are looked at; `nil` looks at every owner's.
    /// - Returns: the owners that held one.
    @discardableResult
    package mutating func removeRegistrations(of paths: Set<String>, owners: [UInt32]?) -> Set<UInt32> {
        var changed: Set<UInt32> = []
        for uid in owners ?? Array(registrationsByOwner.keys) {
            guard let records = registrationsByOwner[uid], records.contains(where: { paths.contains($0.path) })
            else { continue }
            let left = records.filter { !paths.contains($0.path) }
            registrationsByOwner[uid] = left.isEmpty ? nil : left
            changed.insert(uid)
        }
        return changed
    }
    /// What is disabled, in the order it was disabled.
    package var disabled: [DisabledEntry] = []
    /// Each user's Bold Text setting, by uid.
    package var boldText: [UInt32: Bool] = [:]

    package init() {}

    /// The state as the state file keeps it.
    package var jsonValue: JSONValue {
        [
            "version": 1, "registrations": .array(registrations.map(\.jsonValue)),
            "disabled": .array(disabled.map(\.jsonValue)),
            "boldText": .object(Dictionary(uniqueKeysWithValues: boldText.map { (String($0.key), .bool($0.value)) })),
        ]
    }

    /// Reads the state file's contents.
    ///
    /// - Parameter value: the parsed file.
    /// - Returns: the state, or `nil` when the file is not one this version wrote.
    package init?(_ value: JSONValue) {
        guard value["version"]?.intValue == 1, let registrations = value["registrations"]?.arrayValue,
            let disabled = value["disabled"]?.arrayValue, let boldText = value["boldText"]?.objectValue
        else { return nil }
        let records = registrations.compactMap(RegistrationRecord.init)
        let entries = disabled.compactMap(DisabledEntry.init)
        guard records.count == registrations.count, entries.count == disabled.count else { return nil }
        var settings: [UInt32: Bool] = [:]
        for (key, setting) in boldText {
            guard let uid = UInt32(key), case .bool(let on) = setting else { return nil }
            settings[uid] = on
        }
        self.registrations = records
        self.disabled = entries
        self.boldText = settings
    }
}
