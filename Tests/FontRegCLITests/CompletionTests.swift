import FontRegTestSupport
import Foundation
import Testing

/// The committed completion scripts in real shells: bash through `complete`'s own function and
/// through keystrokes in tmux, zsh when it is installed.
@Suite("shell completion")
struct CompletionTests {
    static let bashScript = BuildProducts.packageRoot.appendingPathComponent("completions/fontresolve.bash").path
    static let fixtures = FontResolveProcess.fixtures

    /// Runs `_fontresolve` in bash on a command line split into words, the cursor on the last one
    /// unless `cursor` says which.
    func complete(_ words: [String], cursor: Int? = nil) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try runCommand(
            [
                "/bin/bash", "--norc", "--noprofile", "-c",
                """
                cd '\(BuildProducts.packageRoot.path)'
                source '\(Self.bashScript)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(cursor ?? words.count - 1); _fontresolve
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
            ], environment: ["PATH": BuildProducts.directory.path + ":/usr/bin:/bin", "NO_COLOR": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func multiWordFamilyNamesCompleteEscapedFromTheFontsOnTheLine() throws {
        #expect(try complete(["fontresolve", "resolve", "--fonts", Self.fixtures, "Avenir"]) == ["Avenir\\ Fixture"])
        #expect(
            try complete(["fontresolve", "resolve", "Gothic\\ Fix", "--fonts", Self.fixtures], cursor: 2) == [
                "Gothic\\ Fixture\\ Neo"
            ])
        #expect(
            try complete(["fontresolve", "list", "--fonts", Self.fixtures, "\"Open"]) == [
                "Open\\ Fixture", "Open\\ Fixture\\ Condensed",
            ])
    }

    @Test func faceCompletesPostScriptNamesAndRulesCompletesItsCommandThenFamilies() throws {
        #expect(
            try complete(["fontresolve", "face", "--fonts", "fonts", "Lato-Hair"]) == [
                "Lato-Hairline", "Lato-HairlineItalic",
            ])
        #expect(try complete(["fontresolve", "rules", "s"]) == ["suggest", "show"])
        #expect(try complete(["fontresolve", "rules", "show", "--fonts", "fonts", "La"]) == ["Lato"])
    }

    /// Issue 30: a value of several words completes as one word, and every option with a fixed
    /// set of values completes them.
    @Test func optionValuesCompleteAsSingleWordsForSynthesisScopeAndKind() throws {
        let synthesis = try complete(["fontresolve", "resolve", "Lato", "--synthesis", ""])
        #expect(synthesis.sorted() == ["none", "style", "weight", "weight,style"])
        #expect(try complete(["fontresolve", "register", "x", "--scope", "p"]) == ["persistent"])
        #expect(try complete(["fontresolve", "disable", "Lato", "--kind", "fa"]) == ["face", "family"])
        #expect(try complete(["fontresolve", "enable", "Lato", "--kind", "fi"]) == ["file"])
    }

    /// Keystrokes in an interactive bash in tmux: the completed line must run as the shell shows it.
    @Test func inARealBashTabCompletesAFamilyWithSpacesAndADirectoryWithItsSlash() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is missing; scripts/setup-deps.sh --test installs it")
            return
        }
        let session = "fontreg-completion-\(getpid())"
        let output = NSTemporaryDirectory() + session + ".screen"
        // Through system(3), not Process pipes: the tmux server outlives the command and would keep
        // a pipe open; its output goes to /dev/null or a file instead.
        func tmux(_ arguments: String) -> Int32 {
            system("/usr/bin/tmux -L \(session) \(arguments) </dev/null >'\(output)' 2>&1")
        }
        let shell =
            "env -i PATH=\(BuildProducts.directory.path):/usr/bin:/bin NO_COLOR=1 TERM=xterm PS1=\\$\\  bash --norc --noprofile"
        #expect(tmux("new-session -d -s \(session) -x 200 -y 50 '\(shell)'") == 0)
        defer {
            _ = tmux("kill-server")
            try? FileManager.default.removeItem(atPath: output)
        }
        func type(_ keys: String...) {
            _ = tmux("send-keys -t \(session) " + keys.map { "'\($0)'" }.joined(separator: " "))
        }
        func screen() -> String {
            _ = tmux("capture-pane -p -t \(session)")
            return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        func waitFor(_ text: String) -> Bool {
            (try? FontRegTestSupport.waitFor("\(text) on the terminal", timeout: 5, interval: 0.05) {
                screen().contains(text)
            }) != nil
        }
        type("cd \(BuildProducts.packageRoot.path) && source \(Self.bashScript) && clear", "Enter")
        #expect(waitFor("$"), "\(screen())")  // capture-pane trims the prompt's trailing space
        type("fontresolve list --fonts Tests/Fix", "Tab")
        #expect(waitFor("fontresolve list --fonts Tests/Fixtures/"), "\(screen())")
        type("fonts Avenir", "Tab")
        #expect(waitFor("--fonts Tests/Fixtures/fonts Avenir\\ Fixture"), "\(screen())")
        type("Enter")
        #expect(waitFor("AvenirFixture-Heavy"), "the completed line runs: \(screen())")
    }
}
