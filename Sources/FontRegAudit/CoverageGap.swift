/// What one required face lacks of the languages and sample texts the audit was given (issue 12).
///
/// Encoded in the `--json` report under `coverage`; every field name below is a JSON key.
package struct CoverageGap: Sendable, Hashable, Codable {
    /// The family as the design system spells it.
    package var family: String
    /// `normal`, `italic` or `oblique`.
    package var style: String
    /// The required weight the face serves.
    package var weight: Int
    /// `used` or `boldText`: the gap is resolved as the face is drawn in that role.
    package var role: String
    /// The face's PostScript name.
    package var postscriptName: String
    /// The sample characters the face does not map, as `U+4E16 世`, in order of first appearance.
    package var missingCharacters: [String]
    /// The language tags asked for that the face does not cover (fontconfig's orthographies).
    package var missingLanguages: [String]
    /// The faces text fallback draws the missing characters with, in order of first appearance.
    package var standIns: [CoverageStandIn]
    /// Characters no registered face covers, as `U+xxxx c`.
    package var uncovered: [String]
    /// The text style the face is required by, as `file:line:column (name)`, for CI annotations.
    package var source: String

    package init(
        family: String, style: String, weight: Int, role: String, postscriptName: String,
        missingCharacters: [String], missingLanguages: [String], standIns: [CoverageStandIn], uncovered: [String],
        source: String
    ) {
        self.family = family
        self.style = style
        self.weight = weight
        self.role = role
        self.postscriptName = postscriptName
        self.missingCharacters = missingCharacters
        self.missingLanguages = missingLanguages
        self.standIns = standIns
        self.uncovered = uncovered
        self.source = source
    }

    /// The face in words: `Lato-Regular (400)`, with ` under Bold Text` for the Bold Text role.
    var faceDescription: String {
        "\(family) \(weight)\(style == "normal" ? "" : " \(style)") (\(postscriptName))"
            + (role == "boldText" ? " under Bold Text" : "")
    }

    /// The gap in one sentence, for tables and CI messages.
    package var summary: String {
        var parts: [String] = []
        if !missingCharacters.isEmpty {
            parts.append("lacks \(missingCharacters.count) sample character\(missingCharacters.count == 1 ? "" : "s")")
        }
        if !missingLanguages.isEmpty { parts.append("does not cover \(missingLanguages.joined(separator: ", "))") }
        var sentence = "\(faceDescription) " + parts.joined(separator: " and ")
        if !standIns.isEmpty {
            sentence +=
                "; "
                + standIns.map { "\($0.postscriptName) (\($0.family) \($0.weight)) stands in for \($0.characters)" }
                .joined(separator: ", ")
        }
        if !uncovered.isEmpty {
            sentence += "; no registered face covers \(uncovered.joined(separator: ", "))"
        }
        return sentence
    }
}

/// A face that draws characters a required face lacks.
package struct CoverageStandIn: Sendable, Hashable, Codable {
    /// Its PostScript name.
    package var postscriptName: String
    /// Its family.
    package var family: String
    /// The weight it is drawn at (Bold Text applied with its own family's weights for the `boldText` role).
    package var weight: Int
    /// Whether it is italic.
    package var italic: Bool
    /// Its file.
    package var file: String
    /// The sample text it draws, as the runs give it.
    package var characters: String

    package init(postscriptName: String, family: String, weight: Int, italic: Bool, file: String, characters: String) {
        self.postscriptName = postscriptName
        self.family = family
        self.weight = weight
        self.italic = italic
        self.file = file
        self.characters = characters
    }
}
