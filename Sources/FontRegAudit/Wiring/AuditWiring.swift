import FontRegCore
import Foundation

/// The faces a design system must ship, resolved to the registered font files: what every emitter writes from.
///
/// Built from an ``AuditReport`` and the faces it was computed against, so every name an emitter
/// writes (PostScript name, family, file) is the one read from the font file, never one guessed
/// from a token. A variable face that serves several required weights appears once, with all of them.
/// A face that stands in for a missing required weight (the 700 drawing a missing 600) ships too,
/// with that weight in ``Face/standsInFor``: every emitter and `--copy-fonts` include it.
package struct AuditWiring: Sendable {
    /// One font file (or one face of a collection) the design system ships.
    package struct Face: Sendable, Hashable {
        /// The registered face: for a variable font its default face, else the static face or named instance.
        package var record: FaceRecord
        /// The required weights this face serves, ascending.
        package var weights: [Int]
        /// `normal`, `italic` or `oblique`.
        package var style: FontStyle
        /// The missing required weights this face stands in for (the 700 drawing a missing 600), ascending.
        ///
        /// The face ships for them: without it the text would fall to a system font.
        package var standsInFor: [Int] = []

        /// The weights the face is declared at: its own weight for a static face; for a variable face the
        /// weights it serves and those it stands in for, clamped to its `wght` range.
        var declaredWeights: [Int] {
            guard isVariable else { return [record.weight] }
            let range = weightAxisRange
            return Array(Set(weights + standsInFor.map { min(max($0, range.lowerBound), range.upperBound) })).sorted()
        }

        /// Whether the face is a variable font's default face (its `wght` range serves the weights).
        package var isVariable: Bool { !record.axes.isEmpty }

        /// The file's name without its folder (`Lato-Bold.ttf`).
        package var fileName: String { (record.file as NSString).lastPathComponent }

        /// The `wght` axis range of a variable face, else its single weight.
        package var weightAxisRange: ClosedRange<Int> {
            if let axis = record.axes.first(where: { $0.tag == "wght" }) {
                return Int(axis.minimum.rounded())...Int(axis.maximum.rounded())
            }
            return record.weight...record.weight
        }

        /// The axis settings that draw `weight` with this face: `wght` for a variable face, nothing for a static one.
        ///
        /// Hook for the resolution's `variations` (the issue "Answers a renderer can draw with"):
        /// when resolutions carry the settings a renderer must apply, take them from there instead
        /// of deriving `wght` from the weight here; every emitter asks this one place.
        func variationSettings(for weight: Int) -> [(tag: String, value: Double)] {
            guard isVariable, record.axes.contains(where: { $0.tag == "wght" }) else { return [] }
            return [("wght", Double(weight))]
        }

        /// The CSS `format()` hint for the file, from its extension.
        var cssFormat: String {
            switch (record.file as NSString).pathExtension.lowercased() {
            case "otf": "opentype"
            case "woff": "woff"
            case "woff2": "woff2"
            case "ttc", "otc": "collection"
            default: "truetype"
            }
        }
    }

    /// One family as the design system names it, with its shipped faces.
    package struct Family: Sendable, Hashable {
        /// The family as the tokens name it (`font-family` in CSS).
        package var name: String
        /// The family as the font files name it.
        package var registeredFamily: String
        /// The faces to ship, by style then weight.
        package var faces: [Face]
    }

    /// The families with at least one shipped face, sorted by name.
    package var families: [Family]
    /// The text styles the design system declares, for the CSS custom properties.
    package var uses: [TypographyUse]

    /// Every distinct file to ship, sorted.
    package var files: [String] { Array(Set(families.flatMap { $0.faces.map(\.record.file) })).sorted() }

    /// Resolves the report's shipped faces to the registered faces.
    ///
    /// - Parameters:
    ///   - report: the audit's answer.
    ///   - faces: the faces the report was computed against.
    ///   - uses: the text styles read from the inputs.
    package init(report: AuditReport, faces: [FaceRecord], uses: [TypographyUse]) {
        var byName: [String: [FaceRecord]] = [:]
        for face in faces { byName[face.postscriptName, default: []].append(face) }
        var families: [Family] = []
        for family in report.families {
            var collected: [Face] = []
            for style in family.styles {
                for shipped in style.faces {
                    guard let matches = byName[shipped.postscriptName],
                        let record = matches.first(where: { $0.file == shipped.file })
                    else { continue }
                    Self.add(shipped.weight, record: record, to: &collected, faces: faces)
                }
                for standIn in style.standIns {
                    guard let matches = byName[standIn.postscriptName],
                        let record = matches.first(where: { $0.file == standIn.file })
                    else { continue }
                    Self.add(standIn.weight, record: record, to: &collected, faces: faces, standingIn: true)
                }
            }
            guard !collected.isEmpty else { continue }
            collected.sort {
                ($0.style.rawValue, $0.declaredWeights.first ?? 0) < ($1.style.rawValue, $1.declaredWeights.first ?? 0)
            }
            families.append(
                Family(
                    name: family.family, registeredFamily: family.registeredFamily ?? collected[0].record.family,
                    faces: collected))
        }
        self.families = families
        self.uses = uses
    }

    /// Adds one served weight: a named instance or the default face of a variable file folds into the file's default face.
    ///
    /// With `standingIn`, the face draws `weight` in place of a missing face: it ships, listed under ``Face/standsInFor``.
    private static func add(
        _ weight: Int, record: FaceRecord, to collected: inout [Face], faces: [FaceRecord], standingIn: Bool = false
    ) {
        var face = record
        if record.instance != nil || !record.axes.isEmpty,
            let base = faces.first(where: {
                $0.file == record.file && $0.index == record.index && $0.instance == nil && !$0.axes.isEmpty
            })
        {
            face = base
        }
        if let existing = collected.firstIndex(where: {
            $0.record.file == face.file && $0.record.index == face.index && $0.record.instance == face.instance
        }) {
            if standingIn {
                if !collected[existing].standsInFor.contains(weight) {
                    collected[existing].standsInFor.append(weight)
                    collected[existing].standsInFor.sort()
                }
            } else if !collected[existing].weights.contains(weight) {
                collected[existing].weights.append(weight)
                collected[existing].weights.sort()
            }
        } else if standingIn {
            collected.append(Face(record: face, weights: [], style: record.style, standsInFor: [weight]))
        } else {
            collected.append(Face(record: face, weights: [weight], style: record.style))
        }
    }
}
