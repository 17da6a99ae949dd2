import FontRegJSON

/// Who registered a path, for how long, and who may see its faces (issue 15).
package struct RegistrationRecord: Sendable, Hashable {
    /// The registered file or directory, symlinks resolved.
    package var path: String
    /// The uid of the peer that registered it.
    package var owner: UInt32
    /// How long it lasts.
    package var scope: RegistrationScope
    /// Whether its faces are the owner's own (a user's fonts in their own directories), seen by
    /// the owner only unless the configuration shares them; `false` for administrators' registrations.
    package var isPrivate: Bool
    /// The connection that registered it, for ``RegistrationScope/connection`` (0 otherwise).
    package var connection: UInt64

    package init(path: String, owner: UInt32, scope: RegistrationScope, isPrivate: Bool, connection: UInt64 = 0) {
        self.path = path
        self.owner = owner
        self.scope = scope
        self.isPrivate = isPrivate
        self.connection = connection
    }

    /// The record as `GetStatus` shows it and the state file keeps it.
    package var jsonValue: JSONValue {
        [
            "path": .string(path), "owner": .int(Int(owner)), "scope": .string(scope.rawValue),
            "private": .bool(isPrivate),
        ]
    }

    /// Reads a record from the state file; `nil` for a malformed one.
    ///
    /// - Parameter value: one element of the state file's `registrations`.
    package init?(_ value: JSONValue) {
        guard let path = value["path"]?.stringValue, path.hasPrefix("/"),
            let owner = value["owner"]?.intValue, owner >= 0, owner <= Int(UInt32.max),
            let scope = value["scope"]?.stringValue.flatMap(RegistrationScope.init(name:)),
            case .bool(let isPrivate)? = value["private"]
        else { return nil }
        self.init(path: path, owner: UInt32(owner), scope: scope, isPrivate: isPrivate)
    }
}
