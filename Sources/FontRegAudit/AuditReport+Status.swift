extension AuditReport {
    /// Folds the coverage gaps into the report: a sample character no registered face draws makes it incomplete.
    ///
    /// - Parameter gaps: the gaps of every required face (``CoverageGap``).
    package mutating func apply(coverage gaps: [CoverageGap]) {
        coverage = gaps
        if !uncoveredCharacters.isEmpty && status == .complete {
            complete = false
            status = .incomplete
        }
    }

    /// The sample characters no registered face draws, over every gap, in order and without repeats.
    var uncoveredCharacters: [String] {
        var seen: [String] = []
        for character in (coverage ?? []).flatMap(\.uncovered) where !seen.contains(character) {
            seen.append(character)
        }
        return seen
    }

    /// Why nothing was audited: the files read, the inputs that hold text styles, and what to pass instead.
    package var nothingAuditedMessage: String {
        let files = inputs.map(AuditFormatting.path).joined(separator: ", ")
        let formats = AuditInputFormat.allCases.map { "\($0.rawValue) (\($0.textStyleSource))" }
        return "no text style found in \(files.isEmpty ? "the inputs" : files): nothing was audited. "
            + "Text styles are read from: \(formats.joined(separator: "; ")). "
            + "Pass the files or folder that define the typography, or --format F to read a file as one of "
            + AuditInputFormat.allCases.map(\.rawValue).joined(separator: ", ") + "."
    }

    /// The warning for an input file that contributes no text style.
    package static func idleInputMessage(_ file: String) -> String {
        "\(AuditFormatting.path(file)) contributes nothing: it holds no text style and no text style uses its tokens"
    }

    /// The one-line verdict every output format ends with (never "complete" unless ``status`` is).
    package var verdict: String {
        switch status {
        case .complete:
            return "Complete: every required face is there."
        case .nothingAudited:
            return "NOTHING AUDITED: \(nothingAuditedMessage)"
        case .incomplete:
            var parts: [String] = []
            if totals.missingFaces > 0 {
                parts.append("ship the missing faces, or Bold Text and the styles above degrade")
            }
            let uncovered = uncoveredCharacters
            if !uncovered.isEmpty {
                parts.append(
                    "no registered face draws \(uncovered.joined(separator: ", ")); add a family covering it to the stack"
                )
            }
            if parts.isEmpty { parts.append("a required face is missing") }
            return "INCOMPLETE: \(parts.joined(separator: "; "))."
        }
    }
}

extension AuditInputFormat {
    /// What holds text styles in this format, for the message of an audit that found none.
    var textStyleSource: String {
        switch self {
        case .dtcg: "DTCG tokens of $type typography"
        case .tokensStudio: "Tokens Studio tokens of type typography"
        case .styleDictionary:
            "Style Dictionary tokens of type typography, or sibling font-family/font-weight/font-style tokens"
        case .tokenModule: "exported object literals with fontFamily and fontWeight members"
        case .css: "CSS rules setting font-family (or font), or --…-font-family/--…-font-weight custom properties"
        case .figmaVariables: "a Figma Variables export with font family and weight variables"
        case .swift: "Swift sources declaring YMatterType Typography values"
        case .native: "fontreg's list {\"textStyles\": [{\"name\", \"family\", \"weight\"}]}"
        }
    }
}
