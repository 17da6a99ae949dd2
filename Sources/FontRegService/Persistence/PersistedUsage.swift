import FontRegJSON

/// What one user holds of the persisted state (issue 24): their persistent registrations,
/// disabled entries and Bold Text setting, counted against ``PlatformSettings/maximumPersistedEntriesPerUser``
/// and ``PlatformSettings/maximumPersistedBytesPerUser``.
///
/// Bytes are those of the entries as the state file serializes them, so that the budget bounds
/// what one user adds to their file of `platform.d` (and to what every later start reads).
package struct PersistedUsage: Sendable, Hashable {
    /// How many entries.
    package var entries = 0
    /// Their serialized size, in bytes.
    package var bytes = 0

    /// The usage of `uid` in `state`.
    ///
    /// - Parameters:
    ///   - uid: the user.
    ///   - state: the persisted state.
    package init(of uid: UInt32, in state: PlatformState) {
        for record in state.registrations(of: uid) { add(record.jsonValue) }
        for entry in state.disabled where entry.owner == uid { add(entry.jsonValue) }
        if let setting = state.boldText[uid] { add(.object([String(uid): .bool(setting)])) }
    }

    private mutating func add(_ value: JSONValue) {
        entries += 1
        bytes += value.serialized().count
    }
}
