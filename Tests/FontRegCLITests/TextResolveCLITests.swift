import FontRegJSON
import FontRegTestSupport
import Foundation
import Testing

@testable import FontRegCore
@testable import FontRegProtocol
@testable import Varlink

/// `fontresolve resolve --text` and `face --covers` (issue 12) with real Debian fonts, embedded and over one daemon.
@Suite(.serialized) struct TextResolveCLITests {
    /// Lato, Noto Sans CJK and the Noto scripts with Noto Color Emoji (scripts/setup-deps.sh --test).
    static let fonts = [
        "/usr/share/fonts/truetype/lato", "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/noto",
    ]
    static let fontArguments = fonts.flatMap { ["--fonts", $0] }

    @Test("The daemon and embedded mode print the same runs and coverage; the JSON has the issue's members")
    func daemonAndEmbeddedAgree() throws {
        let daemon = try DaemonProcess(fonts: Self.fonts, extraArguments: ["--watch", "no"])
        let query = ["resolve", "Lato", "--text", "Hello 世界 مرحبا 😀", "--bold-text", "--lang", "ja", "--json"]
        let remote = try FontResolveProcess.run(query + ["--socket", daemon.socketPath])
        let local = try FontResolveProcess.run(query + Self.fontArguments)
        #expect(remote.status == 0 && local.status == 0)
        #expect(remote.stdout == local.stdout)
        let reply = try #require(try FontResolveProcess.json(local) as? [String: Any])
        let runs = try #require(reply["runs"] as? [[String: Any]])
        #expect(
            runs.map { $0["postscriptName"] as? String } == [
                // The spaces are Lato's, which has them (CSS's per-cluster rule, issue 26).
                "Lato-Medium", "NotoSansCJKjp-Bold", "Lato-Medium", "NotoSansArabic-Bold", "Lato-Medium",
                "NotoColorEmoji",
            ])
        #expect(runs.map { $0["weight"] as? Int } == [500, 700, 500, 700, 500, 400])
        let members: Set<String> = [
            "text", "start", "end", "startUTF16", "endUTF16", "postscriptName", "file", "index", "weight", "italic",
            "variations", "synthesis", "fallback", "reason",
        ]
        #expect(runs.allSatisfy { Set($0.keys) == members })
        #expect(reply["missing"] as? [Int] == [])

        let human = ["resolve", "Lato, sans-serif", "--text", "a世\u{10FFFD}", "--explain"]
        let remoteHuman = try FontResolveProcess.run(human + ["--socket", daemon.socketPath])
        let localHuman = try FontResolveProcess.run(human + Self.fontArguments)
        #expect(remoteHuman.stdout == localHuman.stdout)
        #expect(localHuman.stdout.contains("missing: U+10FFFD"))
        #expect(localHuman.stdout.contains("Han drawn as zh-Hans (no --lang given)"))
        #expect(localHuman.stdout.contains("    1. Asked for \"Lato\""))

        let covers = ["face", "Lato-Regular", "--covers", "Hé世"]
        let remoteCovers = try FontResolveProcess.run(covers + ["--socket", daemon.socketPath])
        let localCovers = try FontResolveProcess.run(covers + Self.fontArguments)
        #expect(remoteCovers.stdout == localCovers.stdout)
        #expect(localCovers.stdout.contains("missing:   U+4E16  世"))
        #expect(!localCovers.stdout.contains("U+00E9"))

        let client = try RegistryClient(socketPath: daemon.socketPath)
        let long = String(repeating: "a", count: TextResolver.maximumTextBytes + 1)
        do {
            _ = try client.resolveText(long, TextQuery(families: ["Lato"], style: ResolveQuery(family: "")))
            Issue.record("a text over the limit was answered")
        } catch {
            guard case .remote(let remoteError) = error else {
                Issue.record("expected TextTooLong, got \(error)")
                return
            }
            #expect(remoteError.name == RegistryInterface.ErrorName.textTooLong)
            #expect(remoteError.parameters["limit"]?.intValue == TextResolver.maximumTextBytes)
        }
    }
}
