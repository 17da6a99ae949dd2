/// The options several commands share: where the registry is, and how to print.
public enum CommonOptions {
    /// `--fonts DIR`: embedded mode.
    public static let fonts = CommandSpec.Option(
        "fonts", value: "DIR",
        help: "Use the fonts in DIR (or one font file) in process instead of the daemon; repeat for more.",
        example: "fontresolve list --fonts fonts/Inter --fonts fonts/Lato", repeatable: true, completion: .directory)
    /// `--rules DIR`.
    public static let rules = CommandSpec.Option(
        "rules", value: "DIR", help: "Load family rules (*.json) from DIR; embedded mode only.",
        example: "fontresolve resolve \"Avenir Fixture\" --weight 600 --fonts DIR --rules rules/", completion: .directory)
    /// `--system-fonts`.
    public static let systemFonts = CommandSpec.Option(
        "system-fonts", help: "Also index fontconfig's system fonts; embedded mode only.",
        example: "fontresolve list --fonts fonts --system-fonts")
    /// `--socket PATH`.
    public static let socket = CommandSpec.Option(
        "socket", value: "PATH",
        help: "Talk to the daemon on this socket (default: $FONTREG_SOCKET, then /run/fontreg/fontregd.sock, then $XDG_RUNTIME_DIR/fontreg/fontregd.sock).",
        example: "fontresolve status --socket /tmp/fontregd.sock", completion: .file)
    /// `--json`.
    public static let json = CommandSpec.Option(
        "json", help: "Print JSON with sorted keys (one object or one array) and nothing else on standard output.",
        example: "fontresolve list --json --fonts fonts")
    /// `--help`.
    public static let help = CommandSpec.Option(
        "help", help: "Show this help.", example: "fontresolve resolve --help")

    /// The options of a command that reads the registry, from the daemon or in process.
    public static let source: [CommandSpec.Option] = [fonts, rules, systemFonts, socket]
}
