import FontRegCore
import FontRegJSON
import FontRegProtocol

/// `fontresolve layout FAMILY [--weight W] [--italic] --size PX --line-height VALUE [--explain] [--json]`:
/// where the resolved face puts the baseline, and the settings that make each platform agree (issue 27).
enum LayoutCommand: Subcommand {
    package static let spec = CommandSpec(
        name: "layout", arguments: "FAMILY",
        summary: "Answer where a face puts its baseline on a line, and each platform's settings for it.",
        discussion: """
            Resolves FAMILY as `resolve` does, then takes the face's metrics at --size on a line of \
            --line-height: Figma's baseline (half the leading above and below the hhea ascender and \
            descender) and AUTO line height, the CSS line-height with the @font-face overrides that \
            give every browser that baseline, UIKit's paragraph line heights and YMatterType's \
            baseline offset, Android's lineHeight and firstBaselineToTopHeight, Flutter's height and \
            Compose's LineHeightStyle. Lengths are in px (points, dp) down from the line top; \
            --explain prints the formulas (docs/layout.md gives their sources).
            """,
        options: ResolveCommand.spec.options.filter { ["weight", "italic", "style", "width"].contains($0.name) } + [
            .init(
                "size", value: "PX", help: "The font size in pixels (required).",
                example: "fontresolve layout Lato --size 16 --line-height 24px"),
            .init(
                "line-height", value: "VALUE",
                help: "The line height (required): 24px, a multiple of the size (1.5) or a percentage of it (150%).",
                example: "fontresolve layout Roboto --size 14 --line-height 150%"),
            .init(
                "explain", help: "Also print the formulas with this face's values.",
                example: "fontresolve layout Inter --size 16 --line-height 1.5 --explain"),
            CommonOptions.json("layout Inter --size 16 --line-height 24px"),
        ] + CommonOptions.source("layout Inter --size 16 --line-height 24px") + [
            CommonOptions.noSnapshot("layout Inter --size 16 --line-height 24px"), CommonOptions.help("layout"),
        ],
        examples: [
            "fontresolve layout Lato --size 16 --line-height 24px",
            "fontresolve layout Roboto --weight bold --size 14 --line-height 1.25 --json",
            "fontresolve layout Inter --size 16 --line-height 150% --explain --fonts /usr/share/fonts/opentype/inter",
        ],
        argumentCompletion: .family)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let query: ResolveQuery
        let size: Double
        let lineHeight: LineHeight
        do {
            query = try ResolveCommand.query(from: context.arguments)
            (size, lineHeight) = try sizes(from: context.arguments)
        } catch {
            throw context.spec.usageError(error.message)
        }
        let reply = try context.backend().resolve(query)
        let answer: LayoutAnswer
        do {
            answer = try LayoutAnswer(face: reply.face, size: size, lineHeight: lineHeight)
        } catch {
            throw .failed(error.description)
        }
        if context.json {
            context.console.line(answer.jsonValue.text(pretty: true))
        } else {
            context.console.line(render(answer, console: context.console))
            if context.arguments.has("explain") { context.console.line("\n" + explain(answer)) }
        }
        return .success
    }

    /// Reads `--size` and `--line-height`.
    static func sizes(from arguments: ParsedArguments) throws(UsageError) -> (Double, LineHeight) {
        guard let text = arguments.value("size") else { throw UsageError("needs --size PX, e.g. --size 16") }
        guard let size = Double(text.hasSuffix("px") ? String(text.dropLast(2)) : text), size.isFinite, size > 0
        else { throw UsageError("--size \"\(text)\" is not a number of pixels above 0; e.g. --size 16") }
        guard let heightText = arguments.value("line-height") else {
            throw UsageError("needs --line-height VALUE: 24px, 1.5 (times the size) or 150%")
        }
        guard let lineHeight = LineHeight(parsing: heightText) else {
            throw UsageError("--line-height \"\(heightText)\" is not 24px, 1.5 (times the size) or 150%")
        }
        return (size, lineHeight)
    }
}
