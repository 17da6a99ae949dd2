import FontRegCore
import FontRegJSON
import FontRegProtocol
import Foundation

/// `fontresolve candidates FAMILY [query options]`: the family's faces in the order CSS tries them.
enum CandidatesCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "candidates", arguments: "FAMILY",
        summary: "List a family's faces in the order CSS Fonts 4 tries them for a query, best first.",
        discussion: """
            Like `fc-match -s` or DirectWrite's GetMatchingFonts: every face of FAMILY ranked by width, \
            then style, then weight for the query, each with the variation values to set and what \
            the renderer must fake, so that a renderer can fall back without asking again. Takes \
            the options of `resolve`. An unregistered family exits 1 (no system fallback).
            """,
        options: ResolveCommand.spec.options.filter { !["explain", "strict"].contains($0.name) },
        examples: [
            "fontresolve candidates Inter --weight 650",
            "fontresolve candidates \"Open Sans\" --width condensed --style italic --json",
        ],
        argumentCompletion: .family)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let query: ResolveQuery
        do {
            query = try ResolveCommand.query(from: context.arguments)
        } catch {
            throw context.spec.usageError(error.message)
        }
        let list = try context.backend().candidates(
            query, statingBoldText: ResolveCommand.statesBoldText(context.arguments))
        if context.json {
            context.console.line(list.jsonValue.text(pretty: true))
        } else {
            context.console.line(render(list, console: context.console))
        }
        return .success
    }

    /// One line per face: rank, PostScript name, weight drawn, variations and synthesis.
    package static func render(_ list: CandidateList, console: Console) -> String {
        var lines = ["\(list.resolvedFamily) at \(list.effectiveWeight), best first:"]
        for (n, candidate) in list.candidates.enumerated() {
            var parts = [
                "\(n + 1).".padding(toLength: 4, withPad: " ", startingAt: 0)
                    + console.styled(candidate.face.postscriptName, .bold),
                "weight \(candidate.weight)", candidate.face.style.rawValue,
                "width \(VariationSetting.format(candidate.face.widthPercent))%",
            ]
            if !candidate.variations.isEmpty {
                parts.append("variations: " + candidate.variations.map(\.description).joined(separator: " "))
            }
            if !candidate.synthesis.isEmpty { parts.append("synthesis: \(candidate.synthesis)") }
            if candidate.exact { parts.append(console.styled("exact", .green)) }
            lines.append("  " + parts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
