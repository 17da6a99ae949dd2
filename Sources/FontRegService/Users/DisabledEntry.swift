import FontRegCore
import FontRegJSON

/// A face, a file or a family disabled without being unregistered (issue 15).
///
/// An administrator's entry applies to every face it names; a user's only to the faces of
/// that user's own registrations, so that one user cannot hide fonts from another.
package struct DisabledEntry: Sendable, Hashable {
    /// What the entry names.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A face, by PostScript name (case-insensitive).
        case face
        /// A font file, by path (symlinks resolved).
        case file
        /// A family, by name (any spelling of its ``FamilyKey``).
        case family
    }

    /// What the entry names.
    package var kind: Kind
    /// The PostScript name, path or family name.
    package var value: String
    /// The uid that disabled it.
    package var owner: UInt32
    /// Whether it applies to every face (set by an administrator) or only to the owner's own.
    package var systemWide: Bool

    /// An entry with every field given.
    package init(kind: Kind, value: String, owner: UInt32, systemWide: Bool) {
        self.kind = kind
        self.value = value
        self.owner = owner
        self.systemWide = systemWide
    }

    /// Whether the entry names `face` (ignoring who owns it).
    package func names(_ face: FaceRecord) -> Bool {
        switch kind {
        case .face: face.postscriptName.lowercased() == value.lowercased()
        case .file: face.file == value
        case .family: FamilyKey(face.family) == FamilyKey(value)
        }
    }

    /// Whether the entry disables `face`, whose private owner is `faceOwner` (`nil` for a public face).
    package func disables(_ face: FaceRecord, faceOwner: UInt32?) -> Bool {
        guard systemWide || faceOwner == owner else { return false }
        return names(face)
    }

    /// The entry as the state file keeps it and `GetStatus` shows it.
    package var jsonValue: JSONValue {
        [
            "kind": .string(kind.rawValue), "value": .string(value), "owner": .int(Int(owner)),
            "systemWide": .bool(systemWide),
        ]
    }

    /// Reads an entry from the state file; `nil` for a malformed one.
    ///
    /// `systemWide` was `global` in earlier state files (renamed because `global` is a
    /// keyword in Python); both are read.
    ///
    /// - Parameter value: one element of the state file's `disabled`.
    package init?(_ value: JSONValue) {
        guard let kind = value["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let name = value["value"]?.stringValue, !name.isEmpty,
            let owner = value["owner"]?.intValue, owner >= 0, owner <= Int(UInt32.max),
            case .bool(let systemWide)? = value["systemWide"] ?? value["global"]
        else { return nil }
        self.init(kind: kind, value: name, owner: UInt32(owner), systemWide: systemWide)
    }
}
