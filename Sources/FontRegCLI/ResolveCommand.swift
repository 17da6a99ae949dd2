import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegProtocol
import FontRegSystem
import Varlink

/// `fontresolve resolve FAMILY [--weight W] [--italic] [--bold-text] [--bold-policy P] [--strict] [--explain] [--json]`.
package enum ResolveCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "resolve", arguments: "FAMILY",
        summary: "Find the face that serves a family at a weight and style.",
        discussion: """
            Resolves FAMILY ("Noto Sans", "NotoSans" and "noto-sans" are the same) at a weight and \
            style: the family rule and aliases, Bold Text, the composed face name, then the nearest \
            weight by the CSS Fonts 4 rules, then fontconfig's system sans-serif (marked SYSTEM \
            FALLBACK) unless --strict. Exits 1 when nothing serves the query.
            """,
        options: [
            .init(
                "weight", value: "W",
                help:
                    "A weight from 1 to 1000 or a name: thin, extralight, light, regular, medium, semibold, bold, extrabold, black, heavy (800) … (default regular).",
                example: "fontresolve resolve Inter --weight semibold",
                completion: .values([
                    "thin", "extralight", "light", "regular", "medium", "semibold", "bold", "extrabold", "black", "100",
                    "200", "300", "400", "500", "600", "700", "800", "900",
                ])),
            .init("italic", help: "Ask for an italic face.", example: "fontresolve resolve Lato --weight 300 --italic"),
            .init(
                "bold-text",
                help: "The Accessibility Bold Text setting is on: use a heavier weight by the Bold Text policy.",
                example: "fontresolve resolve Inter --weight 600 --bold-text"),
            .init(
                "bold-policy", value: "P",
                help: "The Bold Text policy: next-heavier (default), ios-system, android or css-bolder.",
                example: "fontresolve resolve Inter --bold-text --bold-policy css-bolder",
                completion: .values(BoldTextPolicy.allCases.map(\.rawValue))),
            .init(
                "strict", help: "Fail (exit 1) instead of using a system fallback for an unknown family.",
                example: "fontresolve resolve \"Helvetica Neue\" --strict"),
            .init(
                "explain", help: "Also print every step the resolver took, in plain words.",
                example: "fontresolve resolve Lato --weight 800 --explain"),
            CommonOptions.json("resolve Inter --weight 600"),
        ] + CommonOptions.source("resolve Inter --weight 600") + [CommonOptions.help("resolve")],
        examples: [
            "fontresolve resolve Inter --weight 600 --fonts fonts/Inter",
            "fontresolve resolve \"Avenir Fixture\" --weight bold --bold-text --explain",
            "fontresolve resolve Lato --weight 250 --italic --json",
        ],
        argumentCompletion: .family)

    /// Parses the query flags into a ``ResolveQuery``.
    ///
    /// - Throws: ``UsageError`` for a missing family, an unknown weight or policy.
    package static func query(from arguments: ParsedArguments) throws(UsageError) -> ResolveQuery {
        guard arguments.positional.count == 1, let family = arguments.positional.first else {
            throw UsageError(
                arguments.positional.isEmpty
                    ? "needs a FAMILY"
                    : "takes one FAMILY; quote names with spaces: \"\(arguments.positional.joined(separator: " "))\"")
        }
        var weight = FontWeight.regular
        if let text = arguments.value("weight") {
            guard let parsed = FontWeight(parsing: text) else {
                throw UsageError(
                    "unknown weight \"\(text)\"; use a number from 1 to 1000 or one of: \(FontWeight.acceptedNames.joined(separator: ", "))"
                )
            }
            weight = parsed
        }
        var policy: BoldTextPolicy?
        if let text = arguments.value("bold-policy") {
            guard let parsed = BoldTextPolicy(name: text) else {
                throw UsageError(
                    "unknown Bold Text policy \"\(text)\"; use one of: \(BoldTextPolicy.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            policy = parsed
        }
        return ResolveQuery(
            family: family, weight: weight, italic: arguments.has("italic"), boldText: arguments.has("bold-text"),
            boldPolicy: policy, strict: arguments.has("strict"))
    }

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        try run(context, explain: context.arguments.has("explain"))
    }

    /// Runs `resolve`, or `explain` with `explain` set.
    static func run(_ context: CommandContext, explain: Bool) throws(CLIError) -> ExitStatus {
        let query: ResolveQuery
        do {
            query = try self.query(from: context.arguments)
        } catch {
            throw context.spec.usageError(error.message)
        }
        let reply = try context.backend().resolve(query)
        context.print(reply) { render($0, explain: explain, console: context.console) }
        return .success
    }

    /// Renders a resolution for people: the face, how it was found, then (with `explain`) the trace.
    package static func render(_ reply: ResolutionReply, explain: Bool, console: Console) -> String {
        let face = reply.face
        var lines: [String] = []
        let fallback = reply.match == .systemFallback
        let marker = fallback ? "  " + console.styled("[SYSTEM FALLBACK]", .red) : ""
        lines.append(console.styled(face.postscriptName, .bold) + marker)
        lines.append("  file:      \(PathDisplay.location(of: face))")
        lines.append("  family:    \(face.family) \(face.subfamily)")
        var weight = "\(face.weight)"
        if reply.effectiveWeight != reply.requestedWeight {
            weight +=
                " (asked \(reply.requestedWeight), Bold Text \(reply.effectiveWeight)\(reply.boldPolicy.map { " by \($0.rawValue)" } ?? ""))"
        } else if face.weight != reply.requestedWeight {
            weight += " (asked \(reply.requestedWeight))"
        }
        lines.append("  weight:    \(weight)\(face.italic ? ", italic" : "")")
        let matchStyle: Console.Style =
            fallback ? .red : (reply.match == .nearestWeight ? .yellow : .green)
        let composed = reply.composedName.flatMap { $0.isEmpty ? nil : " (composed name \($0))" } ?? ""
        lines.append("  match:     \(console.styled(reply.match.rawValue, matchStyle))\(composed)")
        for warning in reply.warnings { lines.append("  \(console.styled("warning:", .yellow))   \(warning)") }
        if explain {
            lines.append("why:")
            for (n, step) in reply.trace.enumerated() { lines.append("  \(n + 1). \(step)") }
        }
        return lines.joined(separator: "\n")
    }
}
