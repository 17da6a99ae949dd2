import FontRegCore
import FontRegJSON

/// A duplicate group as the registry interface's `Duplicate` type: what the faces share, the face
/// used and the faces not used with the reason (see ``DuplicateGroup`` for the rule).
public struct DuplicateSummary: Sendable, Hashable, Codable {
    /// One face of the group.
    public struct Member: Sendable, Hashable, Codable {
        /// The face's PostScript name.
        public var postscriptName: String
        /// The font file.
        public var file: String
        /// The face index inside the file.
        public var index: Int
        /// The named-instance number, for a variable font's instance.
        public var instance: Int?
        /// `head.fontRevision`.
        public var fontRevision: Double
        /// Why it lost (`older-revision`, `variable-instance`, `later-directory`, `later-path`); `nil` for the winner.
        public var reason: String?
        /// The reason in plain words; `nil` for the winner.
        public var explanation: String?

        /// A member for a face, with the reason it lost (none for the winner).
        public init(_ face: FaceRecord, reason: DuplicateGroup.Reason? = nil) {
            postscriptName = face.postscriptName
            file = face.file
            index = face.index
            instance = face.instance
            fontRevision = face.fontRevision
            self.reason = reason?.code
            explanation = reason?.description
        }
    }

    /// `postscript-name` or `style`.
    public var kind: String
    /// The shared PostScript name, or `Family, width 100%, normal, weight 700`.
    public var key: String
    /// The face used.
    public var winner: Member
    /// The faces not used.
    public var losers: [Member]

    /// The summary of a group.
    public init(_ group: DuplicateGroup) {
        kind = group.kind.rawValue
        key = group.key
        winner = Member(group.winner)
        losers = group.losers.map { Member($0.face, reason: $0.reason) }
    }

    /// The summaries of groups whose winner belongs to `family` (every group when `nil`).
    public static func of(_ index: FontIndex, family: String? = nil) -> [DuplicateSummary] {
        let key = family.map(FamilyKey.init)
        return index.duplicates.filter { key == nil || FamilyKey($0.winner.family) == key }.map(DuplicateSummary.init)
    }

    /// The summary as the interface's `Duplicate` type.
    public var jsonValue: JSONValue {
        do {
            return try JSONValue(encoding: self)
        } catch {
            preconditionFailure("DuplicateSummary always encodes: \(error)")
        }
    }
}
