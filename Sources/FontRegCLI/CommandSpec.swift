import FontRegAudit
import FontRegCore
import FontRegJSON
import FontRegService
import FontRegSystem
import Varlink

/// What a subcommand of `fontresolve` accepts, and the words that document it in `--help`, the man page and completions.
public struct CommandSpec: Sendable {
    /// One option or flag.
    public struct Option: Sendable {
        /// What a shell should complete after the option.
        public enum Completion: Sendable, Hashable {
            case none, file, directory, family
            case values([String])
        }

        /// The name without the leading `--`.
        public var name: String
        /// The placeholder of the value (`W`, `DIR`); `nil` for a flag.
        public var value: String?
        /// What it does, in one sentence.
        public var help: String
        /// A command line that uses it.
        public var example: String
        /// Whether it may be given more than once.
        public var repeatable: Bool
        /// What a shell should complete after it.
        public var completion: Completion

        public init(
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
        public var synopsis: String { value.map { "--\(name) \($0)" } ?? "--\(name)" }
    }

    /// The subcommand's name.
    public var name: String
    /// The positional arguments as the usage line shows them (`FAMILY`, `PATH...`).
    public var arguments: String
    /// One line: what the command does.
    public var summary: String
    /// A paragraph with the details.
    public var discussion: String
    /// The options it takes, the shared ones included.
    public var options: [Option]
    /// Command lines to copy, each with what it shows.
    public var examples: [String]
    /// What a shell should complete for the positional arguments.
    public var argumentCompletion: Option.Completion

    public init(
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
    public var usage: String {
        var parts = ["usage: fontresolve", name]
        if !arguments.isEmpty { parts.append(arguments) }
        for option in options where option.name != "help" {
            parts.append("[\(option.synopsis)]\(option.repeatable ? "..." : "")")
        }
        return parts.joined(separator: " ")
    }

    /// The parser for this command's options (and `--help`).
    public var parser: ArgumentParser {
        ArgumentParser(
            options: Set(options.filter { $0.value != nil }.map(\.name)),
            flags: Set(options.filter { $0.value == nil }.map(\.name)).union(["help"]))
    }

    /// Parses arguments, turning a parse failure into a usage error with this command's usage line.
    public func parse(_ arguments: [String]) throws(CLIError) -> ParsedArguments {
        do {
            return try parser.parse(arguments)
        } catch {
            throw CLIError.usage("fontresolve \(name): \(error)", usage: usage)
        }
    }

    /// A usage error for this command.
    public func usageError(_ message: String) -> CLIError {
        .usage("fontresolve \(name): \(message)", usage: usage)
    }
}
