/// What a running subcommand has at hand: its parsed arguments, the console, and the way to its registry.
package struct CommandContext: Sendable {
    /// The subcommand's description.
    package let spec: CommandSpec
    /// The parsed arguments.
    package let arguments: ParsedArguments
    /// Where output goes.
    package let console: Console
    /// The process environment.
    package let environment: [String: String]

    package init(spec: CommandSpec, arguments: ParsedArguments, console: Console, environment: [String: String]) {
        self.spec = spec
        self.arguments = arguments
        self.console = console
        self.environment = environment
    }

    /// Whether `--json` was given.
    package var json: Bool { arguments.has("json") }

    /// Whether the command runs in embedded mode (`--fonts` or `--system-fonts`).
    var isEmbedded: Bool { !arguments.values("fonts").isEmpty || arguments.has("system-fonts") }

    /// The daemon socket the command would use.
    package var socketPath: String {
        SocketLocator(environment: environment).socketPath(option: arguments.value("socket"))
    }

    /// The registry to talk to: embedded with `--fonts`, else the daemon.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for `--rules` without `--fonts`, or both
    ///   `--fonts` and `--socket`; ``CLIError/daemonUnreachable(socket:reason:)``.
    package func backend() throws(CLIError) -> any RegistryBackend {
        if isEmbedded {
            if arguments.value("socket") != nil {
                throw spec.usageError("--socket and --fonts exclude each other: --fonts runs without the daemon")
            }
            let arguments = self.arguments
            let backend = try ProgressIndicator(console: console).run("Scanning fonts") { () throws(CLIError) in
                try EmbeddedBackend(arguments: arguments)
            }
            for directory in backend.emptyDirectories {
                console.error(
                    "\(console.styledError("warning:", .yellow)) --fonts \(directory) holds no font files"
                        + " (TrueType, OpenType, collections, WOFF, Type 1, PCF or BDF); answers come from the other fonts or the system's"
                )
            }
            return backend
        }
        if arguments.value("rules") != nil {
            throw spec.usageError("--rules needs --fonts: the daemon loads the rules of its own configuration")
        }
        let locator = SocketLocator(environment: environment)
        do {
            // resolve, list and face read the daemon's snapshot unless told not to (issue 13).
            if spec.options.contains(where: { $0.name == "no-snapshot" }) && !arguments.has("no-snapshot") {
                let socket = socketPath
                let snapshot = SnapshotBackend(socketPath: socket) { [console] in console.error($0) }
                if snapshot.isMapped { return snapshot }
            }
            return try DaemonBackend(socketPath: socketPath)
        } catch .daemonUnreachable(let socket, let reason) where locator.isDiscovered(option: arguments.value("socket"))
        {
            let tried = locator.defaultCandidates.joined(separator: " and ")
            throw .daemonUnreachable(
                socket: socket,
                reason: "\(reason) (no --socket or $\(SocketLocator.environmentVariable) was given; looked at \(tried))"
            )
        }
    }

    /// The positional arguments, checked against a count.
    func positional(_ range: ClosedRange<Int>, missing: String) throws(CLIError) -> [String] {
        let values = arguments.positional
        if values.count < range.lowerBound { throw spec.usageError(missing) }
        if values.count > range.upperBound {
            throw spec.usageError(
                "too many arguments: \(values.joined(separator: " ")); quote names that contain spaces")
        }
        return values
    }

    /// Prints a value as key-sorted JSON.
    func printJSON<T: Encodable>(_ value: T) {
        console.line(JSONOutput.text(value))
    }

    /// Prints a value as JSON with `--json`, else as the text `render` makes of it for people.
    package func print<T: Encodable>(_ value: T, render: (T) -> String) {
        if json { printJSON(value) } else { console.line(render(value)) }
    }
}
