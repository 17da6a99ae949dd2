extension CommonOptions {
    /// `--no-snapshot`: ask the daemon over its socket even when its snapshot could answer.
    static func noSnapshot(_ sample: String) -> CommandSpec.Option {
        .init(
            "no-snapshot",
            help:
                "Ask the daemon over its socket instead of reading the snapshot it publishes beside the socket (same answers; for comparisons and debugging).",
            example: "fontresolve \(sample) --no-snapshot")
    }
}
