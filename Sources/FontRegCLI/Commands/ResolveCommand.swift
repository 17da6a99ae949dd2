import FontRegCore

/// `fontresolve resolve FAMILY [--weight W] [--italic] [--style S] [--width W] [--optical-size PT]
/// [--synthesis S] [--bold-text | --no-bold-text] [--bold-policy P] [--strict] [--explain] [--json]`.
enum ResolveCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "resolve", arguments: "FAMILY",
        summary: "Find the face that serves a family at a weight and style.",
        discussion: """
            Resolves FAMILY ("Noto Sans", "NotoSans" and "noto-sans" are the same) at a weight and \
            style: the family rule and aliases, Bold Text, the composed face name, then the nearest \
            face by the CSS Fonts 4 rules (width, then style, then weight), then fontconfig's system \
            sans-serif (marked SYSTEM FALLBACK) unless --strict. The answer says what to draw with: \
            the variation axis values to set on a variable face (variations: wght=650) and what the \
            renderer must fake (synthesis: bold). Exits 1 when nothing serves the query.
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
                "style", value: "S",
                help: "CSS font-style: normal, italic, oblique or \"oblique ANGLEdeg\" (--italic is the shorthand).",
                example: "fontresolve resolve Inter --style \"oblique 8deg\"",
                completion: .values(["normal", "italic", "oblique"])),
            .init(
                "width", value: "W",
                help:
                    "CSS font-stretch: ultra-condensed, extra-condensed, condensed, semi-condensed, normal, semi-expanded, expanded, extra-expanded, ultra-expanded, or a percentage (87.5%).",
                example: "fontresolve resolve \"Open Sans\" --width condensed",
                completion: .values(FontWidth.keywords)),
            .init(
                "optical-size", value: "PT",
                help: "The text size in points: sets opsz on faces that have the axis (CSS font-optical-sizing: auto).",
                example: "fontresolve resolve Inter --optical-size 24"),
            .init(
                "synthesis", value: "S",
                help:
                    "What the renderer may fake, as CSS font-synthesis: \"weight style\" (default; also weight,style), weight, style or none.",
                example: "fontresolve resolve Lato --weight 900 --synthesis none",
                completion: .values(["none", "weight", "style", "weight,style"])),
            .init(
                "bold-text",
                help: "The Accessibility Bold Text setting is on: use a heavier weight by the Bold Text policy.",
                example: "fontresolve resolve Inter --weight 600 --bold-text"),
            .init(
                "no-bold-text",
                help: "Bold Text is off for this query, over your own setting (fontresolve bold-text) and the default.",
                example: "fontresolve resolve Inter --weight 600 --no-bold-text"),
            .init(
                "bold-policy", value: "P",
                help: "The Bold Text policy: next-heavier (default), ios-system, android or css-bolder.",
                example: "fontresolve resolve Inter --bold-text --bold-policy css-bolder",
                completion: .values(BoldTextPolicy.allCases.map(\.rawValue))),
            .init(
                "strict", help: "Fail (exit 1) instead of using a system fallback for an unknown family.",
                example: "fontresolve resolve \"Helvetica Neue\" --strict"),
            .init(
                "text", value: "TEXT",
                help:
                    "Split TEXT into runs and give each the face that covers it: FAMILY may be a list (\"Lato, Noto Sans, sans-serif\"); the style options apply to every run.",
                example: "fontresolve resolve Lato --text \"Hello 世界 😀\" --bold-text"),
            .init(
                "lang", value: "TAG",
                help: "The text's language (BCP 47): picks the Han face, ja, zh-Hans, zh-Hant, zh-HK or ko.",
                example: "fontresolve resolve Lato --text 直角 --lang ja",
                completion: .values(["ja", "ko", "zh-Hans", "zh-Hant", "zh-HK"])),
            .init(
                "explain", help: "Also print every step the resolver took, in plain words.",
                example: "fontresolve resolve Lato --weight 800 --explain"),
            CommonOptions.json("resolve Inter --weight 600"),
        ] + CommonOptions.source("resolve Inter --weight 600") + [
            CommonOptions.noSnapshot("resolve Inter --weight 600"), CommonOptions.help("resolve"),
        ],
        examples: [
            "fontresolve resolve Inter --weight 600 --fonts fonts/Inter",
            "fontresolve resolve Lato --weight bold --bold-text --explain --fonts fonts --rules fonts/rules",
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
        if arguments.has("bold-text") && arguments.has("no-bold-text") {
            throw UsageError("--bold-text and --no-bold-text contradict each other; give one")
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
        var query = ResolveQuery(
            family: family, weight: weight, italic: arguments.has("italic"), boldText: arguments.has("bold-text"),
            boldPolicy: policy, strict: arguments.has("strict"))
        try readRenderingOptions(arguments, into: &query)
        return query
    }

    /// Reads `--style`, `--width`, `--optical-size` and `--synthesis`.
    ///
    /// - Throws: ``UsageError`` naming the accepted values.
    static func readRenderingOptions(_ arguments: ParsedArguments, into query: inout ResolveQuery) throws(UsageError) {
        if let text = arguments.value("style") {
            guard let style = RequestedStyle(parsing: text) else {
                throw UsageError("unknown style \"\(text)\"; use normal, italic, oblique or \"oblique 10deg\"")
            }
            if style != .normal || !query.italic { query.style = style }
        }
        if let text = arguments.value("width") {
            guard let width = FontWidth.parse(text) else {
                throw UsageError(
                    "unknown width \"\(text)\"; use a percentage (87.5%) or one of: \(FontWidth.keywords.joined(separator: ", "))"
                )
            }
            query.width = width
        }
        if let text = arguments.value("optical-size") {
            guard let size = Double(text), size > 0, size <= 10_000 else {
                throw UsageError("the optical size \"\(text)\" is not a size in points (e.g. 12 or 24)")
            }
            query.opticalSize = size
        }
        if let text = arguments.value("synthesis") {
            guard let permission = SynthesisPermission(parsing: text) else {
                throw UsageError("unknown synthesis \"\(text)\"; use \"weight style\", weight, style or none")
            }
            query.synthesis = permission
        }
    }

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        try run(context, explain: context.arguments.has("explain"))
    }

    /// Whether the command line said Bold Text on or off (`--bold-text`, `--no-bold-text`), so the
    /// daemon is told even "off" and the user's Bold Text setting does not apply.
    static func statesBoldText(_ arguments: ParsedArguments) -> Bool {
        arguments.has("bold-text") || arguments.has("no-bold-text")
    }

    /// Runs `resolve`, or `explain` with `explain` set.
    static func run(_ context: CommandContext, explain: Bool) throws(CLIError) -> ExitStatus {
        let query: ResolveQuery
        do {
            query = try self.query(from: context.arguments)
        } catch {
            throw context.spec.usageError(error.message)
        }
        if let text = context.arguments.value("text") {
            return try ResolveTextCommand.run(context, query: query, text: text, explain: explain)
        }
        let reply = try context.backend().resolve(query, statingBoldText: statesBoldText(context.arguments))
        if context.json {
            context.console.line(JSONOutput.text(reply))
        } else {
            context.console.line(render(reply, explain: explain, console: context.console))
        }
        return .success
    }

    /// `wght=650 opsz=24`, in the face's axis order.
    static func describe(_ variations: [String: Double], axes: [VariationAxis]) -> String {
        let order = Dictionary(axes.enumerated().map { ($0.element.tag, $0.offset) }) { first, _ in first }
        return variations.map { VariationSetting(tag: $0.key, value: $0.value) }
            .sorted { (order[$0.tag] ?? Int.max, $0.tag) < (order[$1.tag] ?? Int.max, $1.tag) }
            .map(\.description).joined(separator: " ")
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
        var weight = "\(reply.weight)"
        if reply.effectiveWeight != reply.requestedWeight {
            weight +=
                " (asked \(reply.requestedWeight), Bold Text \(reply.effectiveWeight)\(reply.boldPolicy.map { " by \($0.rawValue)" } ?? ""))"
        } else if reply.weight != reply.requestedWeight {
            weight += " (asked \(reply.requestedWeight))"
        }
        lines.append("  weight:    \(weight)\(face.italic ? ", italic" : "")")
        if !reply.variations.isEmpty {
            lines.append("  variations: \(describe(reply.variations, axes: face.axes))")
        }
        if !reply.synthesis.isEmpty { lines.append("  synthesis: \(reply.synthesis)") }
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
