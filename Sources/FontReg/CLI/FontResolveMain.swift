import Foundation

/// The `fontresolve` command: dispatches subcommands and maps errors to exit codes.
///
/// Exit codes (sysexits): 0 success; 1 not found; 64 bad usage; 69 daemon unreachable; 77 permission denied.
public enum FontResolveMain {
    /// Runs the command with the arguments after the program name; returns the exit code.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first else {
            printError("usage: fontresolve COMMAND [ARGS]; commands: resolve, rules")
            return 64
        }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "resolve", "explain":
            return resolve(rest, explain: subcommand == "explain")
        case "rules":
            return rules(rest)
        default:
            printError("fontresolve: unknown command \"\(subcommand)\"")
            return 64
        }
    }

    static func resolve(_ arguments: [String], explain: Bool) -> Int32 {
        let parsed: ParsedArguments
        let query: ResolveQuery
        do {
            parsed = try ResolveCommand.parser.parse(arguments)
            query = try ResolveCommand.query(from: parsed)
        } catch {
            printError("fontresolve resolve: \(error)\n\(ResolveCommand.usage)")
            return 64
        }
        do {
            let registry = try EmbeddedRegistry.open(parsed)
            let resolution = try registry.resolve(query)
            if parsed.has("json") {
                print(ResolutionReply.json(ResolutionReply(resolution)))
            } else {
                print(ResolveCommand.render(resolution, explain: explain || parsed.has("explain")))
            }
            return 0
        } catch let error as ResolveError {
            printError("fontresolve: \(error)")
            return 1
        } catch {
            printError("fontresolve: \(error)")
            return 1
        }
    }

    static func rules(_ arguments: [String]) -> Int32 {
        let parser = ArgumentParser(options: ["fonts", "rules"], flags: ["system-fonts", "json"])
        guard let parsed = try? parser.parse(arguments), parsed.positional.count == 2, parsed.positional[0] == "suggest" else {
            printError("usage: fontresolve rules suggest FAMILY --fonts DIR")
            return 64
        }
        do {
            let registry = try EmbeddedRegistry.open(parsed)
            guard let entry = registry.index.family(named: parsed.positional[1]) else {
                printError("fontresolve: \(ResolveError.familyNotFound(family: parsed.positional[1], suggestions: registry.index.suggestions(for: parsed.positional[1])))")
                return 1
            }
            let suggestion = RuleSuggester.suggest(for: entry)
            print(RuleSuggester.json(suggestion.rule))
            for note in suggestion.notes { printError("note: \(note)") }
            return 0
        } catch {
            printError("fontresolve: \(error)")
            return 1
        }
    }

    /// Writes a line to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
