import FontRegAudit
import FontRegCore

/// `fontresolve audit FILE...`: the design-system audit (``AuditCommand``), with faces from `--fonts` or the daemon.
enum AuditSubcommand: Subcommand {
    package static let spec = CommandSpec(
        name: "audit", arguments: "FILE...",
        summary: "Audit design-system typography against the registered faces.",
        discussion: """
            Reads design tokens (DTCG, Tokens Studio or Figma Variables; JSON or JSON5; files, \
            folders or globs merged before references resolve), Swift sources (YMatterType) or a \
            native text-style list, and reports for every family and weight used whether a face \
            serves it, with Bold Text, which faces stand in, and which files are not needed. With \
            --emit it writes the platform wiring for exactly the required faces (CSS @font-face, \
            Android font XML, iOS UIAppFonts and YMatterType families, Flutter pubspec, Style \
            Dictionary tokens). Faces come from --fonts (in process) or from the daemon's \
            ListFaces. Exit 0 when every required face is there, 1 when one is missing, 2 when an \
            input cannot be read, 64 on bad usage, 65 when no text style is found in the inputs \
            (nothing audited), 69 when the daemon cannot be reached, 73 when --report or the wiring \
            cannot be written.
            """,
        options: [
            .init(
                "bold-policy", value: "P",
                help: "The Bold Text policy: next-heavier (default), ios-system, android or css-bolder.",
                example: "fontresolve audit tokens.json --bold-policy ios-system",
                completion: .values(BoldTextPolicy.allCases.map(\.rawValue))),
            .init(
                "format", value: "F",
                help:
                    "The input format (dtcg, tokens-studio, style-dictionary, figma-variables, css, js-module, swift, native; default: detected) or the output format (sarif, github).",
                example: "fontresolve audit tokens.json --format sarif > audit.sarif", repeatable: true,
                completion: .values([
                    "dtcg", "tokens-studio", "style-dictionary", "figma-variables", "css", "js-module", "swift",
                    "native",
                    "sarif",
                    "github",
                ])),
            .init(
                "emit", value: "FORMAT",
                help:
                    "Write the wiring for the required faces into --out: css, android, ios, flutter or style-dictionary.",
                example: "fontresolve audit tokens.json --fonts fonts --emit css --emit ios --out wiring",
                repeatable: true, completion: .values(AuditEmitFormat.allCases.map(\.rawValue))),
            .init(
                "ios-api", value: "API",
                help:
                    "The YMatterType release --emit ios writes for: ymattertype2 (FontFamily, the default) or ymattertype1 (FontRepresentable).",
                example: "fontresolve audit tokens.json --fonts fonts --emit ios --ios-api ymattertype1 --out wiring",
                completion: .values(IOSFontEmitter.API.allCases.map(\.rawValue))),
            .init(
                "ios-prefix", value: "PREFIX",
                help:
                    "Put before every type name --emit ios writes, so none collides with the app's own (default FontReg: FontRegLatoFontFamily; '' for none).",
                example: "fontresolve audit tokens.json --fonts fonts --emit ios --ios-prefix Brand --out wiring"),
            .init(
                "out", value: "DIR", help: "The folder --emit writes into (one subfolder per format).",
                example: "fontresolve audit tokens.json --fonts fonts --emit flutter --out wiring",
                completion: .directory),
            .init(
                "copy-fonts", value: "DIR",
                help: "Copy exactly the font files the design system needs, with their licence files, into DIR.",
                example: "fontresolve audit tokens.json --fonts fonts --copy-fonts dist/fonts", completion: .directory),
            .init(
                "lang", value: "TAG[,TAG...]",
                help:
                    "Report, for every required face (Bold Text faces included), whether it covers these languages (fontconfig tags), and which face stands in.",
                example: "fontresolve audit tokens.json --fonts fonts --lang ja,ar", repeatable: true),
            .init(
                "sample", value: "TEXT",
                help: "Report the characters of TEXT every required face lacks, and which face draws them instead.",
                example: "fontresolve audit tokens.json --fonts fonts --sample 'Hello 世界'", repeatable: true),
            .init(
                "markdown", help: "Print the report as Markdown (for a pull-request comment).",
                example: "fontresolve audit tokens.json --markdown > audit.md"),
            .init(
                "report", value: "FILE.html", help: "Also write a self-contained HTML page that draws every face.",
                example: "fontresolve audit tokens.json --report audit.html", completion: .file),
            .init(
                "include-deprecated", help: "Also audit tokens marked deprecated.",
                example: "fontresolve audit tokens.json --include-deprecated"),
            .init(
                "theme", value: "NAME",
                help: "Audit only this theme of a Tokens Studio sync folder ($themes.json); every theme by default.",
                example: "fontresolve audit tokens --theme Light"),
            .init(
                "explain", help: "Say in the notes which tokens made each text style assembled from sibling tokens.",
                example: "fontresolve audit tokens.json --explain"),
            CommonOptions.json("audit tokens.json"),
        ] + CommonOptions.source("audit tokens.json") + [CommonOptions.help("audit")],
        examples: [
            "fontresolve audit examples/design-tokens.json --fonts fonts --rules fonts/rules",
            "fontresolve audit Sources/DesignSystem --json",
            "fontresolve audit examples/design-tokens.json --fonts fonts --markdown --report audit.html",
            "fontresolve audit docs/examples/tokens --fonts fonts --emit css --out wiring --copy-fonts wiring/fonts",
        ],
        argumentCompletion: .file)

    package static func run(_ context: CommandContext) throws(CLIError) -> ExitStatus {
        let forwarded = withoutSocket(context.arguments)
        let result: AuditCommand.Result
        if context.isEmbedded || context.arguments.value("rules") != nil {
            if context.arguments.value("socket") != nil {
                throw context.spec.usageError(
                    "--socket and --fonts exclude each other: --fonts runs without the daemon")
            }
            try EmbeddedBackend.checkPaths(context.arguments)
            result = ProgressIndicator(console: context.console).run("Auditing") {
                AuditCommand.run(arguments: forwarded)
            }
        } else {
            if context.arguments.positional.isEmpty { throw context.spec.usageError("give at least one input FILE") }
            let backend = try context.backend()
            let faces = try backend.faces(family: nil)
            result = AuditCommand.run(
                arguments: forwarded, faces: FontIndex(faces: faces), rules: try backend.rules(), backend: backend)
        }
        if !result.stdout.isEmpty {
            context.console.line(result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout)
        }
        if !result.stderr.isEmpty { context.console.errorRaw(result.stderr) }
        return ExitStatus(rawValue: result.exitCode) ?? .failure
    }

    /// The arguments as given, without `--socket`, which the audit library does not take.
    static func withoutSocket(_ arguments: ParsedArguments) -> [String] {
        var result: [String] = []
        for (name, values) in arguments.options.sorted(by: { $0.key < $1.key }) where name != "socket" {
            for value in values { result += ["--\(name)", value] }
        }
        result += arguments.flags.sorted().map { "--\($0)" }
        return result + ["--"] + arguments.positional
    }
}
