import FontRegJSON

/// What the daemon keeps for issue 15 across restarts: persistent registrations with their
/// owners, disabled faces, and each user's Bold Text setting.
package struct PlatformState: Sendable, Hashable {
    /// Persistent registrations of users and the owners of administrators' persistent ones.
    package var registrations: [RegistrationRecord] = []
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
