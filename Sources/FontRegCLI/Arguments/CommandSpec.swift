/// What a subcommand of `fontresolve` accepts, and the words that document it in `--help`, the man page and completions.
package struct CommandSpec: Sendable {
    /// One option or flag.
    package struct Option: Sendable {
        /// What a shell should complete after the option.
        package enum Completion: Sendable, Hashable {
            /// Nothing to offer, a file, a directory, a registered family name, a registered PostScript name.
            case none, file, directory, family, face
            /// One of these words.
            case values([String])
            /// One of these words first (a sub-command such as `rules show`), then family names.
            case valuesThenFamily([String])
        }

        /// The name without the leading `--`.
        package var name: String
        /// The placeholder of the value (`W`, `DIR`); `nil` for a flag.
        package var value: String?
        /// What it does, in one sentence.
        package var help: String
        /// A command line that uses it.
        package var example: String
        /// Whether it may be given more than once.
        var repeatable: Bool
        /// What a shell should complete after it.
        package var completion: Completion

        package init(
            _ name: String, value: String? = nil, help: String, example: String, repeatable: Bool = false,
            completion: Completion = .none
        ) {
            self.name = name
            self.value = value
            self.help = help
            self.example = example
            self.repeatable = repeatable
            self.completion = completion
        }

        /// `--name VALUE` or `--name`.
        package var synopsis: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }
    }

    /// The subcommand's name.
    package var name: String
    /// The positional arguments as the usage line shows them (`FAMILY`, `PATH...`).
    package var arguments: String
    /// One line: what the command does.
    package var summary: String
    /// A paragraph with the details.
    var discussion: String
    /// The options it takes, the shared ones included.
    package var options: [Option]
    /// Command lines to copy, each with what it shows.
    package var examples: [String]
    /// What a shell should complete for the positional arguments.
    var argumentCompletion: Option.Completion

    package init(
        name: String, arguments: String = "", summary: String, discussion: String, options: [Option],
        examples: [String], argumentCompletion: Option.Completion = .none
    ) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.examples = examples
        self.argumentCompletion = argumentCompletion
    }

    /// The usage line: `usage: fontresolve NAME ARGS [--option VALUE]...`.
    package var usage: String {
        var parts = ["usage: fontresolve", name]
        if !arguments.isEmpty { parts.append(arguments) }
        for option in options where option.name != "help" {
            parts.append("[\(option.synopsis)]\(option.repeatable ? "..." : "")")
        }
        return parts.joined(separator: " ")
    }

    /// The parser for this command's options (and `--help`).
    package var parser: ArgumentParser {
        ArgumentParser(
            options: Set(options.filter { $0.value != nil }.map(\.name)),
            flags: Set(options.filter { $0.value == nil }.map(\.name)).union(["help"]))
    }

    /// Parses arguments, turning a parse failure into a usage error with this command's usage line.
    package func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        do {
            return try parser.parse(arguments)
        } catch {
            throw CLIError.usage("fontresolve \(name): \(error)" + elsewhere(error.unknownOption), usage: usage)
        }
    }

    /// Which other commands take an option this one does not ("--fonts is an option of resolve,
    /// …, not of register"), or nothing.
    func elsewhere(_ option: String?) -> String {
        guard let option else { return "" }
        var others: [String] = []
        for command in CommandCatalog.commands where command.spec.options.contains(where: { $0.name == option }) {
            others.append(command.spec.name)
        }
        if others.isEmpty { return "" }
        let daemon = option == "fonts" ? ": \(name) asks the daemon, which reads the fonts it was started with" : ""
        return ". --\(option) is an option of \(others.joined(separator: ", ")), not of \(name)\(daemon)"
    }

    /// A usage error for this command.
    func usageError(_ message: String) -> CLIError {
        .usage("fontresolve \(name): \(message)", usage: usage)
    }
}
