/// The options several commands share: where the registry is, and how to print.
///
/// Each takes a sample invocation of the command it is for (`"list Lato"`), so that every
/// option's example in `--help` shows that command.
enum CommonOptions {
    /// `--fonts DIR`: embedded mode.
    package static func fonts(_ sample: String) -> CommandSpec.Option {
        .init(
            "fonts", value: "DIR",
            help: "Use the fonts in DIR (or one font file) in process instead of the daemon.",
            example: "fontresolve \(sample) --fonts fonts/Inter --fonts fonts/Lato", repeatable: true,
            completion: .directory)
    }

    /// `--rules DIR`.
    package static func rules(_ sample: String) -> CommandSpec.Option {
        .init(
            "rules", value: "DIR", help: "Load family rules (*.json) from DIR; embedded mode only.",
            example: "fontresolve \(sample) --fonts fonts --rules fonts/rules", completion: .directory)
    }

    /// `--system-fonts`.
    static func systemFonts(_ sample: String) -> CommandSpec.Option {
        .init(
            "system-fonts", help: "Also index fontconfig's system fonts; embedded mode only.",
            example: "fontresolve \(sample) --fonts fonts --system-fonts")
    }

    /// `--socket PATH`.
    package static func socket(_ sample: String) -> CommandSpec.Option {
        .init(
            "socket", value: "PATH",
            help:
                "Talk to the daemon on this socket (default: $FONTREG_SOCKET, then /run/fontreg/fontregd.sock, then $XDG_RUNTIME_DIR/fontreg/fontregd.sock).",
            example: "fontresolve \(sample) --socket /tmp/fontregd.sock", completion: .file)
    }

    /// `--json`.
    package static func json(_ sample: String) -> CommandSpec.Option {
        .init(
            "json", help: "Print JSON with sorted keys (one object or one array) and nothing else on standard output.",
            example: "fontresolve \(sample) --json")
    }

    /// `--help`.
    /// `--verbose` of register, unregister and rescan: every face, not a summary by family.
    package static func verbose(_ sample: String) -> CommandSpec.Option {
        .init(
            "verbose",
            help:
                "List every face added or removed; without it more than \(FaceChangeList.summaryThreshold) faces are summed up by family.",
            example: "fontresolve \(sample) --verbose")
    }

    package static func help(_ name: String) -> CommandSpec.Option {
        .init("help", help: "Show this help.", example: "fontresolve \(name) --help")
    }

    /// The options of a command that reads the registry, from the daemon or in process.
    package static func source(_ sample: String) -> [CommandSpec.Option] {
        [fonts(sample), rules(sample), systemFonts(sample), socket(sample)]
    }
}
