/// Faces that claim the same PostScript name, or the same family, width, style (and slant angle) and weight,
/// from more than one file, and which of them the registry uses.
///
/// The rule, in order: the higher `head.fontRevision` wins; on a tie a static face wins over a
/// variable font's named instance (the static face was drawn for that exact weight); then the
/// face from the earlier font directory in the configuration; then the earlier path. Only faces
/// of one point in the design space take part: a variable font's default face serves a range
/// and is never a duplicate, and faces of one file never compete with each other.
public struct DuplicateGroup: Sendable, Hashable {
    /// What the faces share.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The same PostScript name.
        case postscriptName = "postscript-name"
        /// The same family, width, style and weight.
        case style
    }

    /// Why a face lost to the winner.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The winner's `head.fontRevision` is higher.
        case olderRevision(loser: Double, winner: Double)
        /// The same revision, and the winner is a static face while the loser is a variable font's instance.
        case variableInstance
        /// The same revision and kind, and the winner's font directory comes earlier in the configuration.
        case laterDirectory
        /// Everything else equal: the winner's path sorts first.
        case laterPath

        /// The reason as a short machine-readable word.
        public var code: String {
            switch self {
            case .olderRevision: "older-revision"
            case .variableInstance: "variable-instance"
            case .laterDirectory: "later-directory"
            case .laterPath: "later-path"
            }
        }

        /// The reason in plain words.
        public var description: String {
            switch self {
            case .olderRevision(let loser, let winner):
                "its fontRevision \(Self.revision(loser)) is older than \(Self.revision(winner))"
            case .variableInstance:
                "it is a variable font's named instance, and a static face has the exact weight"
            case .laterDirectory:
                "its font directory comes later in the configuration"
            case .laterPath:
                "its path sorts after the winner's"
            }
        }

        /// A revision with three decimals, as font tools show it (3.019).
        public static func revision(_ value: Double) -> String {
            let thousandths = Int((value * 1000).rounded())
            let fraction = String(abs(thousandths) % 1000)
            return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
        }
    }

    /// A face that lost, and why.
    public struct Loser: Sendable, Hashable {
        /// The face not used.
        public var face: FaceRecord
        /// Why the winner was preferred.
        public var reason: Reason
    }

    /// What the faces share.
    public var kind: Kind
    /// The shared value in words: the PostScript name, or `Family, width 100%, italic, weight 700`.
    public var key: String
    /// The face the registry uses.
    public var winner: FaceRecord
    /// The faces it does not use, with the reason.
    public var losers: [Loser]

    /// Why `winner` beats `loser`, or `nil` when it does not.
    ///
    /// - Parameter directoryRank: the position of a face's font directory in the configuration.
    static func beats(_ winner: FaceRecord, _ loser: FaceRecord, directoryRank: (FaceRecord) -> Int) -> Reason? {
        if winner.fontRevision != loser.fontRevision {
            return winner.fontRevision > loser.fontRevision
                ? .olderRevision(loser: loser.fontRevision, winner: winner.fontRevision) : nil
        }
        let winnerStatic = winner.axes.isEmpty, loserStatic = loser.axes.isEmpty
        if winnerStatic != loserStatic { return winnerStatic ? .variableInstance : nil }
        let a = directoryRank(winner), b = directoryRank(loser)
        if a != b { return a < b ? .laterDirectory : nil }
        return (winner.file, winner.freetypeIndex) < (loser.file, loser.freetypeIndex) ? .laterPath : nil
    }

    /// The shared value of a group in words, from its kind and winner (``key``).
    static func key(_ kind: Kind, winner: FaceRecord) -> String {
        kind == .postscriptName
            ? winner.postscriptName
            : "\(winner.family), width \(VariationSetting.format(winner.widthPercent))%, \(winner.style.rawValue), weight \(winner.weight)"
    }

    /// The duplicate groups among faces, each with its winner; `directories` in configuration order.
    static func find(in faces: [FaceRecord], directories: [String]) -> [DuplicateGroup] {
        func directoryRank(_ face: FaceRecord) -> Int {
            directories.firstIndex { face.file == $0 || face.file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
                ?? directories.count
        }
        // Only point faces; a variable font's default face serves a range.
        let points = faces.indices.filter { faces[$0].instance != nil || faces[$0].axes.isEmpty }
        var byName: [CaseInsensitiveName: [Int]] = [:]
        var byStyle: [String: [Int]] = [:]
        for i in points {
            let face = faces[i]
            byName[CaseInsensitiveName(face.postscriptName), default: []].append(i)
            let styleKey =
                "\(FamilyKey(face.family).value)|\(face.widthPercent)|\(face.style.rawValue)|\(face.obliqueAngleRange)|\(face.weight)"
            byStyle[styleKey, default: []].append(i)
        }
        var groups: [DuplicateGroup] = []
        func collect(_ members: [Int], kind: Kind) {
            let files = Set(members.map { faces[$0].file })
            guard files.count > 1 else { return }
            // Faces of one file never compete: keep the first face of each file.
            var seen: Set<String> = []
            let candidates = members.map { faces[$0] }.filter { seen.insert($0.file).inserted }
            var winner = candidates[0]
            for face in candidates.dropFirst() where beats(face, winner, directoryRank: directoryRank) != nil {
                winner = face
            }
            let losers = candidates.filter { $0 != winner }.map { loser in
                Loser(face: loser, reason: beats(winner, loser, directoryRank: directoryRank) ?? .laterPath)
            }
            groups.append(DuplicateGroup(kind: kind, key: key(kind, winner: winner), winner: winner, losers: losers))
        }
        for members in byName.values where members.count > 1 { collect(members, kind: .postscriptName) }
        for members in byStyle.values where members.count > 1 { collect(members, kind: .style) }
        return groups.sorted { ($0.key, $0.kind.rawValue) < ($1.key, $1.kind.rawValue) }
    }
}

extension DuplicateGroup.Reason {
    /// The reason's number in a snapshot's loser record (``SnapshotLayout``).
    var snapshotCode: UInt32 {
        switch self {
        case .olderRevision: 0
        case .variableInstance: 1
        case .laterDirectory: 2
        case .laterPath: 3
        }
    }

    /// The reason a snapshot's loser record names, the revisions taken from the two faces.
    ///
    /// - Parameters:
    ///   - code: ``snapshotCode`` (the validator checked it is at most 3).
    ///   - loser: the face that lost.
    ///   - winner: the face used.
    init(snapshotCode code: UInt32, loser: FaceRecord, winner: FaceRecord) {
        switch code {
        case 0: self = .olderRevision(loser: loser.fontRevision, winner: winner.fontRevision)
        case 1: self = .variableInstance
        case 2: self = .laterDirectory
        default: self = .laterPath
        }
    }
}
