import FontRegCore
import FontRegSystem

/// The faces a change added or removed, for people: a table of every face when there are few,
/// a summary by family when there are many (the table with `--verbose`).
enum FaceChangeList {
    /// More faces than this are summed up by family unless `--verbose` is given.
    static let summaryThreshold = 50
    /// Families named in a summary; the rest are counted.
    static let familiesShown = 20

    /// The lines to print under the summary line of register, unregister or rescan.
    ///
    /// - Parameters:
    ///   - faces: the faces added or removed.
    ///   - verbose: whether every face is listed whatever their number.
    ///   - console: for the table's bold header.
    static func lines(_ faces: [FaceRecord], verbose: Bool, console: Console) -> [String] {
        if faces.isEmpty { return [] }
        if verbose || faces.count <= summaryThreshold {
            return ListCommand.facesTable(faces).render(header: { console.styled($0, .bold) }).map { "  " + $0 }
        }
        return summary(faces, sign: nil) + ["  (--verbose lists every face)"]
    }

    /// One line per family (the largest first), then how many more families there are.
    ///
    /// - Parameters:
    ///   - faces: the faces to sum up.
    ///   - sign: `+` or `-` before each family (rescan), or nil.
    static func summary(_ faces: [FaceRecord], sign: String?) -> [String] {
        let counts = Dictionary(grouping: faces, by: \.family).mapValues(\.count)
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var lines = ordered.prefix(familiesShown).map {
            "  \(sign.map { $0 + " " } ?? "")\($0.key): \(counted($0.value, "face"))"
        }
        if ordered.count > familiesShown {
            lines.append(
                "  \(sign.map { $0 + " " } ?? "")and \(counted(ordered.count - familiesShown, "more family", plural: "more families"))"
            )
        }
        return lines
    }
}
