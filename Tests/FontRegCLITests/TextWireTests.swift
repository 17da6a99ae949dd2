import FontRegJSON
import FontRegTestSupport
import Foundation
import Testing
import Varlink

@testable import FontRegCore
@testable import FontRegProtocol

/// `ResolveText`'s reply written member by member and its compact form (issue 29), on real
/// multilingual text with Debian's fonts, in process and over one daemon.
@Suite(.serialized) struct TextWireTests {
    /// The benchmark's texts (scripts/bench-fallback-texts: real sentences in five scripts, each
    /// repeated to at least 4 KiB as `fontreg-bench --fallback` does), plus a mixed line.
    static func texts() throws -> [(label: String, text: String)] {
        let directory = BuildProducts.packageRoot.appendingPathComponent("scripts/bench-fallback-texts").path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".txt") }
        #expect(names.count == 5)
        return try names.sorted().map { name in
            let sample = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            var text = sample
            while text.utf8.count < 4096 { text += sample }
            return (String(name.dropLast(4)), text)
        } + [("mixed", "Hello 世界 مرحبا 😀 नमस्ते \u{10FFFD} 1️⃣ 🇯🇵")]
    }

    @Test("The compact reply decodes to the same answer as the full one and as in process, with and without explain")
    func compactAndFullAgree() throws {
        let daemon = try DaemonProcess(fonts: TextResolveCLITests.fonts, extraArguments: ["--watch", "no"])
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let cache = TemporaryDirectory()
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: TextResolveCLITests.fonts, cacheDirectory: cache.file("cache")))
        let resolver = TextResolver(resolver: registry.resolver)
        var runsSeen = 0
        for (label, text) in try Self.texts() {
            for explain in [false, true] {
                let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: "", weight: .semibold))
                let compact = try client.resolveText(text, query, explain: explain)
                let full = try client.resolveText(text, query, explain: explain, compact: false)
                let local = TextReply(try resolver.resolve(text, query), explain: explain)
                #expect(compact == full, "\(label), explain \(explain)")
                #expect(full == local, "\(label), explain \(explain)")
                #expect(compact.runs.map(\.text).joined() == text)
                runsSeen += compact.runs.count
            }
        }
        // The texts make many runs (the Arabic one 816 with these fonts): the equality is not of one run each.
        #expect(runsSeen > 2 * 2000)
    }

    @Test("The daemon's compact replies are read directly, to the same answer as the general path and the full reply")
    func directReaderOnTheDaemonsReplies() throws {
        let daemon = try DaemonProcess(fonts: TextResolveCLITests.fonts, extraArguments: ["--watch", "no"])
        let client = try RegistryClient(socketPath: daemon.socketPath)
        let prefix = Array(#"{"parameters":"#.utf8)
        var runsSeen = 0
        for (label, text) in try Self.texts() {
            for explain in [false, true] {
                let query = TextQuery(families: ["Lato"], style: ResolveQuery(family: "", weight: .semibold))
                var request = query.varlinkParameters(text: text, explain: explain)
                request["compact"] = .bool(true)
                try client.connection.send(
                    VarlinkCall(method: RegistryInterface.qualified("ResolveText"), parameters: request))
                let message = try client.connection.receiveMessage()
                #expect(message.starts(with: prefix) && message.last == UInt8(ascii: "}"), "\(label)")
                let parameters = Array(message[prefix.count..<(message.count - 1)])
                let direct = parameters.withUnsafeBufferPointer { TextReplyDecoder.reply(parameters: $0, text: text) }
                let tree = try #require(try JSONParser.parse(parameters).objectValue)
                let general = try #require(TextReply(parameters: tree, text: text), "\(label)")
                #expect(direct == general, "\(label), explain \(explain)")
                #expect(direct == (try client.resolveText(text, query, explain: explain, compact: false)))
                runsSeen += direct?.runs.count ?? 0
            }
        }
        #expect(runsSeen > 2 * 2000)
    }

    @Test("The full reply written member by member is byte for byte the tree's; the compact one names each face once")
    func writerMatchesTheTree() throws {
        let cache = TemporaryDirectory()
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: TextResolveCLITests.fonts, cacheDirectory: cache.file("cache")))
        let resolver = TextResolver(resolver: registry.resolver)
        for (label, text) in try Self.texts() {
            for explain in [false, true] {
                let resolution = try resolver.resolve(
                    text, TextQuery(families: ["Lato"], style: ResolveQuery(family: "")))
                var streamed = JSONBytesWriter()
                TextReply.write(resolution, explain: explain, compact: false, to: &streamed)
                let tree = JSONValue.object(TextReply(resolution, explain: explain).parameters).serialized()
                #expect(streamed.output == tree, "\(label), explain \(explain)")

                var compact = JSONBytesWriter()
                TextReply.write(resolution, explain: explain, compact: true, to: &compact)
                let parsed = try #require(try JSONParser.parse(compact.output).objectValue)
                let faces = try #require(parsed["faces"]?.arrayValue)
                let names = faces.compactMap { $0["postscriptName"]?.stringValue }
                #expect(names.count == faces.count)
                #expect(Set(names).count == names.count, "\(label): a face written twice")
                #expect(parsed["spans"]?.arrayValue?.count == resolution.runs.count * TextReply.spanStride)
                #expect(parsed["runs"]?.arrayValue == [])
                #expect(TextReply(parameters: parsed, text: text) == TextReply(resolution, explain: explain))
                #expect(compact.output.count < tree.count || resolution.runs.count == 1)
            }
        }
    }

    @Test("Adjacent runs never share a face: the builder merges them, so spans alternate")
    func adjacentRunsDiffer() throws {
        let cache = TemporaryDirectory()
        let registry = try FontRegistry(
            configuration: RegistryConfiguration(
                fontDirectories: TextResolveCLITests.fonts, cacheDirectory: cache.file("cache")))
        let resolver = TextResolver(resolver: registry.resolver)
        for (label, text) in try Self.texts() {
            let runs = try resolver.resolve(text, TextQuery(families: ["Lato"], style: ResolveQuery(family: ""))).runs
            for (left, right) in zip(runs, runs.dropFirst()) {
                let same =
                    left.resolution.face.file == right.resolution.face.file
                    && left.resolution.face.index == right.resolution.face.index
                    && left.resolution.face.instance == right.resolution.face.instance
                #expect(!same, "\(label): two adjacent runs in \(left.resolution.face.postscriptName)")
                #expect(left.end == right.start && left.endUTF16 == right.startUTF16)
            }
        }
    }

    @Test("fontresolve resolve --text prints the recorded output over the daemon and embedded, people's and JSON")
    func outputMatchesTheSnapshots() throws {
        let daemon = try DaemonProcess(fonts: TextResolveCLITests.fonts, extraArguments: ["--watch", "no"])
        let text = "Hello 世界 مرحبا 😀 नमस्ते \u{10FFFD}"
        for (flags, name) in [([], "resolve-text.txt"), (["--json"], "resolve-text.json")] {
            let query = ["resolve", "Lato, sans-serif", "--text", text, "--bold-text"] + flags
            let remote = try FontResolveProcess.run(query + ["--socket", daemon.socketPath])
            let local = try FontResolveProcess.run(query + TextResolveCLITests.fontArguments)
            #expect(remote.status == 0 && local.status == 0)
            #expect(remote.stdout == local.stdout)
            Snapshot.expect(local.stdout, matches: name)
        }
    }
}
