/// A small command-line parser: positional arguments, `--flag`, `--option VALUE` / `--option=VALUE`, repeatable options.
package struct ParsedArguments: Sendable {
    /// Positional arguments in order.
    var positional: [String] = []
    /// Options with their values in order (repeatable options keep every value).
    package var options: [String: [String]] = [:]
    /// Flags that were given.
    package var flags: Set<String> = []

    /// The last value of an option.
    package func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable option.
    package func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A usage error: what was wrong, shown with the usage line (exit 64).
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// The option that was not understood (without `--`), so that the caller can say which
    /// other commands take it.
    var unknownOption: String?
    package init(_ message: String, unknownOption: String? = nil) {
        self.message = message
        self.unknownOption = unknownOption
    }
    package var description: String { message }
}

/// Parses arguments against the options and flags a command accepts.
package struct ArgumentParser: Sendable {
    /// Options that take a value (without the leading `--`).
    package var options: Set<String>
    /// Flags that take no value.
    package var flags: Set<String>

    package init(options: Set<String>, flags: Set<String>) {
        self.options = options
        self.flags = flags
    }

    /// Parses `arguments` (without the program and subcommand names).
    ///
    /// - Throws: ``UsageError`` for an unknown option, or an option without its value.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        var onlyPositional = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                result.positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = String(argument.drop { $0 == "-" })
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if flags.contains(name) {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                result.flags.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < arguments.count else { throw UsageError("--\(name) needs a value") }
                    let next = arguments[i]
                    if next.hasPrefix("--"), next.count > 2,
                        options.contains(String(next.dropFirst(2).prefix { $0 != "=" }))
                            || flags.contains(String(next.dropFirst(2)))
                    {
                        throw UsageError("--\(name) needs a value; \(next) is an option of its own")
                    }
                    value = arguments[i]
                    i += 1
                }
                result.options[name, default: []].append(value)
            } else {
                let known = (options.map { "--\($0) VALUE" } + flags.map { "--\($0)" }).sorted()
                let meant = CommandSuggestion.closest(to: name, among: Array(options.union(flags)).sorted())
                throw UsageError(
                    "unknown option \(argument)" + (meant.map { " (did you mean --\($0)?)" } ?? "")
                        + "; this command takes: \(known.joined(separator: ", "))",
                    unknownOption: meant == nil ? name : nil)
            }
        }
        return result
    }
}
