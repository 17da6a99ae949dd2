import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCLI

/// `--help`, `help COMMAND`, the generated completion scripts and man page.
@Suite struct HelpTests {
    @Test func helpListsEveryCommandAndTheExitStatuses() throws {
        let output = try FontResolveProcess.run(["--help"])
        #expect(output.status == 0)
        for name in CommandCatalog.commandNames { #expect(output.stdout.contains("\n  \(name) ")) }
        #expect(output.stdout.contains("FONTREG_SOCKET"))
        #expect(output.stdout.contains("69 the daemon"))
        #expect(output.stdout.contains("77 permission denied"))
        Snapshot.expect(output.stdout, matches: "help.txt")
    }

    @Test(arguments: CommandCatalog.commandNames)
    func helpOfEachCommandDocumentsEveryOptionWithAnExample(name: String) throws {
        let output = try FontResolveProcess.run(["help", name])
        #expect(output.status == 0)
        let spec = try #require(CommandCatalog.command(named: name)).spec
        #expect(output.stdout.hasPrefix(spec.usage))
        for option in spec.options {
            #expect(output.stdout.contains(option.synopsis), "\(name) --help lacks \(option.synopsis)")
            #expect(output.stdout.contains("e.g. " + option.example), "\(name) --\(option.name) lacks its example")
        }
        let viaFlag = try FontResolveProcess.run([name, "--help"])
        #expect(viaFlag.stdout == output.stdout)
    }

    @Test func commandNamesMatchTheCatalog() {
        #expect(CommandCatalog.commandNames == CommandCatalog.specs.map(\.name))
    }

    @Test func resolveHelpMatchesItsSnapshot() throws {
        Snapshot.expect(try FontResolveProcess.run(["help", "resolve"]).stdout, matches: "help-resolve.txt")
    }

    @Test func committedCompletionScriptsAndManPageAreUpToDate() throws {
        let bash = try FontResolveProcess.run(["completion", "bash"])
        let zsh = try FontResolveProcess.run(["completion", "zsh"])
        let man = try FontResolveProcess.run(["help", "--man"])
        #expect(bash.status == 0 && zsh.status == 0 && man.status == 0)
        Snapshot.expectFile("completions/fontresolve.bash", equals: bash.stdout)
        Snapshot.expectFile("completions/_fontresolve", equals: zsh.stdout)
        Snapshot.expectFile("man/fontresolve.1", equals: man.stdout)
    }

    @Test func bashCompletionParsesAndCompletesCommandsAndWeights() throws {
        let script = BuildProducts.packageRoot.appendingPathComponent("completions/fontresolve.bash").path
        let check = try runCommand([
            "/bin/bash", "-c",
            """
            source '\(script)'
            COMP_WORDS=(fontresolve re); COMP_CWORD=1; _fontresolve; echo "${COMPREPLY[*]}"
            COMP_WORDS=(fontresolve resolve Lato --weight semi); COMP_CWORD=4; _fontresolve; echo "${COMPREPLY[*]}"
            COMP_WORDS=(fontresolve list --j); COMP_CWORD=2; _fontresolve; echo "${COMPREPLY[*]}"
            """,
        ])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "resolve register rescan\nsemibold\n--json\n")
    }

    @Test func zshCompletionParses() throws {
        guard
            FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")
                || FileManager.default.isExecutableFile(atPath: "/bin/zsh")
        else {
            return  // zsh is not installed here; the script is still compared with the generator above.
        }
        let script = BuildProducts.packageRoot.appendingPathComponent("completions/_fontresolve").path
        let check = try runCommand(["/usr/bin/env", "zsh", "-n", script])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func manPageRendersWithoutTroffWarnings() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let page = BuildProducts.packageRoot.appendingPathComponent("man/fontresolve.1").path
        let check = try runCommand(["/usr/bin/groff", "-man", "-Tutf8", "-ww", "-z", page])
        #expect(check.status == 0)
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }
}
